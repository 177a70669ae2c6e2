"""Events as first-class nodes: the store's round trip, re-runs, SPARQL, the exports and the HTML view."""

from __future__ import annotations

import json
import re

import pyoxigraph as ox
import pytest

from graphwright.errors import StoreError
from graphwright.kb.namespaces import WD
from graphwright.model import (
    Document,
    Event,
    EventArgument,
    EventSchema,
    EventType,
    ExtractionResult,
    Provenance,
    Term,
)
from graphwright.model.events import event_iri
from graphwright.model.schema import name_entity_iri
from graphwright.store import GraphStore, render_html, serialize_graph
from graphwright.store import vocab as v
from graphwright.store.export import FORMATS, QUAD_FORMATS
from graphwright.store.html_view import graph_data

from .conftest import EVIL, SYSTEM, make_document, make_result
from .page_harness import needs_node, run_page

SCHEMA = EventSchema(
    name="company news",
    events=[
        EventType(name="Acquisition", roles=["Buyer", "Acquired", "Place"]),
        EventType(name="Appointment", roles=["Person", "Organization", "Time"]),
    ],
)
ACQUISITION, APPOINTMENT = SCHEMA.type_iri("Acquisition"), SCHEMA.type_iri("Appointment")
BUYER, ACQUIRED, PLACE = (SCHEMA.role_iri(r) for r in ("Buyer", "Acquired", "Place"))
PERSON, ORGANIZATION, TIME = (SCHEMA.role_iri(r) for r in ("Person", "Organization", "Time"))
ACME = name_entity_iri("Acme Corp")
GYEAR = "http://www.w3.org/2001/XMLSchema#gYear"
# Text from a document is data: every syntax's quotes, brackets and line breaks at once.
HOSTILE = 'bought """all""" of \'it\' <b>&amp;</b> \n\r\t "> . } @prefix x: <http://evil/> . ' + EVIL


def make_news(doc_id: str = "news:1/ä") -> Document:
    return Document(id=doc_id, text="Acme Corp acquired Widget Inc in Berlin. Marie Curie joined Acme Corp in 2020.")


def make_events(
    document: Document, system: str = SYSTEM, trigger: str = "acquired", words: str = "Acme Corp"
) -> list[Event]:
    """Two events: one with a spanned trigger, evidence and three arguments (an unlinked entity with a
    span, a KB entity without one), and one with neither span nor evidence and a literal argument."""
    text = document.text
    at = text.find("acquired")
    acme = Term.iri(name_entity_iri(words), surface=words, label=words)
    acquisition = Event(
        iri=event_iri(document.id, system, 0),
        type=ACQUISITION,
        trigger=trigger,
        trigger_span=document.span(at, at + len("acquired")),
        arguments=[
            EventArgument(role=BUYER, entity=acme, span=document.span(0, 9)),
            EventArgument(role=ACQUIRED, entity=Term.iri(WD + "Q95", surface="Widget Inc", label="Widget Inc")),
            EventArgument(role=PLACE, entity=Term.iri(WD + "Q64", surface="Berlin"), span=document.find("Berlin")),
        ],
        provenance=Provenance(
            evidence=document.sentence_around(document.find("acquired")),
            system=system,
            agent="ee-expert",
            model="qwen2.5-0.5b",
            prompt_version="ee.v1",
            confidence=0.75,
        ),
    )
    appointment = Event(
        iri=event_iri(document.id, system, 1),
        type=APPOINTMENT,
        trigger="joined",
        arguments=[
            EventArgument(role=PERSON, entity=Term.iri(WD + "Q7186", surface="Marie Curie", label="Marie Curie")),
            EventArgument(
                role=ORGANIZATION, entity=acme, span=document.span(text.rfind("Acme"), text.rfind("Acme") + 9)
            ),
            EventArgument(role=TIME, entity=Term.literal("2020", datatype=GYEAR, surface="2020")),
        ],
        provenance=Provenance(system=system),
    )
    return [acquisition, appointment]


def make_event_result(document: Document, system: str = SYSTEM, **kw) -> ExtractionResult:
    result = make_result(make_document(document.id), system=system)  # its triples beside the events
    return result.model_copy(update={"events": make_events(document, system, **kw)})


@pytest.fixture
def news() -> Document:
    return make_news()


@pytest.fixture
def stored(store: GraphStore, news: Document) -> GraphStore:
    store.add_result(news, make_event_result(news))
    return store


def kg_triples(store: GraphStore) -> set[ox.Triple]:
    graphs = [g for g, _, _ in store.graphs("doc")]
    return {q.triple for q in store.quads(graphs)}


def node(iri: str) -> ox.NamedNode:
    return ox.NamedNode(iri)


# ---------------------------------------------------------------- the store


def test_events_round_trip_is_lossless_and_keeps_order(stored, news):
    result = make_event_result(news)
    assert stored.events() == result.events
    assert stored.events(document_id=news.id, system=SYSTEM) == result.events
    assert stored.events(system="other") == []
    assert stored.triples() == result.triples and stored.entities() == result.entities
    [(doc_id, system, events)] = stored.events_by_run()
    assert (doc_id, system) == (news.id, SYSTEM)
    assert [e.trigger for e in events] == ["acquired", "joined"]
    assert [a.role for a in events[0].arguments] == [BUYER, ACQUIRED, PLACE]
    [row] = stored.documents()
    assert (row["triples"], row["entities"], row["events"]) == (3, 1, 2)


def test_events_round_trip_on_disk_survives_reopen(tmp_path, news):
    result = make_event_result(news)
    with GraphStore.open(tmp_path / "kg") as store:
        store.add_result(news, result)
    with GraphStore.open(tmp_path / "kg") as store:
        assert store.events() == result.events


def test_events_kg_graph_holds_typed_nodes_with_one_edge_per_role(stored, news):
    kg = ox.NamedNode(v.doc_graph(news.id, SYSTEM))
    quads = {q.triple for q in stored.oxigraph.quads_for_pattern(None, None, None, kg)}
    e0, e1 = node(event_iri(news.id, SYSTEM, 0)), node(event_iri(news.id, SYSTEM, 1))
    rdf_type, trigger, label = node(v.RDF_TYPE), node(v.TRIGGER), node(v.LABEL)
    expected = {
        ox.Triple(e0, rdf_type, node(v.EVENT)),
        ox.Triple(e0, rdf_type, node(ACQUISITION)),
        ox.Triple(e0, trigger, ox.Literal("acquired")),
        ox.Triple(e0, label, ox.Literal("acquired")),
        ox.Triple(e0, node(BUYER), node(ACME)),
        ox.Triple(e0, node(ACQUIRED), node(WD + "Q95")),
        ox.Triple(e0, node(PLACE), node(WD + "Q64")),
        ox.Triple(e1, rdf_type, node(APPOINTMENT)),
        ox.Triple(e1, node(PERSON), node(WD + "Q7186")),
        ox.Triple(e1, node(TIME), ox.Literal("2020", datatype=node(GYEAR))),
        # argument entities are labelled and typed as triple terms are
        ox.Triple(node(ACME), label, ox.Literal("Acme Corp")),
        ox.Triple(node(ACME), rdf_type, node(v.UNLINKED_ENTITY)),
        ox.Triple(node(WD + "Q95"), label, ox.Literal("Widget Inc")),
    }
    assert expected <= quads
    # spans, surfaces and evidence stay in the provenance graph
    assert not {v.SURFACE, v.SPAN_START, v.EVIDENCE_TEXT, v.HAS_ARGUMENT} & {t.predicate.value for t in quads}
    assert (node(WD + "Q64"), label) not in {(t.subject, t.predicate) for t in quads}  # no label given


def test_events_record_in_the_provenance_graph(stored, news):
    prov = ox.NamedNode(v.prov_graph(news.id, SYSTEM))
    rec = node(v.event_record_iri(news.id, SYSTEM, 0))
    props = {(q.predicate.value, q.object) for q in stored.oxigraph.quads_for_pattern(rec, None, None, prov)}
    assert {
        (v.RDF_TYPE, node(v.EVENT_RECORD)),
        (v.EVENT_NODE, node(event_iri(news.id, SYSTEM, 0))),
        (v.EVENT_TYPE, node(ACQUISITION)),
        (v.SURFACE, ox.Literal("acquired")),
        (v.SPAN_START, ox.Literal("10", datatype=node(v.XSD_INTEGER))),
        (v.AGENT, ox.Literal("ee-expert")),
        (v.EVIDENCE_TEXT, ox.Literal("Acme Corp acquired Widget Inc in Berlin.")),
        (v.HAS_ARGUMENT, node(v.argument_iri(news.id, SYSTEM, 0, 1))),
    } <= props


def test_events_rerun_replaces_the_events_of_that_document_and_system(stored, news):
    stored.add_result(news, make_event_result(news, system="other"))
    fewer = make_event_result(news).model_copy(update={"events": make_events(news, trigger="bought")[:1]})
    stored.add_result(news, fewer)
    assert stored.events(system=SYSTEM) == fewer.events
    assert len(stored.events(system="other")) == 2  # the other system's run is untouched
    stale = node(event_iri(news.id, SYSTEM, 1))
    assert not list(stored.oxigraph.quads_for_pattern(stale, None, None, None))
    assert not list(
        stored.oxigraph.quads_for_pattern(
            None, None, ox.Literal("acquired"), ox.NamedNode(v.doc_graph(news.id, SYSTEM))
        )
    )
    assert {r["system"]: r["events"] for r in stored.documents()} == {SYSTEM: 1, "other": 2}
    stored.record_failure(news.id, SYSTEM, "rerun failed")
    assert stored.events(system=SYSTEM) == []


@pytest.mark.parametrize(
    "where, update, match",
    [
        ("event", {"iri": "not an iri"}, "event 0 'not an iri' node"),
        ("event", {"type": "Acquisition"}, "event 0 .* type 'Acquisition' is not an absolute IRI"),
        ("argument", {"role": "Buyer role"}, "event 0 .* argument 0 role"),
        ("argument", {"entity": Term.iri("Acme Corp")}, "event 0 .* argument 0 entity"),
    ],
)
def test_events_bad_iri_names_the_event_and_writes_nothing(stored, news, where, update, match):
    result = make_event_result(news)
    event = result.events[0]
    if where == "event":
        event = event.model_copy(update=update)
    else:
        event = event.model_copy(update={"arguments": [event.arguments[0].model_copy(update=update)]})
    before = set(stored.oxigraph)
    with pytest.raises(StoreError, match=match):
        stored.add_result(news, result.model_copy(update={"events": [event]}))
    assert set(stored.oxigraph) == before


# ---------------------------------------------------------------- SPARQL


def test_events_are_found_with_sparql_with_their_arguments(stored, news):
    rows = stored.query("SELECT ?e ?trigger WHERE { GRAPH ?g { ?e a gw:Event ; gw:trigger ?trigger } } ORDER BY ?e")
    assert rows == [
        {"e": event_iri(news.id, SYSTEM, 0), "trigger": "acquired"},
        {"e": event_iri(news.id, SYSTEM, 1), "trigger": "joined"},
    ]
    rows = stored.query("""
        SELECT ?role ?arg ?label WHERE {
            ?e a gw:Event ; gw:trigger "acquired" ; ?role ?arg .
            FILTER (?role NOT IN (rdf:type, gw:trigger, rdfs:label))
            OPTIONAL { ?arg rdfs:label ?label }
        } ORDER BY ?role""")  # the default graph is the KG union
    assert rows == [
        {"role": ACQUIRED, "arg": WD + "Q95", "label": "Widget Inc"},
        {"role": BUYER, "arg": ACME, "label": "Acme Corp"},
        {"role": PLACE, "arg": WD + "Q64", "label": None},
    ]
    # the trigger span and the argument spans are in the records
    rows = stored.query("""
        SELECT ?start ?surface ?from WHERE { GRAPH ?g {
            ?r a gw:EventRecord ; gw:event ?e ; gw:start ?start ; gw:argument ?a .
            ?a gw:role ?role ; gw:surface ?surface ; gw:start ?from } } ORDER BY ?from""")
    assert rows == [
        {"start": "10", "surface": "Acme Corp", "from": "0"},
        {"start": "10", "surface": "Berlin", "from": "33"},
    ]


# ---------------------------------------------------------------- exports


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_events_every_export_parses_back_with_the_event_edges(stored, news, fmt):
    data = serialize_graph(stored, fmt)
    parsed = {q.triple for q in ox.parse(data, format=FORMATS[fmt])}
    assert parsed == kg_triples(stored)
    e0 = node(event_iri(news.id, SYSTEM, 0))
    assert {
        ox.Triple(e0, node(v.RDF_TYPE), node(v.EVENT)),
        ox.Triple(e0, node(BUYER), node(ACME)),
        ox.Triple(e0, node(v.TRIGGER), ox.Literal("acquired")),
    } <= parsed
    if fmt == "jsonld":
        json.loads(data)
    if fmt in QUAD_FORMATS:
        with_prov = list(ox.parse(serialize_graph(stored, fmt, include_provenance=True), format=FORMATS[fmt]))
        records = [q for q in with_prov if q.object == node(v.EVENT_RECORD)]
        assert {q.graph_name.value for q in records} == {v.prov_graph(news.id, SYSTEM)} and len(records) == 2


@pytest.fixture
def hostile(store: GraphStore, news: Document) -> GraphStore:
    store.add_result(news, make_event_result(news, trigger=HOSTILE, words=HOSTILE))
    return store


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_events_hostile_trigger_and_argument_words_survive_every_format(hostile, news, fmt):
    data = serialize_graph(hostile, fmt, include_provenance=True)
    parsed = list(ox.parse(data, format=FORMATS[fmt]))
    graphs = [g for kind in ("doc", "prov") for g, _, _ in hostile.graphs(kind)]
    assert {q.triple for q in parsed} == {q.triple for q in hostile.quads(graphs)}  # nothing added or lost
    e0, arg = node(event_iri(news.id, SYSTEM, 0)), node(name_entity_iri(HOSTILE))
    by_subject = {(q.subject, q.predicate.value): q.object for q in parsed}
    assert by_subject[(e0, v.TRIGGER)] == ox.Literal(HOSTILE)
    assert by_subject[(arg, v.LABEL)] == ox.Literal(HOSTILE)
    assert by_subject[(node(v.argument_iri(news.id, SYSTEM, 0, 0)), v.SURFACE)] == ox.Literal(HOSTILE)
    if fmt in ("turtle", "trig"):
        assert b'"""' not in data  # written as one-line strings with \" escapes, never a long string
    if fmt == "jsonld":
        assert HOSTILE in set(json_values(json.loads(data)))


def json_values(data) -> list[str]:
    """Every ``@value`` string of a JSON-LD document."""
    if isinstance(data, list):
        return [x for item in data for x in json_values(item)]
    if isinstance(data, dict):
        own = [data["@value"]] if isinstance(data.get("@value"), str) else []
        return own + [x for value in data.values() for x in json_values(value)]
    return []


def test_events_hostile_words_read_back_from_the_store(hostile, news):
    assert hostile.events() == make_event_result(news, trigger=HOSTILE, words=HOSTILE).events


# ---------------------------------------------------------------- the HTML view

DATA_BLOCK = re.compile(r'<script type="application/json" id="gw-data">(.*?)</script>', re.S)


def test_events_html_view_draws_event_nodes_with_role_edges(stored, news):
    data = graph_data(stored)
    nodes = {n["id"]: n for n in data["nodes"]}
    events = [n for n in data["nodes"] if n["kind"] == "event"]
    assert [n["label"] for n in events] == ["Acquisition: acquired", "Appointment: joined"]
    assert (events[0]["type"], events[0]["trigger"]) == (ACQUISITION, "acquired")
    assert events[0]["support"][0]["evidence"] == "Acme Corp acquired Widget Inc in Berlin."
    roles = [
        (e["label"], nodes[e["target"]]["label"])
        for e in data["edges"]
        if e["kind"] == "role" and e["source"] == events[0]["id"]
    ]
    assert roles == [("Buyer", "Acme Corp"), ("Acquired", "Widget Inc"), ("Place", "Q64")]
    [buyer] = [e for e in data["edges"] if e["iri"] == BUYER]
    assert buyer["support"][0]["surfaces"] == ["acquired", "Acme Corp"]
    # one node per entity: Acme Corp fills a role in both events
    assert sum(1 for n in data["nodes"] if n["iri"] == ACME) == 1
    assert [e["kind"] for e in data["edges"]].count("triple") == 3
    assert (data["total_triples"], data["total_events"], data["documents"]) == (3, 2, [news.id])


def test_events_html_view_keeps_an_event_whole_under_the_edge_cap(stored):
    data = graph_data(stored, max_edges=6)  # 3 triples + the first event's 3 roles
    assert [n["label"] for n in data["nodes"] if n["kind"] == "event"] == ["Acquisition: acquired"]
    assert len(data["edges"]) == 6 and data["total_events"] == 2


def test_events_html_view_escapes_hostile_words(hostile):
    page = render_html(hostile, title=HOSTILE)
    assert page.count("<script") == 2 and page.count("</script") == 2 and "<!--" not in page
    block = DATA_BLOCK.search(page).group(1)
    assert not set(block) & set("<>&\u2028\u2029")
    data = json.loads(block)
    assert f"Acquisition: {HOSTILE}" in {n["label"] for n in data["nodes"]}
    assert HOSTILE in {n["label"] for n in data["nodes"]}
    assert "<title>bought &quot;&quot;&quot;all" in page


@needs_node
def test_events_html_view_script_draws_and_explains_events(store, news, tmp_path):
    only_events = ExtractionResult(document_id=news.id, system=SYSTEM, events=make_events(news, trigger=HOSTILE))
    store.add_result(news, only_events)
    out = run_page(render_html(store), tmp_path)
    assert (out["edges"], out["nodes"], out["badGeometry"]) == (6, 7, 0)
    assert out["stats"] == "7 nodes (1 not in the KB) · 0 triples · 2 events · 1 document"
    assert not out["emptyShown"] and out["notice"] is None
    assert out["nodeClasses"].count("node event") == 2
    assert out["edgeClasses"] == ["edge role"] * 6
    assert "Event argument" in out["edgePanel"] and "Buyer" in out["edgePanel"] and BUYER in out["edgePanel"]
    assert HOSTILE in out["edgePanel"] and "Acme Corp acquired Widget Inc in Berlin." in out["edgePanel"]
    assert out["marks"] == ["Acme Corp"]  # the hostile trigger is not in the evidence; the argument is
    assert "Trigger" in out["nodePanel"] and "Arguments (3)" in out["nodePanel"]
    assert f"Acquisition: {HOSTILE}" in out["nodePanel"]
