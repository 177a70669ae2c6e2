"""Hostile text in labels, literal values and evidence round-trips through every place the graph lives.

Property-based (Hypothesis): the strategies below mix ordinary words with quotes, backslashes, line
breaks, markup, SPARQL and Turtle fragments, bidi marks, astral characters and C0/C1 controls
(U+0000 included; lone surrogates are not text and are left out). Each property checks that the text
comes back unchanged and that nothing was injected: no extra triples, elements, scripts or rows.

Control characters: RDF literals may hold any Unicode scalar value, so they are stored as they are and
escaped by the serializers (``\\u0000`` in N-Triples/Turtle; N-Triples/N-Quads exports also escape C1
controls and U+2028/U+2029, so each statement stays on one line). Minted entity IRIs percent-encode
them. What RDF cannot carry (a malformed IRI, datatype or language tag) is a ``StoreError`` before
anything is written. Language tags come back lower-cased (BCP47 tags are case-insensitive).
"""

from __future__ import annotations

import json
import unicodedata
from html.parser import HTMLParser
from urllib.parse import unquote

import pyoxigraph as ox
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graphwright import sparql as gw_sparql
from graphwright.errors import StoreError, UserError
from graphwright.kb.namespaces import UNLINKED, WD, WDT
from graphwright.model import (
    Entity,
    Event,
    EventArgument,
    EventSchema,
    EventType,
    ExtractionResult,
    Mention,
    Provenance,
    Span,
    Term,
    Triple,
)
from graphwright.model.events import event_iri
from graphwright.model.schema import name_entity_iri
from graphwright.store import GraphStore, render_html, serialize_graph
from graphwright.store import vocab as v
from graphwright.store.export import FORMATS, QUAD_FORMATS
from graphwright.store.html_view import graph_data

from .page_harness import needs_node, run_page

# ---------------------------------------------------------------- hostile text

PIECES = [
    # quotes and escapes of every syntax involved
    "'",
    '"',
    '"""',
    "'''",
    "\\",
    "\\\\",
    '\\"',
    "\\n",
    "\\u0022",
    "\\U0000003E",
    "\\u003c/script>",
    "%00",
    "%3E",
    # line breaks, tabs and other whitespace
    "\n",
    "\r",
    "\r\n",
    "\t",
    "\x0b",
    "\x0c",
    "\x85",
    "\u00a0",
    "\u2028",
    "\u2029",
    " ",
    # markup
    "<",
    ">",
    "&",
    "&amp;",
    "&lt;",
    "&#0;",
    "</script><script>alert(1)</script>",
    "</SCRIPT >",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "</title>",
    "<b onmouseover=x>",
    "__GW_DATA__",
    "__GW_TITLE__",
    "__GW_EMPTY_HIDDEN__",
    # SPARQL, Turtle, N-Triples and JSON-LD fragments
    '"} ; DROP ALL ; SELECT * {',
    "'} UNION { ?s ?p ?o }",
    "} #",
    '" . <http://evil/s> <http://evil/p> "o',
    "@prefix ev: <http://evil/> .",
    "_:b0",
    "^^xsd:integer",
    "@en",
    '"@id": "http://evil/"',
    "{",
    "}",
    "#",
    "http://x/> <y",
    "gwe:",
    "wd:Q42",
    ".",
    "-",
    "_",
    "~",
    ":",
    # bidi, invisible and astral characters, case mappings that change length
    "\u202e",
    "\u200f",
    "\u200e",
    "\u2066",
    "\u200b",
    "\ufeff",
    "\ufffe",
    "\uffff",
    "\U0001f600",
    "🇵🇱",
    "\U0001d11e",
    "\U0010ffff",
    "e\u0301",
    "İ",
    "ß",
    "ﬁ",
    # C0 and C1 controls, NUL
    "\x00",
    "\x01",
    "\x08",
    "\x1b[31m",
    "\x1f",
    "\x7f",
    "\x80",
    "\x9f",
]
_ANY_CHAR = st.characters(exclude_categories=("Cs",))  # every code point but lone surrogates
_WORDS = st.text(alphabet="abcXYZ 019äé", max_size=6)


def hostile_text(min_size: int = 0, max_parts: int = 6) -> st.SearchStrategy[str]:
    """Ordinary words, hostile fragments and arbitrary characters, concatenated."""
    part = st.one_of(st.sampled_from(PIECES), _WORDS, st.text(alphabet=_ANY_CHAR, max_size=4))
    return (
        st.lists(part, min_size=max(min_size, 0), max_size=max_parts).map("".join).filter(lambda s: len(s) >= min_size)
    )


# Every hostile piece at once: a fixed input that most properties run as an explicit example.
KITCHEN_SINK = "Marie " + "|".join(PIECES) + " end"

# ---------------------------------------------------------------- results with hostile text


def _maybe(strategy: st.SearchStrategy) -> st.SearchStrategy:
    return st.none() | strategy


def _span(text: st.SearchStrategy[str]) -> st.SearchStrategy[Span]:
    return st.builds(
        lambda start, n, t: Span(start=start, end=start + n, text=t), st.integers(0, 500), st.integers(0, 200), text
    )


def _entity_iri(index: int) -> st.SearchStrategy[str]:
    """A KB IRI, or an IRI minted from a hostile name (as the linker does for unlinked entities)."""
    return st.just(f"{WD}Q{index + 1}") | hostile_text().map(name_entity_iri)


# Event types and roles minted from hostile names, as an event schema from a user's file mints them.
EVENT_SCHEMA = EventSchema(name="news <\"'>", events=[EventType(name="E")])


def _argument(text: st.SearchStrategy[str], index: int) -> st.SearchStrategy[EventArgument]:
    iri = st.builds(
        lambda i, s, label: Term.iri(i, surface=s, label=label), _entity_iri(300 + index), _maybe(text), _maybe(text)
    )
    literal = st.builds(lambda val, s: Term.literal(val, surface=s), text, _maybe(text))
    return st.builds(
        EventArgument,
        role=hostile_text().map(EVENT_SCHEMA.role_iri),
        entity=iri | literal,
        span=_maybe(_span(_maybe(text))),
    )


@st.composite
def hostile_events(draw: st.DrawFn, document_id: str, system: str) -> list[Event]:
    text = hostile_text()
    return [
        Event(
            iri=event_iri(document_id, system, i),
            type=EVENT_SCHEMA.type_iri(draw(text)),
            trigger=draw(text),
            trigger_span=draw(_maybe(_span(_maybe(text)))),
            arguments=[draw(_argument(text, j)) for j in range(draw(st.integers(0, 2)))],
            provenance=Provenance(
                evidence=draw(_maybe(_span(_maybe(text)))),
                system=draw(text),
                agent=draw(_maybe(text)),
                confidence=draw(_maybe(st.floats(0.0, 1.0))),
            ),
        )
        for i in range(draw(st.integers(0, 2)))
    ]


@st.composite
def hostile_results(draw: st.DrawFn, max_triples: int = 3) -> ExtractionResult:
    text = hostile_text()
    system = draw(hostile_text(min_size=1))
    triples = []
    for i in range(draw(st.integers(1, max_triples))):
        if draw(st.booleans()):
            lang = draw(st.sampled_from([None, "en", "de-ch"]))  # lower case: the store lower-cases tags
            obj = Term.literal(draw(text), surface=draw(_maybe(text)), lang=lang)
        else:
            obj = Term.iri(draw(_entity_iri(100 + i)), surface=draw(_maybe(text)), label=draw(_maybe(text)))
        triples.append(
            Triple(
                subject=Term.iri(draw(_entity_iri(i)), surface=draw(_maybe(text)), label=draw(text)),
                predicate=Term.iri(f"{WDT}P{i + 1}", surface=draw(_maybe(text)), label=draw(text)),
                object=obj,
                provenance=Provenance(
                    evidence=draw(_maybe(_span(_maybe(text)))),
                    system=draw(text),
                    agent=draw(_maybe(text)),
                    model=draw(_maybe(text)),
                    prompt_version=draw(_maybe(text)),
                    confidence=draw(_maybe(st.floats(0.0, 1.0))),
                ),
            )
        )
    entities = [
        Entity(
            iri=draw(_entity_iri(200 + i)),
            label=draw(_maybe(text)),
            types=draw(st.sampled_from([[], [WD + "Q5"]])),
            mentions=draw(st.lists(st.builds(Mention, surface=text, span=_maybe(_span(_maybe(text)))), max_size=2)),
        )
        for i in range(draw(st.integers(0, 2)))
    ]
    document_id = draw(hostile_text(min_size=1))
    return ExtractionResult(
        document_id=document_id,
        system=system,
        reason=draw(_maybe(text)),
        triples=triples,
        entities=entities,
        warnings=draw(st.lists(text, max_size=2)),
        events=draw(hostile_events(document_id, system)),
    )


def kitchen_sink_result() -> ExtractionResult:
    """One fixed result with every hostile piece in every text field."""
    s = KITCHEN_SINK
    span = Span(start=3, end=9, text=s)
    minted = name_entity_iri(s)
    triple = Triple(
        subject=Term.iri(minted, surface=s, label=s),
        predicate=Term.iri(WDT + "P1449", surface=s, label=s),
        object=Term.literal(s, surface=s),
        provenance=Provenance(evidence=span, system=s, agent=s, model=s, prompt_version=s, confidence=0.5),
    )
    linked = triple.model_copy(update={"object": Term.iri(WD + "Q90", surface="Paris", label=s + "2")})
    event = Event(
        iri=event_iri(s, s, 0),
        type=EVENT_SCHEMA.type_iri(s),
        trigger=s,
        trigger_span=span,
        arguments=[
            EventArgument(role=EVENT_SCHEMA.role_iri(s), entity=triple.subject, span=span),
            EventArgument(role=EVENT_SCHEMA.role_iri(s + "2"), entity=Term.literal(s, surface=s)),
        ],
        provenance=triple.provenance,
    )
    return ExtractionResult(
        document_id=s,
        system=s,
        reason=s,
        triples=[triple, linked],
        warnings=[s],
        events=[event],
        entities=[Entity(iri=minted, label=s, types=[WD + "Q5"], mentions=[Mention(surface=s, span=span)])],
    )


def strings_of(result: ExtractionResult) -> dict[str, set[str]]:
    """The hostile strings the result carries: KG labels and values, and provenance-only text."""
    kg, prov = set(), set()
    for t in result.triples:
        for term in (t.subject, t.predicate, t.object):
            if term.kind == "literal":
                kg.add(term.value)
            elif term.label is not None:
                kg.add(term.label)
            if term.surface is not None:
                prov.add(term.surface)
        if t.provenance.evidence is not None and t.provenance.evidence.text is not None:
            prov.add(t.provenance.evidence.text)
    for e in result.entities:
        if e.label is not None:
            kg.add(e.label)
        prov.update(m.surface for m in e.mentions)
        prov.update(m.span.text for m in e.mentions if m.span is not None and m.span.text is not None)
    for ev in result.events:
        kg.add(ev.trigger)
        spans = [ev.trigger_span, ev.provenance.evidence, *(a.span for a in ev.arguments)]
        prov.update(sp.text for sp in spans if sp is not None and sp.text is not None)
        for a in ev.arguments:
            kg.update({a.entity.value if a.entity.kind == "literal" else a.entity.label} - {None})
            prov.update({a.entity.surface} - {None})
    prov.update(result.warnings)
    return {"kg": kg, "prov": prov | kg}


def stored(result: ExtractionResult) -> GraphStore:
    store = GraphStore.in_memory()
    store.add_result(None, result)
    return store


def store_quads(store: GraphStore, include_provenance: bool) -> set[ox.Quad]:
    graphs = [g for g, _, _ in store.graphs("doc")]
    if include_provenance:
        graphs += [g for g, _, _ in store.graphs("prov")]
    return set(store.quads(graphs))


def literal_values(terms) -> set[str]:
    return {q.object.value for q in terms if isinstance(q.object, ox.Literal)}


# Example counts keep the file near 20 s on two cores; the counts are quoted in docs/RELIABILITY.md.
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------- (a) the store


def assert_reads_back(store: GraphStore, result: ExtractionResult) -> None:
    assert store.triples() == result.triples
    assert store.entities() == result.entities
    assert store.events() == result.events
    [run] = store.documents()
    assert (run["document_id"], run["system"], run["reason"]) == (result.document_id, result.system, result.reason)
    assert run["warnings"] == sorted(set(result.warnings))  # one quad per distinct warning
    assert store.count() == len(result.triples)


@SETTINGS
@given(hostile_results())
@example(kitchen_sink_result())
def test_hostile_text_reads_back_unchanged_from_the_store(result):
    with stored(result) as store:
        assert_reads_back(store, result)


@settings(max_examples=25, deadline=None)
@given(hostile_results())
@example(kitchen_sink_result())
def test_hostile_text_reads_back_unchanged_from_a_store_on_disk(tmp_path_factory, result):
    path = tmp_path_factory.mktemp("hostile") / "kg"
    with GraphStore.open(path) as store:
        store.add_result(None, result)
    with GraphStore.open(path) as store:
        assert_reads_back(store, result)


# ---------------------------------------------------------------- (b) the RDF exports


def assert_export_round_trips(store: GraphStore, result: ExtractionResult, fmt: str, provenance: bool) -> None:
    data = serialize_graph(store, fmt, include_provenance=provenance)
    parsed = list(ox.parse(data, format=FORMATS[fmt]))
    expected = store_quads(store, provenance)
    if fmt in QUAD_FORMATS:
        assert len(parsed) == len(expected) and set(parsed) == expected
    else:
        triples = {q.triple for q in expected}
        assert len(parsed) == len(triples) and {q.triple for q in parsed} == triples
    strings = strings_of(result)["prov" if provenance else "kg"]
    assert strings <= literal_values(parsed)
    if fmt in ("ntriples", "nquads"):
        # Line formats: one statement per line for any line splitter, no raw control character.
        text = data.decode("utf-8")
        assert len(text.splitlines()) == len(parsed)
        assert not {c for c in text if unicodedata.category(c) == "Cc"} - {"\n"}


def _one_literal(value: str) -> ExtractionResult:
    return ExtractionResult(
        document_id="d",
        system="s",
        triples=[
            Triple(
                subject=Term.iri(WD + "Q1", label=value),
                predicate=Term.iri(WDT + "P1"),
                object=Term.literal(value),
                provenance=Provenance(system="s", evidence=Span(start=0, end=1, text=value)),
            )
        ],
    )


@SETTINGS
@given(hostile_results())
@example(kitchen_sink_result())
@example(_one_literal("a\u2028b\x85c\u2029d\x9f"))  # were raw in N-Triples: str.splitlines() cut the line
def test_hostile_text_survives_every_export_format_without_extra_triples(result):
    with stored(result) as store:
        for fmt in ("turtle", "ntriples", "nquads", "jsonld", "trig"):
            for provenance in (False, True):
                assert_export_round_trips(store, result, fmt, provenance)


@settings(max_examples=30, deadline=None)
@given(hostile_results(max_triples=2))
def test_hostile_export_loads_into_a_fresh_store_unchanged(result):
    with stored(result) as store:
        data = serialize_graph(store, "nquads", include_provenance=True)
        copy = ox.Store()
        copy.load(data, format=ox.RdfFormat.N_QUADS)
        assert set(copy) == store_quads(store, True)


# ---------------------------------------------------------------- what RDF cannot carry


@SETTINGS
@given(hostile_text(), st.sampled_from(["entity", "predicate", "datatype", "lang", "event type", "role"]))
@example("http://x/> <http://evil/p> <http://evil/o", "entity")
@example("Q42\x00", "predicate")
@example("en\n", "lang")
@example("XX", "lang")  # stored, as "xx"
@example("gwe:", "predicate")  # stored, as the expanded IRI
def test_hostile_iri_or_language_tag_in_a_result_is_a_clear_error_and_writes_nothing(text, where):
    entity = Entity(iri=text if where == "entity" else WD + "Q1", label="x")
    obj = {"datatype": Term.literal("v", datatype=text), "lang": Term.literal("v", lang=text or None)}.get(
        where, Term.literal("v")
    )
    triple = Triple(
        subject=Term.iri(WD + "Q1"),
        predicate=Term.iri(text if where == "predicate" else WDT + "P1"),
        object=obj,
        provenance=Provenance(system="s"),
    )
    event = Event(
        iri=event_iri("d", "s", 0),
        type=text if where == "event type" else WD + "Q1190554",
        trigger="t",
        arguments=[EventArgument(role=text if where == "role" else WD + "P1", entity=Term.iri(WD + "Q1"))],
        provenance=Provenance(system="s"),
    )
    result = ExtractionResult(document_id="d", system="s", triples=[triple], entities=[entity], events=[event])
    with GraphStore.in_memory() as store:
        store.add_result(None, kitchen_sink_result())
        before = set(store.oxigraph)
        try:
            store.add_result(None, result)
        except StoreError as exc:
            assert "d" not in {run["document_id"] for run in store.documents()}
            assert set(store.oxigraph) == before, exc  # validated before anything was written
        else:  # a valid IRI or tag after all
            [back] = store.triples(document_id="d")
            assert back.key() == tuple(v.expand(x) for x in triple.key())  # "gwe:" is a known prefix
            # BCP47 tags are case-insensitive; the store keeps them lower-cased.
            assert (back.object.lang or "") == (text.lower() if where == "lang" else "")
            [stored_event] = store.events(document_id="d")
            assert (stored_event.type, stored_event.arguments[0].role) == (
                v.expand(event.type),
                v.expand(event.arguments[0].role),
            )


# ---------------------------------------------------------------- minted IRIs


def folded(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split())


@settings(max_examples=500, deadline=None)
@given(hostile_text())
@example(KITCHEN_SINK)
@example("a.")  # a Turtle local name may not end in "."
@example("\x85\u2028 ")  # only whitespace: folds to "" and mints the namespace itself
def test_iri_minted_from_a_hostile_name_is_valid_and_keeps_the_name(name):
    iri = name_entity_iri(name)
    node = ox.NamedNode(iri)  # raises on an invalid IRI
    assert iri.startswith(UNLINKED) and unquote(iri[len(UNLINKED) :]) == folded(name)
    assert not set(iri) & set('<>"{}|^`\\ ') and iri.isascii()
    triple = ox.Triple(node, ox.NamedNode(v.LABEL), ox.Literal(name))
    for fmt in ("turtle", "ntriples"):
        data = ox.serialize([triple], format=FORMATS[fmt], prefixes={"gwe": UNLINKED})
        assert [q.triple for q in ox.parse(data, format=FORMATS[fmt])] == [triple]
    assert gw_sparql.sparql_iri(iri) == f"<{iri}>"


# ---------------------------------------------------------------- (c) the HTML view


class _Page(HTMLParser):
    """Tags, comments and the text of <title>, <h1> and the data block, as a browser would split them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.comments: list[str] = []
        self.text: dict[str, str] = {}
        self._open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        key = dict(attrs).get("id") or tag
        self._open.append(key)
        self.text.setdefault(key, "")

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_comment(self, data):
        self.comments.append(data)

    def handle_data(self, data):
        if self._open:
            self.text[self._open[-1]] = self.text.get(self._open[-1], "") + data


def _template_tags() -> list[str]:
    with GraphStore.in_memory() as empty:
        page = _Page()
        page.feed(render_html(empty, title="t"))
        return page.tags


TEMPLATE_TAGS = _template_tags()


def assert_page_is_inert(store: GraphStore, title: str) -> str:
    html = render_html(store, title=title)
    page = _Page()
    page.feed(html)
    page.close()
    # The same elements as the template: no label opened a tag, closed the script or began a comment.
    assert page.tags == TEMPLATE_TAGS
    assert page.tags.count("script") == 2 and page.comments == []
    block = page.text["gw-data"]
    assert not set(block) & set("<>&\u2028\u2029")
    assert json.loads(block) == {**graph_data(store), "title": title}
    assert page.text["title"] == title and page.text["h1"] == title
    return html


@SETTINGS
@given(hostile_results(), hostile_text())
@example(kitchen_sink_result(), KITCHEN_SINK)
def test_hostile_text_in_the_html_view_stays_text(result, title):
    with stored(result) as store:
        data = graph_data(store)
        node_labels = {n["label"] for n in data["nodes"]}
        evidence = {s["evidence"] for e in data["edges"] for s in e["support"]} - {None}
        for t in result.triples:
            if t.object.kind == "literal":
                assert t.object.value in node_labels
            if t.provenance.evidence is not None and t.provenance.evidence.text:
                assert t.provenance.evidence.text in evidence
        triggers = [n["trigger"] for n in data["nodes"] if n["kind"] == "event"]
        assert triggers == [e.trigger for e in result.events]
        assert_page_is_inert(store, title)


def utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def case_fold(s: str) -> str:
    """The page's case folding: lower-case each character unless that changes its UTF-16 length."""
    return "".join(c.lower() if utf16_len(c.lower()) == utf16_len(c) else c for c in s)


@needs_node
@settings(max_examples=30, deadline=None)
@given(hostile_text(min_size=1), hostile_text(min_size=1), hostile_text(min_size=1), hostile_text())
@example("Marie " + KITCHEN_SINK, KITCHEN_SINK, "x", "y")
@example("İrem Curie", "Paris", "born", "")  # "İ".toLowerCase() is two units: marks were shifted
def test_hostile_text_in_the_html_view_is_shown_by_the_page_script_as_text(
    tmp_path_factory, subject, value, surface, title
):
    # The evidence holds the surfaces, so the page highlights them: the marks must be those words.
    evidence = f"{subject} said {surface} and {value}."
    result = ExtractionResult(
        document_id="d",
        system="s",
        triples=[
            Triple(
                subject=Term.iri(name_entity_iri(subject), surface=subject, label=subject),
                predicate=Term.iri(WDT + "P1449", surface=surface, label=surface),
                object=Term.literal(value, surface=value),
                provenance=Provenance(system="s", evidence=Span(start=0, end=len(evidence), text=evidence)),
            )
        ],
    )
    with stored(result) as store:
        out = run_page(assert_page_is_inert(store, title), tmp_path_factory.mktemp("page"))
    assert (out["edges"], out["nodes"], out["badGeometry"]) == (1, 2, 0)
    for text in (subject, value, surface, evidence):
        assert text in out["edgePanel"]
    surfaces = {case_fold(s) for s in (subject, surface, value)}
    assert out["marks"] and all(case_fold(m) in surfaces for m in out["marks"])


# ---------------------------------------------------------------- (d) SPARQL built from user text

LITERAL_HELPERS = {"sparql": gw_sparql.sparql_literal}


def labelled_store(labels: list[str]) -> GraphStore:
    entities = [Entity(iri=f"{WD}Q{i + 1}", label=label) for i, label in enumerate(labels)]
    return stored(ExtractionResult(document_id="d", system="s", entities=entities))


@SETTINGS
@given(st.lists(hostile_text(), min_size=1, max_size=4, unique=True), st.data())
@example([KITCHEN_SINK, KITCHEN_SINK + "x", "x"], None)
def test_escaped_hostile_label_finds_exactly_its_entity(labels, data):
    wanted = 0 if data is None else data.draw(st.integers(0, len(labels) - 1))
    with labelled_store(labels) as store:
        for name, literal in LITERAL_HELPERS.items():
            lit = literal(labels[wanted])
            rows = store.query(f"SELECT ?s WHERE {{ ?s rdfs:label {lit} }}")
            assert rows == [{"s": f"{WD}Q{wanted + 1}"}], name
            rows = store.query(f"SELECT ?s ?l WHERE {{ ?s rdfs:label ?l . FILTER(?l = {lit}) }}")
            assert rows == [{"s": f"{WD}Q{wanted + 1}", "l": labels[wanted]}], name
            assert store.query(f"ASK {{ ?s rdfs:label {lit} }}") == [{"ask": True}], name


@SETTINGS
@given(hostile_text(), st.lists(hostile_text(), max_size=3, unique=True))
@example('"} ; DROP ALL ; SELECT * {', ["a", "b"])
@example('x" } UNION { ?s ?p ?o } FILTER("1"="1', ["x"])
def test_escaped_hostile_text_cannot_break_out_of_its_literal(probe, labels):
    # Whatever the text, the query parses and can only match a label equal to it.
    with labelled_store(labels) as store:
        for name, literal in LITERAL_HELPERS.items():
            rows = store.query(f"SELECT ?s ?l WHERE {{ ?s ?p ?l . FILTER(?l = {literal(probe)}) }}")
            expected = [{"s": f"{WD}Q{labels.index(probe) + 1}", "l": probe}] if probe in labels else []
            assert rows == expected, name
            assert store.query(f"SELECT (STRLEN({literal(probe)}) AS ?n) {{}}") == [{"n": str(len(probe))}], name
        assert store.count() == 0 and len(store.entities()) == len(labels)  # nothing was dropped or added


@SETTINGS
@given(hostile_text(), st.sampled_from(["", "http://x/", "urn:a:", WD]))
def test_hostile_iri_text_is_rejected_or_stays_one_iri(text, base):
    try:
        iri = gw_sparql.sparql_iri(base + text)
    except UserError:
        return
    assert iri == f"<{base + text}>"
    rows = GraphStore.in_memory().query(f"SELECT ?x WHERE {{ BIND({iri} AS ?x) }}")
    assert rows == [{"x": base + text}]


@SETTINGS
@given(hostile_text(), hostile_text(max_parts=2))
@example("x", "0")  # passed the check, then "@0" was a SPARQL syntax error
@example("x", "X")  # letters, but not a well-formed BCP47 tag: a syntax error too
@example("x", "en . } DROP ALL {")
def test_hostile_language_tag_is_rejected_or_stays_one_literal(value, lang):
    try:
        lit = gw_sparql.sparql_literal(value, language=lang)
    except UserError:
        return
    rows = GraphStore.in_memory().query(f"SELECT ?x (LANG(?x) AS ?l) WHERE {{ BIND({lit} AS ?x) }}")
    assert rows == [{"x": value, "l": lang.lower()}]


@SETTINGS
@given(hostile_text())
@example(KITCHEN_SINK)
def test_minted_iri_of_a_hostile_name_is_found_by_sparql(name):
    iri = name_entity_iri(name)
    with labelled_store([]) as store:
        store.add_result(None, ExtractionResult(document_id="m", system="s", entities=[Entity(iri=iri, label=name)]))
        rows = store.query(f"SELECT ?l WHERE {{ {gw_sparql.sparql_iri(iri)} rdfs:label ?l }}")
        assert rows == [{"l": name}]
