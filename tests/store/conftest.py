"""Hand-built documents and results for the store tests (no model, no KB)."""

from __future__ import annotations

import pytest

from graphwright.kb.namespaces import WD, WDT
from graphwright.model import (
    Document,
    Entity,
    ExtractionResult,
    Mention,
    Provenance,
    Term,
    Triple,
    Usage,
)
from graphwright.store import GraphStore

EVIL = 'Evil"> </script><script>alert(1)</script> @prefix <!-- \u2028\u2029 & \\ \n end'
SYSTEM = "cie.react.v1"


def make_document(doc_id: str = "doc:1/ä") -> Document:
    return Document(
        id=doc_id,
        text="Marie Curie wurde in Warschau geboren. Sie starb 1934 in Passy.\nMarie Curie won the Nobel Prize.",
        source="texts/curie.txt",
    )


def make_result(document: Document, system: str = SYSTEM, label: str = "Marie Curie") -> ExtractionResult:
    born = document.sentence_around(document.find("Warschau"))
    died = document.sentence_around(document.find("1934"))

    def prov(span, conf, agent="extractor"):
        return Provenance(
            evidence=span,
            system=system,
            agent=agent,
            model="qwen2.5-0.5b",
            prompt_version="extractor.v2",
            confidence=conf,
        )

    curie = Term.iri(WD + "Q7186", surface="Marie Curie", label=label)
    return ExtractionResult(
        document_id=document.id,
        system=system,
        triples=[
            Triple(
                subject=curie,
                predicate=Term.iri(WDT + "P19", surface="geboren", label="place of birth"),
                object=Term.iri(WD + "Q270", surface="Warschau", label="Warszawa 🇵🇱"),
                provenance=prov(born, 0.875),
            ),
            Triple(
                subject=curie,
                predicate=Term.iri(WDT + "P570", surface="starb", label="date of death"),
                object=Term.literal("1934", datatype="http://www.w3.org/2001/XMLSchema#gYear", surface="1934"),
                provenance=prov(died, 1.0, agent="validator"),
            ),
            Triple(
                subject=curie,
                predicate=Term.iri(WDT + "P1449", label="nickname"),
                object=Term.literal('Manya "Mania" Skłodowska', surface="Manya"),
                provenance=Provenance(system=system),
            ),
        ],
        entities=[
            Entity(
                iri=WD + "Q7186",
                label=label,
                types=[WD + "Q5"],
                mentions=[Mention(surface="Marie Curie", span=document.span(0, 11)), Mention(surface="Sie")],
            )
        ],
        usage=Usage(llm_calls=3, prompt_tokens=1200, completion_tokens=88, cached_calls=1, seconds=2.5),
        warnings=["one triple dropped: unknown property"],
    )


@pytest.fixture
def document() -> Document:
    return make_document()


@pytest.fixture
def result(document: Document) -> ExtractionResult:
    return make_result(document)


@pytest.fixture
def store():
    with GraphStore.in_memory() as s:
        yield s


@pytest.fixture
def filled(store: GraphStore, document: Document, result: ExtractionResult) -> GraphStore:
    store.add_result(document, result)
    return store
