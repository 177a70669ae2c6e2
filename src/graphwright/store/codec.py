"""Model objects <-> RDF quads. Pure functions: no store, no I/O.

Encoding validates everything before anything is written, so a bad term rejects the whole
document instead of leaving half of it in the store.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import pyoxigraph as ox

from graphwright.errors import ResultNotStorable
from graphwright.kb.namespaces import is_unlinked, is_unlinked_relation
from graphwright.model import Entity, Event, EventArgument, ExtractionResult, Mention, Provenance, Span, Term, Triple
from graphwright.store import vocab as v

_TYPE = ox.NamedNode(v.RDF_TYPE)
_LABEL = ox.NamedNode(v.LABEL)
# Where a span's start, end and text go: a mention's (trigger and argument spans too) or a record's evidence.
SpanKeys = tuple[str, str, str]
SPAN_KEYS: SpanKeys = (v.SPAN_START, v.SPAN_END, v.SPAN_TEXT)
EVIDENCE_KEYS: SpanKeys = (v.EVIDENCE_START, v.EVIDENCE_END, v.EVIDENCE_TEXT)


def iri_node(value: str, what: str = "IRI") -> ox.NamedNode:
    try:
        return ox.NamedNode(v.expand(value))
    except ValueError as exc:
        raise ResultNotStorable(f"{what} {value!r} is not an absolute IRI ({exc})") from exc


def term_node(term: Term, what: str) -> ox.NamedNode | ox.Literal:
    if term.kind == "literal":
        datatype = None if term.datatype is None else iri_node(term.datatype, f"{what} datatype")
        try:
            if term.lang:
                return ox.Literal(term.value, language=term.lang)
            return ox.Literal(term.value, datatype=datatype)
        except ValueError as exc:
            raise ResultNotStorable(f"{what} literal {term.value!r} cannot be stored ({exc})") from exc
    return iri_node(term.value, what)


def literal(value: str | int | float | datetime) -> ox.Literal:
    # repr(float) round-trips exactly; bool is not used (it is an int subclass).
    if isinstance(value, int):
        return ox.Literal(str(value), datatype=ox.NamedNode(v.XSD_INTEGER))
    if isinstance(value, float):
        return ox.Literal(repr(value), datatype=ox.NamedNode(v.XSD_DOUBLE))
    if isinstance(value, datetime):
        return ox.Literal(value.isoformat(), datatype=ox.NamedNode(v.XSD_DATETIME))
    return ox.Literal(value)


class QuadWriter:
    """Collects quads for one graph, skipping absent (None) values."""

    def __init__(self, graph: str) -> None:
        self.graph = ox.NamedNode(graph)
        self.quads: list[ox.Quad] = []

    def add(self, s: ox.NamedNode, p: str, o: Any) -> None:
        if o is None:
            return
        obj = o if isinstance(o, (ox.NamedNode, ox.Literal)) else literal(o)
        self.quads.append(ox.Quad(s, ox.NamedNode(p), obj, self.graph))


def unstorable(result: ExtractionResult, source: str | None = None) -> str | None:
    """Why no store can hold ``result``, or None: checked before a batch writes it anywhere."""
    try:
        encode_result(result, source)
    except ResultNotStorable as exc:
        return str(exc)
    return None


def encode_result(
    result: ExtractionResult, source: str | None = None, recorded_at: datetime | None = None
) -> list[ox.Quad]:
    """All quads for one result: KG graph, provenance graph and run record."""
    doc_id, system = result.document_id, result.system
    kg = QuadWriter(v.doc_graph(doc_id, system))
    prov = QuadWriter(v.prov_graph(doc_id, system))
    run = ox.NamedNode(v.run_iri(doc_id, system))

    prov.add(run, v.RDF_TYPE, ox.NamedNode(v.DOCUMENT_RUN))
    prov.add(run, v.DOCUMENT_ID, doc_id)
    prov.add(run, v.SYSTEM, system)
    prov.add(run, v.STATUS, result.status)
    prov.add(run, v.REASON, result.reason)
    prov.add(run, v.SOURCE, source)
    usage = result.usage
    prov.add(run, v.LLM_CALLS, usage.llm_calls)
    prov.add(run, v.PROMPT_TOKENS, usage.prompt_tokens)
    prov.add(run, v.COMPLETION_TOKENS, usage.completion_tokens)
    prov.add(run, v.CACHED_CALLS, usage.cached_calls)
    prov.add(run, v.SECONDS, float(usage.seconds))
    prov.add(run, v.RECORDED_AT, recorded_at or datetime.now(UTC))
    prov.add(run, v.TRIPLE_COUNT, len(result.triples))
    prov.add(run, v.ENTITY_COUNT, len(result.entities))
    prov.add(run, v.EVENT_COUNT, len(result.events))
    for warning in result.warnings:
        prov.add(run, v.WARNING, warning)

    for i, triple in enumerate(result.triples):
        _encode_triple(kg, prov, run, v.statement_iri(doc_id, system, i), i, triple)
    for i, entity in enumerate(result.entities):
        _encode_entity(kg, prov, run, doc_id, system, i, entity)
    for i, event in enumerate(result.events):
        _encode_event(kg, prov, run, doc_id, system, i, event)
    return kg.quads + prov.quads


def _add_span(w: QuadWriter, node: ox.NamedNode, span: Span | None, keys: SpanKeys = SPAN_KEYS) -> None:
    if span is not None:
        start, end, text = keys
        w.add(node, start, span.start)
        w.add(node, end, span.end)
        w.add(node, text, span.text)


def _add_provenance(prov: QuadWriter, node: ox.NamedNode, pv: Provenance) -> None:
    prov.add(node, v.SYSTEM, pv.system)
    prov.add(node, v.AGENT, pv.agent)
    prov.add(node, v.MODEL, pv.model)
    prov.add(node, v.PROMPT_VERSION, pv.prompt_version)
    prov.add(node, v.CONFIDENCE, None if pv.confidence is None else float(pv.confidence))
    prov.add(node, v.EVIDENCE_PAGE, pv.page)
    _add_span(prov, node, pv.evidence, EVIDENCE_KEYS)


def _describe(kg: QuadWriter, term: Term, node: ox.NamedNode | ox.Literal) -> None:
    """The KG facts about a term's node: its label, and whether the KB lacks it."""
    if not isinstance(node, ox.NamedNode):
        return
    if term.label is not None:
        kg.add(node, v.LABEL, term.label)
    if is_unlinked(node.value):
        kg.add(node, v.RDF_TYPE, ox.NamedNode(v.UNLINKED_ENTITY))
    elif is_unlinked_relation(node.value):
        kg.add(node, v.RDF_TYPE, ox.NamedNode(v.UNLINKED_RELATION))


def _encode_triple(kg: QuadWriter, prov: QuadWriter, run: ox.NamedNode, iri: str, index: int, t: Triple) -> None:
    where = f"triple {index} {t.key()}"
    if t.subject.kind != "iri" or t.predicate.kind != "iri":
        raise ResultNotStorable(f"{where}: subject and predicate must be IRIs, not literals")
    s = iri_node(t.subject.value, f"{where} subject")  # both IRIs (checked above): term_node's IRI case
    p = iri_node(t.predicate.value, f"{where} predicate")
    o = term_node(t.object, f"{where} object")
    kg.add(s, p.value, o)
    for term, node in ((t.subject, s), (t.predicate, p), (t.object, o)):
        _describe(kg, term, node)

    stmt = ox.NamedNode(iri)
    prov.add(stmt, v.RDF_TYPE, ox.NamedNode(v.RDF_STATEMENT))
    prov.add(stmt, v.RUN, run)
    prov.add(stmt, v.INDEX, index)
    prov.add(stmt, v.RDF_SUBJECT, s)
    prov.add(stmt, v.RDF_PREDICATE, p)
    prov.add(stmt, v.RDF_OBJECT, o)
    prov.add(stmt, v.SUBJECT_SURFACE, t.subject.surface)
    prov.add(stmt, v.PREDICATE_SURFACE, t.predicate.surface)
    prov.add(stmt, v.OBJECT_SURFACE, t.object.surface)
    prov.add(stmt, v.OBJECT_UNIT, t.object.unit)
    prov.add(stmt, v.SUBJECT_LABEL, t.subject.label)
    prov.add(stmt, v.PREDICATE_LABEL, t.predicate.label)
    prov.add(stmt, v.OBJECT_LABEL, t.object.label)
    _add_provenance(prov, stmt, t.provenance)


def _encode_entity(
    kg: QuadWriter, prov: QuadWriter, run: ox.NamedNode, doc_id: str, system: str, index: int, e: Entity
) -> None:
    node = iri_node(e.iri, f"entity {index}")
    if e.label is not None:
        kg.add(node, v.LABEL, e.label)
    if not e.linked:
        kg.add(node, v.RDF_TYPE, ox.NamedNode(v.UNLINKED_ENTITY))
    rec = ox.NamedNode(v.entity_record_iri(doc_id, system, index))
    prov.add(rec, v.RDF_TYPE, ox.NamedNode(v.ENTITY_RECORD))
    prov.add(rec, v.RUN, run)
    prov.add(rec, v.INDEX, index)
    prov.add(rec, v.ENTITY, node)
    prov.add(rec, v.ENTITY_LABEL, e.label)
    for type_iri in e.types:
        type_node = iri_node(type_iri, f"entity {index} type")
        kg.add(node, v.RDF_TYPE, type_node)  # a typed node of the graph, queryable without provenance
        prov.add(rec, v.ENTITY_TYPE, type_node)
    for j, mention in enumerate(e.mentions):
        m = ox.NamedNode(v.mention_iri(doc_id, system, index, j))
        prov.add(rec, v.HAS_MENTION, m)
        prov.add(m, v.RDF_TYPE, ox.NamedNode(v.MENTION))
        prov.add(m, v.INDEX, j)
        prov.add(m, v.SURFACE, mention.surface)
        _add_span(prov, m, mention.span)


def _encode_event(
    kg: QuadWriter, prov: QuadWriter, run: ox.NamedNode, doc_id: str, system: str, index: int, e: Event
) -> None:
    # The KG gets a plain typed node with its edges; the record keeps order, spans and provenance.
    where = f"event {index} {e.iri!r}"
    node = iri_node(e.iri, f"{where} node")
    type_node = iri_node(e.type, f"{where} type")
    kg.add(node, v.RDF_TYPE, ox.NamedNode(v.EVENT))
    kg.add(node, v.RDF_TYPE, type_node)
    kg.add(node, v.TRIGGER, e.trigger)
    kg.add(node, v.LABEL, e.trigger)  # what views and label lookups show for the node
    rec = ox.NamedNode(v.event_record_iri(doc_id, system, index))
    prov.add(rec, v.RDF_TYPE, ox.NamedNode(v.EVENT_RECORD))
    prov.add(rec, v.RUN, run)
    prov.add(rec, v.INDEX, index)
    prov.add(rec, v.EVENT_NODE, node)
    prov.add(rec, v.EVENT_TYPE, type_node)
    prov.add(rec, v.SURFACE, e.trigger)
    _add_span(prov, rec, e.trigger_span)
    _add_provenance(prov, rec, e.provenance)
    for j, argument in enumerate(e.arguments):
        arg = ox.NamedNode(v.argument_iri(doc_id, system, index, j))
        prov.add(rec, v.HAS_ARGUMENT, arg)
        _encode_argument(kg, prov, node, arg, j, argument, f"{where} argument {j}")


def _encode_argument(
    kg: QuadWriter, prov: QuadWriter, event: ox.NamedNode, arg: ox.NamedNode, index: int, a: EventArgument, where: str
) -> None:
    role = iri_node(a.role, f"{where} role")
    entity = term_node(a.entity, f"{where} entity")
    kg.add(event, role.value, entity)
    _describe(kg, a.entity, entity)
    prov.add(arg, v.RDF_TYPE, ox.NamedNode(v.EVENT_ARGUMENT))
    prov.add(arg, v.INDEX, index)
    prov.add(arg, v.ROLE, role)
    prov.add(arg, v.ENTITY, entity)
    prov.add(arg, v.SURFACE, a.entity.surface)
    prov.add(arg, v.ENTITY_LABEL, a.entity.label)
    _add_span(prov, arg, a.span)


# ---------------------------------------------------------------- decoding


Node = ox.NamedNode | ox.Literal | ox.BlankNode
#: why a stored subject, object or graph name has a value: the store writes no RDF-star (quoted) triple,
#: and every quad it writes is in a named graph
_STORED = "graphwright stores no quoted triple and nothing in the default graph"


def term_value(term: ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple | ox.DefaultGraph) -> str:
    """The value of a subject, an object or a graph name the store gave back."""
    assert not isinstance(term, (ox.Triple, ox.DefaultGraph)), _STORED
    return term.value


def group_by_subject(quads: Iterable[ox.Quad]) -> dict[str, dict[str, list[Node]]]:
    """``{subject IRI: {predicate IRI: [objects]}}`` for one graph's quads."""
    out: dict[str, dict[str, list[Node]]] = defaultdict(lambda: defaultdict(list))
    for q in quads:
        s, o = q.subject, q.object
        assert not isinstance(s, ox.Triple) and not isinstance(o, ox.Triple), _STORED
        out[s.value][q.predicate.value].append(o)
    return out


def read_one(props: dict[str, list[Node]], key: str) -> Node | None:
    values = props.get(key)
    return values[0] if values else None


def read_str(props: dict[str, list[Node]], key: str) -> str | None:
    node = read_one(props, key)
    return None if node is None else node.value


def read_int(props: dict[str, list[Node]], key: str) -> int | None:
    node = read_one(props, key)
    return None if node is None else int(node.value)


def read_float(props: dict[str, list[Node]], key: str) -> float | None:
    node = read_one(props, key)
    return None if node is None else float(node.value)


def _span(props: dict[str, list[Node]], keys: SpanKeys = SPAN_KEYS) -> Span | None:
    start, end = read_int(props, keys[0]), read_int(props, keys[1])
    return None if start is None or end is None else Span(start=start, end=end, text=read_str(props, keys[2]))


def _provenance(props: dict[str, list[Node]]) -> Provenance:
    return Provenance(
        evidence=_span(props, EVIDENCE_KEYS),
        system=read_str(props, v.SYSTEM) or "",
        agent=read_str(props, v.AGENT),
        model=read_str(props, v.MODEL),
        prompt_version=read_str(props, v.PROMPT_VERSION),
        confidence=read_float(props, v.CONFIDENCE),
        page=read_int(props, v.EVIDENCE_PAGE),
    )


def _types(props: dict[str, list[Node]]) -> set[str]:
    return {n.value for n in props.get(v.RDF_TYPE, [])}


def _term(node: Node, surface: str | None, label: str | None, unit: str | None = None) -> Term:
    if isinstance(node, ox.Literal):
        # RDF 1.1 gives every plain literal xsd:string; the model spells that as "no datatype".
        dt = node.datatype.value
        return Term.literal(
            node.value, datatype=None if dt == v.XSD_STRING else dt, surface=surface, lang=node.language, unit=unit
        )
    return Term.iri(node.value, surface=surface, label=label)


def decode_triples(subjects: dict[str, dict[str, list[Node]]]) -> list[Triple]:
    """The Triples of one provenance graph, in their original order."""
    rows: list[tuple[int, Triple]] = []
    for props in subjects.values():
        if v.RDF_STATEMENT not in _types(props):
            continue
        triple = Triple(
            subject=_term(
                props[v.RDF_SUBJECT][0], read_str(props, v.SUBJECT_SURFACE), read_str(props, v.SUBJECT_LABEL)
            ),
            predicate=_term(
                props[v.RDF_PREDICATE][0], read_str(props, v.PREDICATE_SURFACE), read_str(props, v.PREDICATE_LABEL)
            ),
            object=_term(
                props[v.RDF_OBJECT][0],
                read_str(props, v.OBJECT_SURFACE),
                read_str(props, v.OBJECT_LABEL),
                read_str(props, v.OBJECT_UNIT),
            ),
            provenance=_provenance(props),
        )
        rows.append((read_int(props, v.INDEX) or 0, triple))
    return [t for _, t in sorted(rows, key=lambda r: r[0])]


def decode_entities(subjects: dict[str, dict[str, list[Node]]]) -> list[Entity]:
    """The Entities of one provenance graph, in their original order (types sorted: RDF has no order)."""
    rows: list[tuple[int, Entity]] = []
    for props in subjects.values():
        if v.ENTITY_RECORD not in _types(props):
            continue
        mentions: list[tuple[int, Mention]] = []
        for m_node in props.get(v.HAS_MENTION, []):
            m = subjects.get(m_node.value, {})
            mentions.append((read_int(m, v.INDEX) or 0, Mention(surface=read_str(m, v.SURFACE) or "", span=_span(m))))
        entity = Entity(
            iri=read_str(props, v.ENTITY) or "",
            label=read_str(props, v.ENTITY_LABEL),
            types=sorted(n.value for n in props.get(v.ENTITY_TYPE, [])),
            mentions=[m for _, m in sorted(mentions, key=lambda r: r[0])],
        )
        rows.append((read_int(props, v.INDEX) or 0, entity))
    return [e for _, e in sorted(rows, key=lambda r: r[0])]


def decode_events(subjects: dict[str, dict[str, list[Node]]]) -> list[Event]:
    """The Events of one provenance graph, in their original order, each with its arguments in order."""
    rows: list[tuple[int, Event]] = []
    for props in subjects.values():
        if v.EVENT_RECORD not in _types(props):
            continue
        arguments = [_argument(subjects.get(a.value, {})) for a in props.get(v.HAS_ARGUMENT, [])]
        event = Event(
            iri=read_str(props, v.EVENT_NODE) or "",
            type=read_str(props, v.EVENT_TYPE) or "",
            trigger=read_str(props, v.SURFACE) or "",
            trigger_span=_span(props),
            arguments=[a for _, a in sorted(arguments, key=lambda r: r[0])],
            provenance=_provenance(props),
        )
        rows.append((read_int(props, v.INDEX) or 0, event))
    return [e for _, e in sorted(rows, key=lambda r: r[0])]


def _argument(props: dict[str, list[Node]]) -> tuple[int, EventArgument]:
    entity = _term(props[v.ENTITY][0], read_str(props, v.SURFACE), read_str(props, v.ENTITY_LABEL))
    return read_int(props, v.INDEX) or 0, EventArgument(
        role=read_str(props, v.ROLE) or "", entity=entity, span=_span(props)
    )


def decode_run(props: dict[str, list[Node]]) -> dict[str, Any]:
    """One run record as a plain dict (the row ``GraphStore.documents()`` returns)."""
    return {
        "document_id": read_str(props, v.DOCUMENT_ID),
        "system": read_str(props, v.SYSTEM),
        "status": read_str(props, v.STATUS),
        "reason": read_str(props, v.REASON),
        "source": read_str(props, v.SOURCE),
        "triples": read_int(props, v.TRIPLE_COUNT) or 0,
        "entities": read_int(props, v.ENTITY_COUNT) or 0,
        "events": read_int(props, v.EVENT_COUNT) or 0,
        "llm_calls": read_int(props, v.LLM_CALLS) or 0,
        "prompt_tokens": read_int(props, v.PROMPT_TOKENS) or 0,
        "completion_tokens": read_int(props, v.COMPLETION_TOKENS) or 0,
        "cached_calls": read_int(props, v.CACHED_CALLS) or 0,
        "seconds": read_float(props, v.SECONDS) or 0.0,
        "recorded_at": read_str(props, v.RECORDED_AT),
        "warnings": sorted(n.value for n in props.get(v.WARNING, [])),
    }


def is_run(props: dict[str, list[Node]]) -> bool:
    return v.DOCUMENT_RUN in _types(props)


def replace_graphs_update(
    drop: list[str], quads: list[ox.Quad], *, also: Sequence[str] = (), then: Sequence[str] = ()
) -> str:
    """One SPARQL update that drops the named graphs ``drop``, runs ``also`` (more update operations),
    inserts ``quads`` into their graphs and runs ``then``: oxigraph commits an update whole, so a kill
    leaves the store as before or as after."""
    parts = [f"DROP SILENT GRAPH <{graph}>" for graph in drop] + list(also) + [f"INSERT DATA {{ {quad_data(quads)} }}"]
    return " ;\n".join(parts + list(then))


def quad_data(quads: Iterable[ox.Quad]) -> str:
    """``quads`` (in named graphs) as the body of an INSERT DATA or DELETE DATA."""
    by_graph: dict[str, list[str]] = {}
    for q in quads:
        by_graph.setdefault(term_value(q.graph_name), []).append(f"{q.triple} .")
    return " ".join(f"GRAPH <{graph}> {{ {' '.join(lines)} }}" for graph, lines in by_graph.items())


_HELD = f'GRAPH ?g {{ ?s ?p ?o }} FILTER(STRSTARTS(STR(?g), "{v.DOC_GRAPH_PREFIX}"))'
_MERGED = f"GRAPH <{v.MERGED_KG_GRAPH}> {{ ?s ?p ?o }}"


def merged_graph_sync(triples: Iterable[ox.Triple]) -> list[str]:
    """Update operations, run after a change to the KG graphs in the same update, that leave the merged
    KG graph holding exactly those of ``triples`` (the changed ones) that some document's KG graph holds."""
    rows = " ".join(
        f"({t.subject} {t.predicate} {t.object})"
        for t in dict.fromkeys(triples)
        if not isinstance(t.subject, ox.BlankNode) and not isinstance(t.object, ox.BlankNode)
    )
    if not rows:
        return []
    values = f"VALUES (?s ?p ?o) {{ {rows} }}"
    return [
        f"DELETE {{ {_MERGED} }} WHERE {{ {values} {_MERGED} FILTER NOT EXISTS {{ {_HELD} }} }}",
        f"INSERT {{ {_MERGED} }} WHERE {{ {values} FILTER EXISTS {{ {_HELD} }} }}",
    ]


#: builds the merged KG graph of a store written before it was kept
MERGE_ALL = f"INSERT {{ {_MERGED} }} WHERE {{ {_HELD} }}"
