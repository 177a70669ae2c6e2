"""Facts checked against what their entities are, after linking, whatever system wrote them (issue 61), on
the default KB: a person has no inception nor headquarters; "country" takes a country, not a city; a founder
is no place."""

from __future__ import annotations

import pytest

from graphwright.kb.namespaces import WDT
from graphwright.linking import LinkJudge, resolve
from graphwright.model import Document, ExtractionResult, Provenance, Span, Term, Triple

TEXT = (
    "Maren Solberg founded Tidewater Instruments in Stavanger in 2016. She studied physics at the University "
    "of Bergen. Brine & Kelp, a seaweed farm in Ålesund, sells to Denmark."
)


@pytest.fixture(scope="module")
def linked(default_kb):
    judge, doc = LinkJudge(default_kb), Document(text=TEXT)

    def run(*facts: tuple[str, str, str]) -> ExtractionResult:
        triples = [
            Triple(
                subject=Term.literal(s, surface=s),
                predicate=Term.iri(WDT + p),
                object=Term.literal(o, surface=o),
                provenance=Provenance(system="test"),
            )
            for s, p, o in facts
        ]
        return resolve(ExtractionResult(document_id=doc.id, system="test", triples=triples), doc, judge)

    return run


def shown(result) -> set[tuple[str, str, str]]:
    return {
        (t.subject.label, t.predicate.value.removeprefix(WDT), t.object.label or t.object.surface)
        for t in result.triples
    }


def test_a_person_has_no_inception_nor_place_of_formation(linked):
    out = linked(
        ("Maren Solberg", "P69", "University of Bergen"),  # schooling: she is a person
        ("Maren Solberg", "P571", "2016"),
        ("Maren Solberg", "P740", "Stavanger"),
        ("Tidewater Instruments", "P571", "2016"),
        ("Tidewater Instruments", "P740", "Stavanger"),
    )
    assert shown(out) == {
        ("Maren Solberg", "P69", "University of Bergen"),
        ("Tidewater Instruments", "P571", "2016"),
        ("Tidewater Instruments", "P740", "Stavanger"),
    }
    misfits = [d for d in out.extra["linking"] if d.get("decision") == "type misfit"]
    assert len(misfits) == 2 and all("is a person" in d["reason"] for d in misfits)


def test_a_city_or_an_unknown_name_is_no_country(linked):
    out = linked(
        ("Brine & Kelp", "P17", "Ålesund"),
        ("Brine & Kelp", "P17", "Stavanger"),
        ("Brine & Kelp", "P17", "Denmark"),
        ("Maren Solberg", "P27", "Bergen"),
    )
    assert shown(out) == {("Brine & Kelp", "P17", "Denmark")}
    assert sum("not a country" in w or "no country" in w for w in out.warnings) == 3


def test_a_founder_the_evidence_writes_as_a_place_is_no_founder(default_kb):
    text = "Skarv Software, a small firm from Brønnøysund, was founded by Ola Nordvik in 2019."
    doc = Document(text=text)
    evidence = Provenance(system="test", evidence=Span(start=0, end=len(text), text=text))
    triples = [
        Triple(
            subject=Term.literal("Skarv Software", surface="Skarv Software"),
            predicate=Term.iri(WDT + "P112"),
            object=Term.literal(o, surface=o),
            provenance=evidence,
        )
        for o in ("Brønnøysund", "Ola Nordvik")
    ]
    out = resolve(ExtractionResult(document_id=doc.id, system="test", triples=triples), doc, LinkJudge(default_kb))
    assert shown(out) == {("Skarv Software", "P112", "Ola Nordvik")}
    assert any("written as a place" in w for w in out.warnings)


def test_a_sovereign_states_country_is_itself(linked):
    out = linked(("Denmark", "P17", "Norway"), ("Ålesund", "P17", "Norway"))
    assert shown(out) == {("Ålesund", "P17", "Norway")}
    assert any("its country is itself" in d.get("reason", "") for d in out.extra["linking"])
