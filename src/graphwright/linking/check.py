"""``linking=checked``: the model says what each name the text leaves open is; the KB entity must agree.

The rules of context.py read what the text writes next to a name (a state, a year, "the film"). They cannot
know that the Troy Schliemann dug up is not Troy, Alabama, when the KB holds only the town: that needs a
reader who knows the world. One call per document asks the model to gloss each open name as an apposition
would ("Troy, an ancient city in Turkey"; "War and Peace, a novel by Leo Tolstoy of 1869"). The gloss is then
read by the same rules as the text: a candidate it contradicts (placed in another country, a work of another
kind or year) is out; the context's choice stands where the gloss agrees, the next candidate that survives
takes its place where it does not, and the name is minted where none survives (a wrong link is worse than a
missing one). A small model answers a choice among lettered candidates close to chance (measured, see
docs/decisions.md); a gloss is what it writes well. A link the text settles (placed or dated by the text,
no other candidate left) and a country are not asked about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, Field, create_model

from graphwright.agents.call import ask_for
from graphwright.agents.prompts import load_prompt
from graphwright.kb.records import KBRecord
from graphwright.linking.context import WORKS, Choice, description_kind, description_year, written_kind
from graphwright.linking.geography import Geography, is_country
from graphwright.linking.occupations import HUMAN, head, occupations
from graphwright.linking.place_kinds import grounds, names_a_person, place_kinds
from graphwright.llm.base import LLM
from graphwright.model.result import Usage

PROMPT = load_prompt("graphwright.linking", "check")
ORGANIZATION = "Q43229"
#: a gloss's kind against the entity's that rule it out. The small model's gloss calls a film "a movie
#: actor" and Netflix "a film director", so a person, a work or an organisation glossed against a person,
#: work or organisation entity is not judged (it lost right links on the read halves); a place is what it
#: places well
CLASHES = frozenset({("work", "place"), ("organisation", "place"), ("organisation", "other")})
#: the words a gloss calls an organisation by ("Titan, a company"; "Green Bay, a team")
ORGANISATION_WORDS = frozenset(
    """company firm corporation carmaker automaker manufacturer maker brand team club band airline bank
publisher label retailer startup start-up business""".split()
)
OPTIONS = 4  # the context's choice and at most three others it leaves possible
MAX_NAMES = 12  # per call; a longer list is asked in several calls
GLOSS_CHARS = 120
GLOSS_TOKENS = 24  # per name, with room for the JSON around it


@dataclass(frozen=True)
class Question:
    surface: str
    options: list[KBRecord]  # the context's choice first


@dataclass(frozen=True)
class Reading:
    """What the model read: the entity each name means (None: none of the KB's), why, the calls' cost."""

    entities: dict[str, KBRecord | None]
    reasons: dict[str, str]
    usage: Usage
    glosses: dict[str, str]  # what the model wrote each name is


def open_questions(choices: dict[str, tuple[str, Choice]]) -> dict[str, Question]:
    """The links the text does not settle, by normalized name."""
    return {
        key: Question(surface, [choice.best, *choice.others][:OPTIONS])
        for key, (surface, choice) in choices.items()
        if choice.best is not None and not choice.settled and not is_country(choice.best)
    }


async def glosses(llm: LLM, text: str, names: list[str], *, retries: int = 2) -> tuple[list[str], Usage]:
    """The model's apposition for each name in ``text``, in calls of at most MAX_NAMES names."""
    said, usage = [], Usage()
    for start in range(0, len(names), MAX_NAMES):
        batch = names[start : start + MAX_NAMES]
        # Any: mypy checks **fields against create_model's own keyword parameters (__base__, ...) too
        fields: dict[str, Any] = {str(i): (str, Field(max_length=GLOSS_CHARS)) for i in range(1, len(batch) + 1)}
        answer_type = create_model("Glosses", __config__=ConfigDict(extra="forbid"), **fields)
        system, user = PROMPT.render(text=text, names="\n".join(f"{i}. {n}" for i, n in enumerate(batch, 1)))
        reply = await ask_for(
            llm,
            [{"role": "system", "content": system}, {"role": "user", "content": user}],
            answer_type,
            max_retries=retries,
            max_tokens=GLOSS_TOKENS * len(batch) + 16,
        )
        usage = usage + reply.usage
        said += [reply.parsed.model_dump()[str(i)] for i in range(1, len(batch) + 1)]
    return said, usage


def gloss_against(geography: Geography, surface: str, gloss: str, record: KBRecord) -> str | None:
    """Why the model's gloss of the name is not ``record``: a place in another country, water against land
    (place_kinds.py), a person against a place and a place against a person or work, a work of another kind
    or year, a work where the KB has none; None when nothing it says disagrees."""
    written = f"{surface}, {gloss.strip().rstrip('.')}."
    said_kinds = place_kinds(gloss)
    if geography.is_place(record):
        said, placed = geography.of_text(written, leave_out=surface), geography.of_record(record)
        if said and placed and not said & placed:
            return f"a place in {', '.join(sorted(said))}, {record.id} is in {', '.join(sorted(placed))}"
        described_kinds = place_kinds(record.description)
        if said_kinds and described_kinds and not grounds(said_kinds) & grounds(described_kinds):
            return f"a {'/'.join(sorted(said_kinds))}, {record.id} a {'/'.join(sorted(described_kinds))}"  # the
            # Blue Nile, a river, is not the state of Sudan
        if not said_kinds and described_kinds and (names_a_person(gloss) or occupations(head(gloss))):
            return f"a person, {record.id} a place"  # "Ho Chi Minh, a leader", not the city
    elif said_kinds and (HUMAN in record.types or description_kind(record) in WORKS):
        return f"a place, {record.id} is none"  # "Inchon, a city in South Korea", not the 1981 film
    kind, described = written_kind(surface, written), description_kind(record)
    if kind in WORKS and described and kind != described:
        return f"a {kind}, {record.id} a {described}"
    if kind in WORKS and HUMAN in record.types:
        return f"a {kind}, {record.id} a person"
    year, described_year = re.search(r"\b(1[0-9]{3}|20[0-9]{2})\b", gloss), description_year(record)
    if kind in WORKS and year and described_year and year.group(1) != described_year:
        return f"of {year.group(1)}, {record.id} of {described_year}"
    said_kind, record_kind = gloss_kinds(geography, surface, gloss, record)
    if said_kind and record_kind and (said_kind, record_kind) in CLASHES:
        return f"{_a(said_kind)}, {record.id} {_a(record_kind)}"  # "Rio, a song", not the city
    return None


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def gloss_kinds(geography: Geography, surface: str, gloss: str, record: KBRecord) -> tuple[str | None, str | None]:
    """The kind the gloss calls the name and the entity's kind (person, place, work, organisation, other)."""
    written = f"{surface}, {gloss.strip().rstrip('.')}."
    return gloss_kind(gloss, written_kind(surface, written)), kind_of(geography, record)


def gloss_kind(gloss: str, work: str | None) -> str | None:
    """Whether the gloss calls the name a person, a place, a work or an organisation; None: none of them, or
    several."""
    what = head(gloss)
    words = set(re.findall(r"[\w-]+", what.casefold()))
    said = {
        "person": names_a_person(gloss) or bool(occupations(what)),
        "place": bool(place_kinds(gloss)),
        "work": work in WORKS,
        "organisation": bool(ORGANISATION_WORDS & words),
    }
    kinds = [k for k, yes in said.items() if yes]
    return kinds[0] if len(kinds) == 1 else None  # "a band leader" is a person and a band: no judgement


def kind_of(geography: Geography, record: KBRecord) -> str | None:
    """A person, a place, a work, an organisation or "other" (a moon, a time zone) by the entity's classes;
    None where the KB gives it none, and for a fictional character (a person in its story)."""
    described = description_kind(record)
    if not record.types or described == "character":  # a character is glossed as a person
        return None
    if HUMAN in record.types:
        return "person"
    if place_kinds(record.description):  # before organisation: a city is also a legal person
        return "place"
    if described in WORKS:
        return "work"
    kb = geography.kb
    if any(c == ORGANIZATION or ORGANIZATION in kb.superclasses(c, depth=6) for c in record.types):
        return "organisation"  # before the classes' places: a studio is also a facility
    return "place" if geography.is_place(record) else "other"


def judge_gloss(geography: Geography, question: Question, gloss: str) -> tuple[KBRecord | None, str]:
    """The first candidate the gloss does not contradict (None: none survives), and why."""
    out: list[str] = []
    for record in question.options:
        why = gloss_against(geography, question.surface, gloss, record)
        if why is None:
            return record, f"{question.surface}, {gloss}: " + "; ".join([*out, f"{record.id} fits"])
        out.append(f"{record.id}: {why}")
    return None, f"{question.surface}, {gloss}: " + "; ".join(out)


async def read_links(llm: LLM, geography: Geography, text: str, questions: dict[str, Question]) -> Reading:
    """The entity each open name means, as the model's gloss of it and the KB's candidates agree."""
    keys = list(questions)
    said, usage = await glosses(llm, text, [questions[k].surface for k in keys])
    entities, reasons = {}, {}
    for key, gloss in zip(keys, said):
        entities[key], reasons[key] = judge_gloss(geography, questions[key], gloss)
    return Reading(entities, reasons, usage, dict(zip(keys, said)))
