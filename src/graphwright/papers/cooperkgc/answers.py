"""What the expert agents answer, the JSON Schema that constrains each answer to its background's
schema, and the simplifier S of paper 003: only parsed, schema-valid results the text supports go to
the peers and into the graph.

Answers are compact lists (an entity is ``[type, words]``, a triple ``[head, relation, tail]``, an event
argument ``[role, words]``): the small models this runs on spend most of their time generating.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from graphwright.cues import cued

Pair = Annotated[list[str], Field(min_length=2, max_length=2)]
Triple = Annotated[list[str], Field(min_length=3, max_length=3)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")  # another task's answer shape is an error fed back, not an empty answer


class NERAnswer(Strict):
    entities: list[Pair] = Field(default_factory=list, description="[type, words] per entity")


class REAnswer(Strict):
    triples: list[Triple] = Field(default_factory=list, description="[head, relation, tail] per fact")


class EventItem(Strict):
    type: str
    trigger: str = Field(description="the word or phrase that says the event happened")
    arguments: list[Pair] = Field(default_factory=list, description="[role, words] per argument")


class EEAnswer(Strict):
    events: list[EventItem] = Field(default_factory=list)


Answer = NERAnswer | REAnswer | EEAnswer
ANSWER_TYPES: dict[str, type[BaseModel]] = {"ner": NERAnswer, "re": REAnswer, "ee": EEAnswer}
A = TypeVar("A", bound=BaseModel)


def as_answer(answer: BaseModel, kind: type[A]) -> A:
    """An expert's answer as its task's answer type, which it is: every expert is asked for
    ``ANSWER_TYPES[task]``, and a missing answer is that type's empty one."""
    assert isinstance(answer, kind), f"a {kind.__name__} was expected, not a {type(answer).__name__}"
    return answer


def _enum(values: list[str]) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def _tuple(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "prefixItems": list(items), "minItems": len(items), "maxItems": len(items)}


def _answer_schema(key: str, item: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": key,
        "type": "object",
        "properties": {key: {"type": "array", "items": item}},
        "required": [key],
        "additionalProperties": False,
    }


def ner_schema(types: list[str]) -> dict[str, Any]:
    return _answer_schema("entities", _tuple(_enum(types), {"type": "string"}))


def re_schema(relations: list[str]) -> dict[str, Any]:
    return _answer_schema("triples", _tuple({"type": "string"}, _enum(relations), {"type": "string"}))


def ee_schema(types: list[str], roles: list[str]) -> dict[str, Any]:
    event = {
        "type": "object",
        "properties": {
            "type": _enum(types),
            "trigger": {"type": "string"},
            "arguments": {"type": "array", "items": _tuple(_enum(roles), {"type": "string"})},
        },
        "required": ["type", "trigger", "arguments"],
        "additionalProperties": False,
    }
    return _answer_schema("events", event)


def locate(words: str, text: str) -> tuple[int, int] | None:
    """Where the words occur in the text: exactly, else ignoring case and the spacing between words."""
    words = words.strip()
    if not words:
        return None
    at = text.find(words)
    if at >= 0:
        return at, at + len(words)
    found = re.search(r"\s+".join(map(re.escape, words.split())), text, re.IGNORECASE)
    return (found.start(), found.end()) if found else None


def copied(words: str, text: str) -> str | None:
    """The text's own spelling of the words, or None when the text does not hold them: an answer
    copies the text, not the model's memory."""
    span = locate(words, text)
    return None if span is None else text[span[0] : span[1]]


def simplify_ner(answer: NERAnswer, text: str, types: list[str]) -> NERAnswer:
    kept = [[t, w] for t, w in ((t, copied(w, text)) for t, w in answer.entities) if t in types and w]
    return NERAnswer(entities=_unique(kept))


def simplify_re(
    answer: REAnswer, text: str, relations: list[str], cues: dict[str, list[str]] | None = None
) -> REAnswer:
    """Triples of the schema's relations between two different spans of the text; a relation with cue words
    only where a sentence naming its head or tail holds one of them."""
    kept = [
        [h, r, t]
        for h, r, t in ((copied(h, text), r, copied(t, text)) for h, r, t in answer.triples)
        if r in relations and h and t and h != t and cued(text, (h, t), (cues or {}).get(r))
    ]
    return REAnswer(triples=_unique(kept))


def simplify_ee(answer: EEAnswer, text: str, roles_of: dict[str, list[str]]) -> EEAnswer:
    events, seen = [], set()
    for e in answer.events:
        trigger = copied(e.trigger, text)
        if e.type not in roles_of or not trigger:
            continue
        arguments = _unique(
            [[r, w] for r, w in ((r, copied(w, text)) for r, w in e.arguments) if r in roles_of[e.type] and w]
        )
        item = EventItem(type=e.type, trigger=trigger, arguments=arguments)
        key = item.model_dump_json()
        if key not in seen:
            seen.add(key)
            events.append(item)
    return EEAnswer(events=events)


def _unique(rows: list[list[str]]) -> list[list[str]]:
    return [list(r) for r in dict.fromkeys(tuple(r) for r in rows)]


def render(answer: BaseModel) -> str:
    """An answer as one line of compact JSON: what the peers read and the prompt cache compares."""
    return json.dumps(answer.model_dump(mode="json"), ensure_ascii=False, separators=(", ", ": "))


def named(entities: NERAnswer | None) -> dict[str, set[str]]:
    """The NER expert's names (case-folded) and the types it gave each."""
    typed: dict[str, set[str]] = {}
    for kind, words in entities.entities if entities else []:
        typed.setdefault(words.casefold(), set()).add(kind.casefold())
    return typed


def check_relations(
    answer: REAnswer,
    typed: dict[str, set[str]],
    relation_types: dict[str, tuple[list[str], list[str]]],
    entity_types: list[str],
) -> REAnswer:
    """Drop a triple whose head or tail the NER expert typed with a type the relation does not take
    (``relation_types``: relation -> (head types, tail types) as its schema declares them; only types the
    NER schema also has, ``entity_types``, are compared)."""
    known = {t.casefold() for t in entity_types}

    def fits(words: str, allowed: list[str]) -> bool:
        wanted, found = {t.casefold() for t in allowed} & known, typed.get(words.casefold())
        return not wanted or not found or bool(found & wanted)

    return REAnswer(
        triples=[
            [h, r, t]
            for h, r, t in answer.triples
            if fits(h, relation_types.get(r, ([], []))[0]) and fits(t, relation_types.get(r, ([], []))[1])
        ]
    )


def check_events(answer: EEAnswer, typed: dict[str, set[str]]) -> EEAnswer:
    """Drop an event whose trigger is a name the NER expert found or one of its own arguments: a trigger
    says what happened, not who took part."""
    return EEAnswer(
        events=[
            e
            for e in answer.events
            if e.trigger.casefold() not in typed and e.trigger.casefold() not in {w.casefold() for _, w in e.arguments}
        ]
    )
