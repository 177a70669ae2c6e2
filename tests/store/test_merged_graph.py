"""The default graph of a query is every document's KG merged, each triple once (an RDF merge): a fact two
documents state is one row and one count, and it stays while any document states it."""

from __future__ import annotations

import random

import pyoxigraph as ox
import pytest

from graphwright.curation.edits import edit_graph, undo_edit
from graphwright.kb.namespaces import WD, WDT
from graphwright.model import Document
from graphwright.model.schema import phrase_relation_iri
from graphwright.store import GraphStore
from graphwright.store import vocab as v
from graphwright.store.edits import Edit
from graphwright.store.relation_mapping import map_relation

from .conftest import SYSTEM, make_document, make_result
from .test_relation_mapping import TEXT as PHRASE_TEXT
from .test_relation_mapping import result as phrase_result

BORN = "SELECT ?place WHERE { wd:Q7186 wdt:P19 ?place }"


def merged(store: GraphStore) -> set[ox.Triple]:
    return {q.triple for q in store.oxigraph.quads_for_pattern(None, None, None, ox.NamedNode(v.MERGED_KG_GRAPH))}


def union_of_kg_graphs(store: GraphStore) -> set[ox.Triple]:
    return {q.triple for g, _, _ in store.graphs("doc") for q in store.quads([g])}


def count(store: GraphStore, where: str = "?s ?p ?o") -> int:
    return int(store.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ {where} }}")[0]["n"])


def test_a_fact_two_documents_state_is_one_row_and_one_count(store):
    for doc_id in ("doc-1", "doc-2"):
        store.add_result(make_document(doc_id), make_result(make_document(doc_id)))
    assert store.query(BORN) == [{"place": WD + "Q270"}]
    assert count(store, "wd:Q7186 wdt:P19 ?o") == 1
    assert count(store) == len(union_of_kg_graphs(store))
    # the documents' own graphs still tell the two runs apart
    assert len(store.query("SELECT ?g WHERE { GRAPH ?g { wd:Q7186 wdt:P19 ?place } }")) == 2


def test_a_fact_stays_while_any_document_states_it(store):
    for doc_id in ("doc-1", "doc-2"):
        store.add_result(make_document(doc_id), make_result(make_document(doc_id)))
    store.remove_document("doc-1")
    assert store.query(BORN) == [{"place": WD + "Q270"}]
    store.remove_document("doc-2")
    assert store.query(BORN) == [] and merged(store) == set()


def test_removing_a_fact_in_one_run_keeps_it_for_the_other(store):
    store.add_result(make_document("doc-1"), make_result(make_document("doc-1")))
    store.add_result(make_document("doc-1"), make_result(make_document("doc-1"), system="agentre"))
    edit = edit_graph(store, Edit(0, "remove", fact=(WD + "Q7186", v.expand("wdt:P19"), WD + "Q270")))
    assert store.query(BORN) == []
    undo_edit(store, edit.number)
    assert store.query(BORN) == [{"place": WD + "Q270"}]
    assert merged(store) == union_of_kg_graphs(store)


def test_a_mapped_relation_moves_in_the_merged_graph(store):
    document = Document(id="doc-1", text=PHRASE_TEXT)
    store.add_result(document, phrase_result(document))
    map_relation(store, "runs its office out of", WDT + "P159")
    assert merged(store) == union_of_kg_graphs(store)
    assert count(store, "?s wdt:P159 ?o") == 3  # two cities and the year
    assert count(store, f"?s <{phrase_relation_iri('runs its office out of')}> ?o") == 0


def test_the_merged_graph_equals_the_kg_graphs_after_any_sequence_of_writes(store):
    rng = random.Random(7)
    documents = [make_document(f"doc-{i}") for i in range(3)]
    for step in range(40):
        document, system = rng.choice(documents), rng.choice([SYSTEM, "agentre"])
        action = rng.random()
        if action < 0.5:
            label = rng.choice(["Marie Curie", "Maria Skłodowska"])  # a changed label is a changed triple
            store.add_result(document, make_result(document, system=system, label=label))
        elif action < 0.7:
            store.record_failure(document.id, system, "model timed out")
        elif action < 0.85:
            store.remove_document(document.id, system=rng.choice([system, None]))
        else:
            fact = rng.choice(sorted(union_of_kg_graphs(store) or {None}, key=str))
            if fact is not None and isinstance(fact.object, ox.NamedNode):
                edit_graph(store, Edit(0, "remove", fact=(fact.subject.value, fact.predicate.value, fact.object.value)))
        assert merged(store) == union_of_kg_graphs(store), f"after step {step}"


@pytest.mark.parametrize("read_only", [False, True])
def test_a_store_written_before_the_merged_graph_was_kept(tmp_path, read_only):
    path = tmp_path / "kg"
    with GraphStore.open(path) as store:
        for doc_id in ("doc-1", "doc-2"):
            store.add_result(make_document(doc_id), make_result(make_document(doc_id)))
        store.oxigraph.remove_graph(ox.NamedNode(v.MERGED_KG_GRAPH))  # as an older version wrote it
    if read_only:  # opened beside a writer that cannot be changed: each graph's copy, as before
        with GraphStore.open(path) as writer_of_old_layout:
            writer_of_old_layout.oxigraph.remove_graph(ox.NamedNode(v.MERGED_KG_GRAPH))
            writer_of_old_layout.flush()
            with GraphStore.open(path, read_only=True) as reader:
                assert len(reader.query(BORN)) == 2
        return
    with GraphStore.open(path) as store:  # a writer builds it on open
        assert store.query(BORN) == [{"place": WD + "Q270"}]
        assert merged(store) == union_of_kg_graphs(store)
