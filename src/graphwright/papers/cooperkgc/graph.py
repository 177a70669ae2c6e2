"""The experts' answers as graph content: typed entity nodes, relation edges between them, and event
nodes with their trigger and one edge per role. A name is one node wherever it occurs: the NER expert's
entity, a relation's head and an event's argument with the same words meet in the graph."""

from __future__ import annotations

import re

from pydantic import BaseModel

from graphwright.linking.literals import name_or_value, name_term
from graphwright.model import Document, Entity, Event, EventArgument, Mention, Provenance, Span, Term, Triple
from graphwright.model.events import event_iri
from graphwright.model.schema import name_entity_iri
from graphwright.papers.cooperkgc.answers import EEAnswer, NERAnswer, REAnswer, locate
from graphwright.papers.cooperkgc.team import Expert


def entities(document: Document, expert: Expert, answer: NERAnswer) -> list[Entity]:
    """One entity per (words, type), with a mention at every place the text writes those words."""
    out: dict[tuple[str, str], Entity] = {}
    for kind, words in answer.entities:
        entity = out.setdefault(
            (words, kind),
            Entity(iri=name_entity_iri(words), label=words, types=[expert.background.schema.type_iri(kind)]),
        )
        entity.mentions = [Mention(surface=words, span=s) for s in _spans(document, words)]
    return list(out.values())


def triples(document: Document, expert: Expert, answer: REAnswer, provenance: Provenance) -> list[Triple]:
    schema = expert.background.relation_schema
    return [
        Triple(
            subject=name_term(head),
            predicate=Term.iri(schema.relation_iri(relation), surface=relation, label=relation),
            object=name_or_value(tail),
            provenance=_evidence(document, provenance, head),
        )
        for head, relation, tail in answer.triples
    ]


def events(document: Document, expert: Expert, answer: EEAnswer, provenance: Provenance, system: str) -> list[Event]:
    schema = expert.background.event_schema
    out = []
    for i, e in enumerate(answer.events):
        trigger = _span(document, e.trigger)
        out.append(
            Event(
                iri=event_iri(document.id, system, i),
                type=schema.type_iri(e.type),
                trigger=e.trigger,
                trigger_span=trigger,
                arguments=[
                    EventArgument(
                        role=schema.role_iri(role),
                        entity=name_or_value(words),
                        span=_span(document, words, near=trigger),
                    )
                    for role, words in e.arguments
                ],
                provenance=_evidence(document, provenance, e.trigger),
            )
        )
    return out


def _spans(document: Document, words: str) -> list[Span]:
    found = [document.span(m.start(), m.end()) for m in re.finditer(re.escape(words), document.text)]
    return found or [s for s in [_span(document, words)] if s]


def _span(document: Document, words: str, near: Span | None = None) -> Span | None:
    """The occurrence of the words closest to ``near`` (the first without it)."""
    spans = [document.span(m.start(), m.end()) for m in re.finditer(re.escape(words), document.text)]
    if not spans:
        at = locate(words, document.text)
        return document.span(*at) if at else None
    return min(spans, key=lambda s: abs(s.start - near.start)) if near else spans[0]


def _evidence(document: Document, provenance: Provenance, words: str) -> Provenance:
    span = _span(document, words)
    return provenance.model_copy(update={"evidence": document.sentence_around(span) if span else None})


def answer_dump(answers: dict[str, BaseModel]) -> dict[str, dict]:
    return {expert: answer.model_dump(mode="json") for expert, answer in answers.items()}
