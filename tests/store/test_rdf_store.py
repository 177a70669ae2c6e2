from __future__ import annotations

import pyoxigraph as ox
import pytest

from graphwright.errors import DataNotFoundError, StoreError
from graphwright.kb.namespaces import WD, WDT
from graphwright.model import Document, ExtractionResult, Provenance, Term, Triple
from graphwright.store import GraphStore
from graphwright.store import vocab as v

from .conftest import EVIL, SYSTEM, make_document, make_result


def test_rdf_store_round_trip_is_lossless(filled, result):
    assert filled.triples() == result.triples
    assert filled.entities() == result.entities
    assert filled.count() == len(result.triples)


def test_rdf_store_round_trip_on_disk_survives_reopen(tmp_path, document, result):
    path = tmp_path / "nested" / "kg"
    with GraphStore.open(path) as store:
        store.add_result(document, result)
    with GraphStore.open(path) as store:
        assert store.triples() == result.triples
        assert store.document_status(document.id, SYSTEM) == "ok"


def test_rdf_store_second_open_of_locked_store_raises_store_error(tmp_path):
    with GraphStore.open(tmp_path / "kg"):
        with pytest.raises(StoreError, match="already open"):
            GraphStore.open(tmp_path / "kg")


def test_rdf_store_open_without_create_reports_a_missing_store(tmp_path):
    with pytest.raises(DataNotFoundError, match="no graph store at"):
        GraphStore.open(tmp_path / "typo", create=False)
    assert not (tmp_path / "typo").exists()
    GraphStore.open(tmp_path / "kg").close()
    GraphStore.open(tmp_path / "kg", create=False).close()
    (tmp_path / "empty").mkdir()  # a folder made by hand is not a store either
    with pytest.raises(DataNotFoundError, match="no graph store at"):
        GraphStore.open(tmp_path / "empty", read_only=True)


def test_rdf_store_opened_for_reading_beside_a_writer_sees_its_commits_and_cannot_write(tmp_path, document, result):
    with GraphStore.open(tmp_path / "kg") as writer:
        writer.add_result(document, result)
        writer.flush()
        with GraphStore.open_for_reading(tmp_path / "kg") as reader:  # read-only: the writer holds the lock
            assert reader.read_only and reader.count() == writer.count() > 0
            with pytest.raises(StoreError):
                reader.add_result(document, result)
    with GraphStore.open_for_reading(tmp_path / "kg") as alone:  # no writer: a plain open
        assert not alone.read_only and alone.count() > 0


def test_rdf_store_open_on_a_file_raises(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(StoreError, match="is a file"):
        GraphStore.open(tmp_path / "f")


def test_rdf_store_closed_store_raises(document, result):
    store = GraphStore.in_memory()
    store.close()
    store.close()
    assert store.closed
    with pytest.raises(StoreError, match="closed"):
        store.add_result(document, result)


def test_rdf_store_malicious_label_round_trips_as_data(store, document):
    result = make_result(document, label=EVIL)
    store.add_result(document, result)
    assert store.triples()[0].subject.label == EVIL
    assert store.labels()[WD + "Q7186"] == EVIL
    assert store.entities()[0].label == EVIL


def test_rdf_store_each_run_has_its_own_named_graphs(store, document, result):
    store.add_result(document, result)
    other = make_document("doc-2")
    store.add_result(other, make_result(other))
    store.add_result(other, make_result(other, system="agentre"))
    names = {g.value for g in store.oxigraph.named_graphs()}
    assert names == {
        v.doc_graph(document.id, SYSTEM),
        v.prov_graph(document.id, SYSTEM),
        v.doc_graph("doc-2", SYSTEM),
        v.prov_graph("doc-2", SYSTEM),
        v.doc_graph("doc-2", "agentre"),
        v.prov_graph("doc-2", "agentre"),
        v.text_graph(document.id),
        v.text_graph("doc-2"),  # each document's text, once
        v.MERGED_KG_GRAPH,  # every KG merged: the default graph of queries
    }
    # The KG graph holds the triples, labels and entity types; the reification lives only in provenance.
    kg = ox.NamedNode(v.doc_graph(document.id, SYSTEM))
    kg_quads = list(store.oxigraph.quads_for_pattern(None, None, None, kg))
    assert {q.predicate.value for q in kg_quads} == {WDT + "P19", WDT + "P570", WDT + "P1449", v.LABEL, v.RDF_TYPE}
    assert store.count() == 9
    assert store.count(document_id="doc-2") == 6
    assert store.count(document_id="doc-2", system="agentre") == 3
    assert len(store.triples(document_id=document.id)) == 3
    # the run records of the documents asked for, as the web app names the sources of an answer
    assert [(r["document_id"], r["system"]) for r in store.documents(["doc-2"])] == [
        ("doc-2", "agentre"),
        ("doc-2", SYSTEM),
    ]
    assert store.documents([]) == [] and len(store.documents()) == 3
    untitled = make_document("doc-3").model_copy(update={"source": None})  # given as text alone
    store.add_result(untitled, make_result(untitled))
    assert store.sources() == {document.id: "texts/curie.txt", "doc-2": "texts/curie.txt"}
    assert store.sources(["doc-2", "doc-3", "nope"]) == {"doc-2": "texts/curie.txt"}


def test_rdf_store_graph_names_keep_ids_with_separators_apart():
    a = v.doc_graph("a:b", "c")
    b = v.doc_graph("a", "b:c")
    assert a != b
    assert v.parse_graph(a) == ("doc", "a:b", "c")
    assert v.parse_graph(v.prov_graph("ä x/y", "s")) == ("prov", "ä x/y", "s")
    assert v.parse_graph("urn:other:g") is None
    ox.NamedNode(v.doc_graph("spaces and <brackets>", "s"))  # always a valid IRI


def test_rdf_store_re_adding_replaces_instead_of_duplicating(filled, document, result):
    before = sorted(str(q) for q in filled.oxigraph)
    filled.add_result(document, result)
    after = [str(q) for q in filled.oxigraph if q.predicate.value != v.RECORDED_AT]
    assert sorted(after) == sorted(b for b in before if v.RECORDED_AT not in b)
    smaller = result.model_copy(update={"triples": result.triples[:1], "entities": []})
    filled.add_result(document, smaller)
    assert filled.triples() == smaller.triples
    assert filled.entities() == []
    assert WDT + "P570" not in {r["p"] for r in filled.query("SELECT DISTINCT ?p WHERE { ?s ?p ?o }")}


def test_rdf_store_re_adding_one_system_keeps_the_other(store, document):
    store.add_result(document, make_result(document, system="a"))
    store.add_result(document, make_result(document, system="b"))
    store.add_result(document, ExtractionResult(document_id=document.id, system="a"))
    assert store.count(system="a") == 0
    assert store.count(system="b") == 3


def test_rdf_store_failure_records_and_status(store, document, result):
    assert store.document_status(document.id, SYSTEM) is None
    store.record_failure(document.id, SYSTEM, "LLM server unreachable", source="a.txt")
    assert store.document_status(document.id, SYSTEM) == "failed"
    assert store.document_status(document.id, "other") is None
    [row] = store.documents()
    assert row["status"] == "failed"
    assert row["reason"] == "LLM server unreachable"
    assert row["source"] == "a.txt"
    store.add_result(document, result)
    assert store.document_status(document.id, SYSTEM) == "ok"
    [row] = store.documents()
    assert row["status"] == "ok" and row["reason"] is None


def test_rdf_store_failure_replaces_earlier_output(filled, document):
    filled.record_failure(document.id, SYSTEM, "forced rerun failed")
    assert filled.document_status(document.id, SYSTEM) == "failed"
    assert filled.triples() == []
    assert filled.labels() == {}


def test_rdf_store_failed_result_keeps_partial_triples(store, document, result):
    failed = result.model_copy(update={"status": "failed", "reason": "budget exceeded"})
    store.add_result(document, failed)
    assert store.document_status(document.id, SYSTEM) == "failed"
    assert store.triples() == result.triples


def test_rdf_store_documents_record_usage_and_time(filled, document):
    [row] = filled.documents()
    assert row["document_id"] == document.id
    assert row["system"] == SYSTEM
    assert row["source"] == "texts/curie.txt"
    assert (row["triples"], row["entities"]) == (3, 1)
    assert (row["llm_calls"], row["prompt_tokens"], row["completion_tokens"], row["cached_calls"]) == (3, 1200, 88, 1)
    assert row["seconds"] == 2.5
    assert row["recorded_at"].startswith("20")
    assert row["warnings"] == ["one triple dropped: unknown property"]


def test_rdf_store_labels_cover_every_labelled_iri(filled):
    assert filled.labels() == {
        WD + "Q7186": "Marie Curie",
        WDT + "P19": "place of birth",
        WD + "Q270": "Warszawa 🇵🇱",
        WDT + "P570": "date of death",
        WDT + "P1449": "nickname",
    }


def test_rdf_store_prefixed_iris_are_expanded(store, document):
    triple = Triple(
        subject=Term.iri("wd:Q1"),
        predicate=Term.iri("wdt:P31"),
        object=Term.literal("1", datatype="xsd:integer"),
        provenance=Provenance(system="s"),
    )
    store.add_result(document, ExtractionResult(document_id=document.id, system="s", triples=[triple]))
    [back] = store.triples()
    assert (back.subject.value, back.predicate.value) == (WD + "Q1", WDT + "P31")
    assert back.object.datatype == "http://www.w3.org/2001/XMLSchema#integer"


@pytest.mark.parametrize(
    "subject, predicate, match",
    [
        (Term.iri("Q42 with space"), Term.iri(WDT + "P31"), "not an absolute IRI"),
        (Term.literal("x"), Term.iri(WDT + "P31"), "must be IRIs"),
        (Term.iri(WD + "Q1"), Term.iri("javascript alert(1)"), "not an absolute IRI"),
    ],
)
def test_rdf_store_bad_terms_reject_the_whole_document(filled, document, subject, predicate, match):
    bad = Triple(subject=subject, predicate=predicate, object=Term.iri(WD + "Q2"), provenance=Provenance(system="s"))
    before = filled.triples()
    result = ExtractionResult(document_id=document.id, system=SYSTEM, triples=[bad])
    with pytest.raises(StoreError, match=match):
        filled.add_result(document, result)
    assert filled.triples() == before  # nothing was cleared


def test_rdf_store_document_id_mismatch_raises(store, result):
    with pytest.raises(StoreError, match="was added with document"):
        store.add_result(Document(id="other", text="x"), result)


def test_rdf_store_remove_document(filled, document):
    filled.add_result(document, make_result(document, system="b"))
    assert filled.remove_document(document.id, system="b") == 1
    assert filled.document_status(document.id, "b") is None
    assert filled.remove_document(document.id) == 1
    assert filled.count() == 0


def test_rdf_store_query_sees_the_kg_union_by_default(filled):
    rows = filled.query("SELECT ?place WHERE { wd:Q7186 wdt:P19 ?place }")
    assert rows == [{"place": WD + "Q270"}]
    assert filled.query("ASK { ?s gw:evidenceText ?e }") == [{"ask": False}]
    rows = filled.query("SELECT ?e WHERE { GRAPH ?g { ?s gw:evidenceText ?e } } ORDER BY ?e")
    assert rows[0]["e"].startswith("Marie Curie wurde")
    constructed = filled.query("CONSTRUCT { ?s wdt:P19 ?o } WHERE { ?s wdt:P19 ?o }")
    assert constructed == [{"subject": WD + "Q7186", "predicate": WDT + "P19", "object": WD + "Q270"}]
    assert filled.query("SELECT ?x WHERE { OPTIONAL { ?x a gw:Nothing } }") == [{"x": None}]


def test_rdf_store_query_on_empty_store_is_empty(store):
    assert store.query("SELECT * WHERE { ?s ?p ?o }") == []


def test_rdf_store_bad_sparql_raises_store_error(store):
    with pytest.raises(StoreError, match="invalid SPARQL") as info:
        store.query("SELEC ?x")
    assert isinstance(info.value.__cause__, SyntaxError)


def test_rdf_store_keeps_a_quantitys_unit_beside_its_number(store, document):
    length = Triple(
        subject=Term.iri(WD + "Q1", label="Nordvik Bridge", surface="Nordvik Bridge"),
        predicate=Term.iri(WDT + "P2043", label="length"),
        object=Term.literal("1200", datatype=v.XSD + "decimal", surface="1,200 metres", unit="metres"),
        provenance=Provenance(system=SYSTEM),
    )
    store.add_result(document, ExtractionResult(document_id=document.id, system=SYSTEM, triples=[length]))
    assert store.triples() == [length]
    # the graph's value stays a number that SPARQL compares and sums
    rows = store.query(f"SELECT ?n WHERE {{ ?s <{WDT}P2043> ?n FILTER(?n > 1000) }}")
    assert len(rows) == 1


def test_rdf_store_literal_without_datatype_round_trips_as_none(filled):
    nickname = filled.triples()[2].object
    assert nickname.kind == "literal" and nickname.datatype is None
    assert nickname.value == 'Manya "Mania" Skłodowska'


def test_rdf_store_keeps_each_documents_text_once_outside_the_knowledge_graph(filled, document, result):
    other = make_document("doc:2")
    filled.add_result(other, make_result(other))
    filled.add_result(document, make_result(document, system="openie"))  # a second system: one text still
    assert filled.document_texts() == {document.id: document.text, "doc:2": other.text}
    assert filled.document_texts(["doc:2", "never stored"]) == {"doc:2": other.text}
    # the union default graph is the knowledge graph: the text is not a fact
    assert filled.query("SELECT ?t WHERE { ?d gw:text ?t }") == []
    filled.remove_document(document.id, system=SYSTEM)
    assert document.id in filled.document_texts(), "openie's run still reads it"
    filled.remove_document(document.id)
    assert document.id not in filled.document_texts()


def test_rdf_store_text_is_data_whatever_it_holds(store):
    hostile = Document(id="doc:x", text=f'{EVIL} """ ; DROP ALL ; <script>', source="x.txt")
    store.add_result(hostile, ExtractionResult(document_id="doc:x", system=SYSTEM))
    assert store.document_texts() == {"doc:x": hostile.text}
