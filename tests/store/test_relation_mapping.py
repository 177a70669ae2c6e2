"""Facts kept under the text's phrase are drawn dashed, typed as unlinked relations, and a user can move
them onto a KB property with their evidence (`graph map-relation`), in the store and on the command line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.errors import UserError
from graphwright.kb.namespaces import WD, WDT
from graphwright.model import Document, ExtractionResult, Provenance, Term, Triple
from graphwright.model.schema import phrase_relation_iri
from graphwright.store import GraphStore
from graphwright.store import vocab as v
from graphwright.store.html_view import graph_data
from graphwright.store.relation_mapping import map_relation

TEXT = "Tidewater Instruments runs its office out of Stavanger. In 2020 it runs its office out of Oslo as well."


def result(document: Document, system: str = "facts") -> ExtractionResult:
    phrase = "runs its office out of"
    sentences = [document.sentence_around(document.find(city)) for city in ("Stavanger", "Oslo")]
    tidewater = Term.iri(
        "https://graphwright.dev/entity/Tidewater%20Instruments",
        surface="Tidewater Instruments",
        label="Tidewater Instruments",
    )
    cities = [
        Term.iri(WD + "Q25416", surface="Stavanger", label="Stavanger"),
        Term.iri(WD + "Q585", surface="Oslo", label="Oslo"),
    ]
    predicate = Term.iri(phrase_relation_iri(phrase), surface=phrase, label=phrase)
    triples = [
        Triple(
            subject=tidewater, predicate=predicate, object=city, provenance=Provenance(system=system, evidence=sentence)
        )
        for city, sentence in zip(cities, sentences)
    ]
    year = Term.literal("2020", datatype="http://www.w3.org/2001/XMLSchema#gYear", surface="2020")
    triples.append(
        Triple(
            subject=tidewater,
            predicate=predicate,
            object=year,
            provenance=Provenance(system=system, evidence=sentences[1]),
        )
    )
    return ExtractionResult(document_id=document.id, system=system, triples=triples)


@pytest.fixture
def store():
    document = Document(id="tidewater", text=TEXT)
    with GraphStore.in_memory() as graph_store:
        graph_store.add_result(document, result(document))
        yield graph_store


def test_a_phrase_relation_is_typed_unlinked_and_drawn_dashed(store):
    phrase = phrase_relation_iri("runs its office out of")
    rows = store.query(f"SELECT ?t WHERE {{ <{phrase}> a ?t }}")
    assert [row["t"] for row in rows] == [v.UNLINKED_RELATION]
    edges = graph_data(store)["edges"]
    assert edges and all(edge["unlinked"] for edge in edges)


def test_mapping_moves_every_fact_with_its_evidence(store):
    done = map_relation(store, "runs its office out of", WDT + "P159", label="headquarters location")
    assert (done.facts, done.kept, done.documents) == (3, 0, 1)
    triples = store.triples()
    assert {t.predicate.value for t in triples} == {WDT + "P159"}
    assert {t.predicate.label for t in triples} == {"headquarters location"}
    oslo = next(t for t in triples if t.object.label == "Oslo")
    assert oslo.provenance.evidence.text == "In 2020 it runs its office out of Oslo as well."
    assert store.query(f"ASK {{ <{phrase_relation_iri('runs its office out of')}> ?p ?o }}") == [{"ask": False}]
    assert not any(edge["unlinked"] for edge in graph_data(store)["edges"])


def test_a_swapped_mapping_turns_the_facts_round_and_keeps_values_under_the_phrase(store):
    done = map_relation(store, "runs its office out of", WDT + "P1830", swap=True, label="owner of")
    assert (done.facts, done.kept) == (2, 1)
    triples = store.triples()
    owned = {
        (t.subject.label, t.subject.surface, t.object.label) for t in triples if t.predicate.value == WDT + "P1830"
    }
    assert owned == {("Stavanger", "Stavanger", "Tidewater Instruments"), ("Oslo", "Oslo", "Tidewater Instruments")}
    [kept] = [t for t in triples if t.predicate.value != WDT + "P1830"]
    assert kept.object.value == "2020" and kept.predicate.label == "runs its office out of"


def test_only_a_phrase_relation_can_be_mapped(store):
    with pytest.raises(UserError, match="not a relation kept under the text's phrase"):
        map_relation(store, WDT + "P19", WDT + "P20")


def test_the_command_maps_a_phrase_onto_a_kb_property(tmp_path, default_kb):
    document = Document(id="tidewater", text=TEXT)
    with GraphStore.open(tmp_path / "store") as graph_store:
        graph_store.add_result(document, result(document))
    runner = CliRunner()
    done = runner.invoke(
        app, ["graph", "map-relation", "runs its office out of", "P159", "--store", str(tmp_path / "store")]
    )
    assert done.exit_code == 0, done.output
    assert "mapped 3 facts in 1 documents onto headquarters location" in done.output
    with GraphStore.open_for_reading(tmp_path / "store") as graph_store:
        assert {t.predicate.value for t in graph_store.triples()} == {WDT + "P159"}
    wrong = runner.invoke(
        app, ["graph", "map-relation", "runs its office out of", "Q64", "--store", str(tmp_path / "store")]
    )
    assert wrong.exit_code == 1 and "Q64 is not a property" in wrong.output
