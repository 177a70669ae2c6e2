from __future__ import annotations

import io
import json

import pyoxigraph as ox
import pytest

from graphwright.errors import UnknownNameError, UserError
from graphwright.kb.namespaces import WD, WDT
from graphwright.store import export_graph, serialize_graph
from graphwright.store import vocab as v
from graphwright.store.export import FORMATS, resolve_format

from .conftest import EVIL, SYSTEM, make_document, make_result

LABEL = ox.NamedNode(v.LABEL)
CURIE = ox.NamedNode(WD + "Q7186")


def parse(data: bytes, fmt: str) -> list[ox.Quad]:
    return list(ox.parse(data, format=FORMATS[fmt]))


def parse_triples(data: bytes, fmt: str) -> set[ox.Triple]:
    return {q.triple for q in parse(data, fmt)}


@pytest.fixture
def evil(store, document):
    store.add_result(document, make_result(document, label=EVIL))
    return store


@pytest.mark.parametrize("fmt", ["turtle", "ntriples", "jsonld"])
def test_export_triple_formats_reparse_to_the_kg(filled, fmt):
    triples = parse_triples(serialize_graph(filled, fmt), fmt)
    assert ox.Triple(CURIE, ox.NamedNode(WDT + "P19"), ox.NamedNode(WD + "Q270")) in triples
    year = ox.Literal("1934", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#gYear"))
    assert ox.Triple(CURIE, ox.NamedNode(WDT + "P570"), year) in triples
    assert ox.Triple(ox.NamedNode(WD + "Q270"), LABEL, ox.Literal("Warszawa 🇵🇱")) in triples
    # an entity's types are typed nodes of the graph
    assert (
        ox.Triple(CURIE, ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), ox.NamedNode(WD + "Q5"))
        in triples
    )
    # 3 triples + 5 labels + 1 type; no provenance by default
    assert len(triples) == 9
    assert not any(t.predicate.value.startswith(v.GW) for t in triples)


@pytest.mark.parametrize("fmt", ["turtle", "ntriples", "jsonld", "nquads", "trig"])
def test_export_malicious_label_survives_as_the_same_literal(evil, fmt):
    data = serialize_graph(evil, fmt, include_provenance=True)
    labels = {q.object.value for q in parse(data, fmt) if q.predicate == LABEL and q.subject == CURIE}
    assert labels == {EVIL}


def test_export_turtle_uses_the_prefixes(filled):
    text = serialize_graph(filled, "turtle").decode()
    for prefix in ("wd:", "wdt:", "rdfs:", "gw:"):
        assert f"@prefix {prefix}" in text
    assert "wd:Q7186" in text and "wdt:P19" in text


def test_export_same_triple_from_two_runs_is_written_once(store, document):
    store.add_result(document, make_result(document))
    store.add_result(document, make_result(document, system="agentre"))
    assert len(parse(serialize_graph(store, "ntriples"), "ntriples")) == 9


def test_export_with_provenance_adds_reification(filled):
    triples = parse(serialize_graph(filled, "turtle", include_provenance=True), "turtle")
    statements = [t for t in triples if t.object == ox.NamedNode(v.RDF_STATEMENT)]
    assert len(statements) == 3
    evidence = {t.object.value for t in triples if t.predicate.value == v.EVIDENCE_TEXT}
    assert "Marie Curie wurde in Warschau geboren." in evidence


def test_export_quad_formats_keep_named_graphs(filled, document):
    for fmt in ("nquads", "trig"):
        quads = parse(serialize_graph(filled, fmt), fmt)
        assert {q.graph_name.value for q in quads} == {v.doc_graph(document.id, SYSTEM)}
        quads = parse(serialize_graph(filled, fmt, include_provenance=True), fmt)
        assert {q.graph_name.value for q in quads} == {
            v.doc_graph(document.id, SYSTEM),
            v.prov_graph(document.id, SYSTEM),
        }


def test_export_filters_by_document(store):
    a, b = make_document("a"), make_document("b")
    store.add_result(a, make_result(a))
    other = make_result(b)
    other.triples[0].object = other.triples[0].object.model_copy(update={"value": WD + "Q90"})
    store.add_result(b, other)
    objects = {q.object.value for q in parse(serialize_graph(store, "nquads", document_id="b"), "nquads")}
    assert WD + "Q90" in objects and WD + "Q270" not in objects


def test_export_to_path_guesses_format_from_extension(filled, tmp_path):
    for name, fmt in [
        ("kg.ttl", "turtle"),
        ("kg.nt", "ntriples"),
        ("kg.jsonld", "jsonld"),
        ("out/kg.nq", "nquads"),
        ("kg.trig", "trig"),
    ]:
        written = export_graph(filled, tmp_path / name)
        data = (tmp_path / name).read_bytes()
        assert written == len(data) > 0
        assert parse(data, fmt)
    json.loads((tmp_path / "kg.jsonld").read_text())


def test_export_to_binary_and_text_streams(filled):
    binary = io.BytesIO()
    export_graph(filled, binary, "nt")
    text = io.StringIO()
    export_graph(filled, text, "ntriples")
    assert binary.getvalue().decode() == text.getvalue()


def test_export_unknown_format_lists_the_valid_ones(filled, tmp_path):
    with pytest.raises(UnknownNameError, match="graphml, jsonld, neo4j, nquads, ntriples, trig, turtle"):
        export_graph(filled, tmp_path / "kg.ttl", "docx")
    with pytest.raises(UserError, match="cannot tell the export format"):
        export_graph(filled, tmp_path / "kg.xyz")
    with pytest.raises(UserError, match="cannot tell the export format"):
        export_graph(filled, io.BytesIO())


def test_export_resolve_format_aliases():
    assert resolve_format("TTL") == "turtle"
    assert resolve_format("json-ld") == "jsonld"
    assert resolve_format(None, "x/Graph.NQ") == "nquads"


def test_export_empty_store_is_valid(store):
    for fmt in FORMATS:
        assert parse(serialize_graph(store, fmt), fmt) == []
