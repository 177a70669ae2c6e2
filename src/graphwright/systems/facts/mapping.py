"""Relation phrases onto KB properties: the relation table first, then a KB property whose label or
alias is the phrase, then one model call for all the other phrases of a document, each among the KB
properties its phrase retrieves (of the datatype its object needs); what none fits keeps its phrase."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ConfigDict, create_model

from graphwright.agents.call import ask_for
from graphwright.agents.prompts import load_prompt
from graphwright.kb.protocol import KnowledgeBase
from graphwright.kb.records import KBRecord
from graphwright.llm.base import LLM
from graphwright.systems.facts.relations import Mapping, ObjectKind, normalize_phrase, table_entry
from graphwright.systems.facts.types import fits, fits_classes, reads_backwards

PROMPT = load_prompt("graphwright.systems.facts", "map")
#: the datatypes a property must have to take an object of each kind (None: the KB does not say)
DATATYPES: dict[ObjectKind, set[str | None]] = {
    "item": {"wikibase-item", None},
    "date": {"time"},
    "number": {"quantity"},
}
SEARCHED = 24  # properties searched per phrase before the datatype filter
DESCRIPTION_CHARS = 80

Via = Literal["table", "label", "model", "minted", "outside schema", "misfit"]
Types = tuple[str | None, str | None]  # the name types of a fact's subject and object (None: a value, or untold)


@dataclass(frozen=True)
class Mapped:
    mapping: Mapping | None  # None: no property fits, the phrase is minted
    via: Via


@dataclass(frozen=True)
class Question:
    """One phrase the model is asked about, with an example fact and its candidates (each a property and
    whether the fact reads the other way round in it)."""

    phrase: str
    example: tuple[str, str, str]
    candidates: list[tuple[KBRecord, bool]]

    def render(self, number: int) -> str:
        lines = [f'{number}. "{self.phrase}" ({" | ".join(self.example)})']
        for letter, (record, swapped) in zip("abcdefgh", self.candidates):
            description = record.description
            if len(description) > DESCRIPTION_CHARS:
                description = description[: DESCRIPTION_CHARS - 1].rstrip() + "…"
            label = f"{record.label} (read from object to subject)" if swapped else record.label
            lines.append(f"  {letter}) {label}: {description}" if description else f"  {letter}) {label}")
        return "\n".join(lines)


class PropertyMapper:
    def __init__(self, kb: KnowledgeBase | None, candidates: int):
        self.kb, self.candidates = kb, candidates

    def direct(self, relation: str, kind: ObjectKind, types: Types) -> Mapped | None:
        """The table's property, or the one KB property of the right datatype named by the phrase; read the
        other way round when the names' types fit only that way."""
        entry = table_entry(relation, kind)
        if entry:
            mapping = entry.properties[kind]
            if kind == "item" and types[0] in entry.by_subject:
                return Mapped(Mapping(entry.by_subject[types[0]]), "table")
            if kind == "item" and reads_backwards(*types, entry.allows):
                return Mapped(Mapping(mapping.property, not mapping.swapped), "table")
            if _misfits(types, entry.allows, kind):  # "Yves Guillemot | founded in | 1986": a person has no inception
                return Mapped(None, "misfit")
            return Mapped(mapping, "table")
        if self.kb is None:
            return None
        phrase = normalize_phrase(relation)
        named = {
            h.record.id: h.record
            for h in self.kb.search(phrase, kind="property", mode="label", k=5)
            if h.matched in ("exact", "alias") and h.record.datatype in DATATYPES[kind]
        }
        directions = [(r, d) for r in named.values() for d in _directions(r, kind, types)]
        if len(named) == 1 and len(directions) == 1:
            record, swapped = directions[0]
            return Mapped(Mapping(record.id, swapped), "label")
        return None

    def question(self, relation: str, kind: ObjectKind, types: Types, example: tuple[str, str, str]) -> Question | None:
        """What to ask the model about a phrase the table and labels do not map; None when the KB offers
        no property of the datatype its object needs and the types its names have."""
        if self.kb is None:
            return None
        phrase = normalize_phrase(relation)
        candidates = []
        for hit in self.kb.search(phrase, kind="property", mode="fused", k=SEARCHED):
            if hit.record.datatype in DATATYPES[kind] and hit.record.datatype != "external-id":
                candidates += [(hit.record, swapped) for swapped in _directions(hit.record, kind, types)]
        return Question(phrase, example, candidates[: self.candidates]) if candidates else None


def _misfits(types: Types, allows: tuple[frozenset[str] | None, frozenset[str] | None], kind: ObjectKind) -> bool:
    """Whether the names' types rule the table's relation out as written (either way round for names)."""
    sides = (0, 1) if kind == "item" else (0,)
    return any(fits(types[i], allows[i]) is False for i in sides)


def _directions(record: KBRecord, kind: ObjectKind, types: Types) -> list[bool]:
    """How a fact can read in a property, given its names' types: [False] as written, [True] the other
    way round, [] neither (its declared subject or value classes cannot hold the names)."""
    subject, obj = types
    forward = (fits_classes(subject, record.subject_types), fits_classes(obj, record.value_types))
    if kind != "item":
        return [] if forward[0] is False else [False]
    backward = (fits_classes(obj, record.subject_types), fits_classes(subject, record.value_types))
    if False not in forward:
        return [False]
    return [True] if False not in backward and True in backward else []


async def ask_model(llm: LLM, questions: list[Question], *, retries: int) -> tuple[list[Mapped], str]:
    """One call for every question of a document; each answer is a letter of its candidates or "none"."""
    fields: dict[str, Any] = {  # each answer's Literal is built at run time: no static type names it
        str(i): (Literal[tuple([*"abcdefgh"[: len(q.candidates)], "none"])], ...) for i, q in enumerate(questions, 1)
    }
    answer_type = create_model("Mappings", __config__=ConfigDict(extra="forbid"), **fields)
    system, user = PROMPT.render(relations="\n".join(q.render(i) for i, q in enumerate(questions, 1)))
    reply = await ask_for(
        llm,
        [{"role": "system", "content": system}, {"role": "user", "content": user}],
        answer_type,
        max_retries=retries,
        max_tokens=8 * len(questions) + 16,
    )
    chosen = reply.parsed.model_dump()
    mapped = []
    for i, q in enumerate(questions, 1):
        letter = chosen[str(i)]
        if letter == "none":
            mapped.append(Mapped(None, "minted"))
        else:
            record, swapped = q.candidates["abcdefgh".index(letter)]
            mapped.append(Mapped(Mapping(record.id, swapped), "model"))
    return mapped, json.dumps(chosen)
