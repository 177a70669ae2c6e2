"""A chat's memory: a follow-up is read with the turns before it, an answer is supported only by what it cites.

* ``rewrite``: "When was it founded?" after a question about Tidewater Instruments is asked as "When was
  Tidewater Instruments founded?" before retrieval. A question that names something itself is asked as
  written; one with a pronoun or "the company" takes the topic of the last turn that had one. No model
  call: the topic is the name the earlier question asked about, found in what was retrieved.
* ``contains_answer``: an answer is supported when a fact or passage it cites holds its numbers and names
  (and the topic, where the question was about one): a cited fact about another company's 2009 does not
  support "2009" as Tidewater's founding year.
* ``Conversations``: each conversation's turns, a JSON line each, in a folder, so a new tab reopens it.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

from graphwright.jsonl import append_jsonl, read_jsonl
from graphwright.qa.engine import QAResult
from graphwright.qa.seeds import names

CONVERSATION_ID = re.compile(r"^[0-9a-f]{32}$")
# what points back at the last turn's topic: a pronoun or a definite noun of the kind of thing it is
_POSSESSIVE = r"\b(?:its|her|his|their)\b"
_REFERRING = (
    r"\b(?:it|she|he|they|him|them|this|that)\b|\bthe (?:company|firm|business|organi[sz]ation|"
    r"person|man|woman|city|town|place|band|group|book|film|university|school|party|team|press|"
    r"publisher|museum|club|project|product)\b"
)
_KEY = re.compile(r"\d[\d.,:/-]*|[A-ZÀ-Þ][\w'’-]+")  # the numbers and capitalised words of an answer
_NOT_KEY = {"The", "A", "An", "It", "Its", "In", "On", "He", "She", "They", "This", "That", "Yes", "No"}


@dataclass
class Turn:
    question: str  # as the user wrote it
    asked: str  # as it was asked of the graph, the topic in place of "it"
    answer: str
    supported: bool
    topic: str | None  # the name the turn was about, for the follow-ups
    citations: list[dict] = field(default_factory=list)  # what the answer cites: id, text, documents


def rewrite(question: str, turns: list[Turn]) -> str:
    """The question with the last topic in place of the first word that points back at it."""
    topic = next((t.topic for t in reversed(turns) if t.topic), None)
    if topic is None or names(question):
        return question
    possessive = re.search(_POSSESSIVE, question, re.I)
    referring = re.search(_REFERRING, question, re.I)
    first = min((m for m in (possessive, referring) if m), key=lambda m: m.start(), default=None)
    if first is None:
        return question
    written = f"{topic}'s" if first is possessive else topic
    return question[: first.start()] + written + question[first.end() :]


def topic_of(asked: str, result: QAResult) -> str | None:
    """The name the question asked about that the graph holds: a name in it that a retrieved fact or
    passage mentions, else the node retrieval started from."""
    said = " ".join(s.text for s in result.sources).casefold()
    return next((n for n in names(asked) if n.casefold() in said), None) or next(
        (s.label for s in result.seeds if s.label), None
    )


def contains_answer(answer: str, result: QAResult, topic: str | None) -> bool:
    """Whether a cited fact or passage holds the answer's numbers and names (all of them), and the topic;
    an answer of common words only is held where a cited text has its longer words."""
    keys = [k.rstrip(".,") for k in _KEY.findall(answer) if k not in _NOT_KEY]
    if not keys:
        keys = [w for w in re.findall(r"\w{5,}", answer.casefold())]
    for cited in result.citations:
        text = cited.text.casefold()
        if keys and all(k.casefold() in text for k in keys) and (topic is None or topic.casefold() in text):
            return True
    return False


def unsupported_answer(topic: str | None, result: QAResult) -> str:
    """What to say when nothing cited holds the answer: that the graph does not state it, and what it holds."""
    held = [s.text for s in (result.citations or result.sources)[:3]]
    about = f" about {topic}" if topic else ""
    if not held:
        return f"The graph holds nothing{about} that answers this."
    return f"The graph does not state this. What it holds{about}: " + " ".join(held)


class Conversations:
    """The turns of each conversation, in ``folder``/<id>.jsonl."""

    def __init__(self, folder: Path):
        self.folder = folder

    def new_id(self) -> str:
        return uuid.uuid4().hex

    def turns(self, conversation: str) -> list[Turn]:
        return [Turn(**row) for row in read_jsonl(self._path(conversation))]

    def add(self, conversation: str, turn: Turn) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        append_jsonl(self._path(conversation), asdict(turn))

    def _path(self, conversation: str) -> Path:
        if not CONVERSATION_ID.match(conversation):  # the id names a file: nothing else may reach the disk
            raise ValueError(f"not a conversation id: {conversation!r}")
        return self.folder / f"{conversation}.jsonl"
