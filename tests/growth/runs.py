"""Hand-made runs for the growing graph: people and companies no KB knows, and a few KB items."""

from __future__ import annotations

from graphwright.kb.namespaces import WD, WDT
from graphwright.model import Entity, ExtractionResult, Mention, Provenance, Span, Term, Triple
from graphwright.model.schema import name_entity_iri

EMPLOYER = WDT + "P108"
NOVEL = "https://graphwright.dev/schema/custom/supplies_parts_to"


def person(name: str) -> Entity:
    return Entity(iri=name_entity_iri(name), label=name, mentions=[Mention(surface=name)])


def triple(
    subject: str,
    predicate: str,
    obj: str,
    *,
    sentence: str,
    confidence: float | None = None,
    label: str | None = None,
    system: str = "test",
) -> Triple:
    return Triple(
        subject=Term.iri(name_entity_iri(subject), surface=subject, label=subject),
        predicate=Term.iri(predicate, label=label),
        object=Term.iri(name_entity_iri(obj), surface=obj, label=obj),
        provenance=Provenance(
            system=system, confidence=confidence, evidence=Span(start=0, end=len(sentence), text=sentence)
        ),
    )


def result(doc: str, triples: list[Triple], entities: list[Entity] = (), system: str = "test") -> ExtractionResult:
    return ExtractionResult(document_id=doc, system=system, triples=triples, entities=list(entities))


def linked(qid: str, label: str) -> Entity:
    return Entity(iri=WD + qid, label=label, mentions=[Mention(surface=label)])
