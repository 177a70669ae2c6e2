"""One answer call: numbered sources in (facts, passages or community summaries), a short answer and the
ids of the sources it rests on out. The JSON Schema lets the model cite only the ids it was given; an
answer from a server that ignores the schema is checked the same way.

Two readers: ``short`` (the default) answers at once; ``notes`` first writes the facts the answer needs
("<thing>: <fact>; ..."), then answers, in the same call. Notes helped the 1.5B model join two passages
and compare two things on the dev questions, but not on the test questions (docs/decisions.md, issue 46)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from graphwright.agents.call import ask_for
from graphwright.agents.prompts import load_prompt
from graphwright.errors import ModelOutputError
from graphwright.llm.base import LLM
from graphwright.llm.streaming import streaming

Reader = Literal["notes", "short"]
PROMPTS = {"short": load_prompt("graphwright.qa", "answer"), "notes": load_prompt("graphwright.qa", "answer_notes")}
CLOSED_BOOK = load_prompt("graphwright.qa", "closed_book")
MAX_CITATIONS = 6
MAX_NOTES = 400  # characters: two or three facts; a small model left unbounded restates the sources
MAX_TOKENS = {"short": 96, "notes": 320}


@dataclass
class Source:
    id: str  # F1 (a fact), P1 (a passage), C1 (a community summary)
    text: str  # the line the model reads
    documents: list[str] = field(default_factory=list)  # where it comes from: document (passage) ids
    score: float = 0.0
    detail: dict = field(default_factory=dict)  # the fact's IRIs, the passage's title, ...


class AnswerOutput(BaseModel):
    notes: str = Field("", description="the facts from the sources the answer needs (the notes reader)")
    answer: str = Field(description="the shortest phrase that answers the question")
    citations: list[str] = Field(default_factory=list, description="ids of the sources the answer rests on")


@dataclass
class AnswerReply:
    answer: str
    citations: list[Source]
    raw: str = ""
    error: str | None = None  # no valid answer after the corrections: answer is ""
    notes: str = ""  # what the notes reader wrote before answering


def schema(ids: list[str], notes: bool = False) -> dict:
    """``notes``: a notes field comes first, so the model writes it before the answer."""
    citation = {"type": "string", "enum": ids} if ids else {"type": "string"}
    properties = {"notes": {"type": "string", "maxLength": MAX_NOTES}} if notes else {}
    properties |= {
        "answer": {"type": "string"},
        "citations": {"type": "array", "items": citation, "maxItems": MAX_CITATIONS if ids else 0},
    }
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


_ANSWER_SO_FAR = re.compile(r'"answer"\s*:\s*"((?:[^"\\]|\\.)*)')


def answer_so_far(text: str) -> str | None:
    """The answer field of a JSON reply still being generated ('{"answer": "Dunc' gives 'Dunc')."""
    found = _ANSWER_SO_FAR.search(text)
    if found is None:
        return None
    raw = found.group(1)
    raw = raw[:-1] if raw.endswith("\\") and not raw.endswith("\\\\") else raw  # a half-written escape
    try:
        return json.loads(f'"{raw}"')
    except ValueError:
        return raw


async def answer(
    llm: LLM,
    question: str,
    sources: list[Source] | None,
    *,
    reader: Reader = "short",
    max_tokens: int | None = None,
    retries: int = 2,
    on_answer: Callable[[str], None] | None = None,
) -> AnswerReply:
    """``sources`` None asks without retrieval (closed book, always the short reader); an empty list asks
    with none found. ``on_answer`` gets the answer so far while the model writes it (graphwright.llm.streaming)."""
    if sources is None:
        reader = "short"
        system, user = CLOSED_BOOK.render(question=question)
    else:
        listing = "\n".join(f"[{s.id}] {s.text}" for s in sources) or "(none found)"
        system, user = PROMPTS[reader].render(
            question=question, sources=listing, example=sources[0].id if sources else "F1"
        )
    ids = [s.id for s in sources or []]
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def heard(text: str) -> None:
        so_far = answer_so_far(text)
        if so_far is not None and on_answer is not None:
            on_answer(so_far)

    try:
        with streaming(heard) if on_answer is not None else nullcontext():
            reply = await ask_for(
                llm,
                messages,
                AnswerOutput,
                schema=schema(ids, reader == "notes"),
                max_retries=retries,
                max_tokens=max_tokens or MAX_TOKENS[reader],
            )
    except ModelOutputError as exc:
        return AnswerReply("", [], error=str(exc))
    by_id = {s.id: s for s in sources or []}
    cited = [by_id[c] for c in dict.fromkeys(reply.parsed.citations) if c in by_id]
    return AnswerReply(
        " ".join(reply.parsed.answer.split()), cited, raw=reply.text, notes=" ".join(reply.parsed.notes.split())
    )
