"""The growing graph <-> the store.

Three kinds of named graph, beside the per-document ones:

* ``urn:graphwright:grown:kg``: the plain grown KG: promoted edges between resolved entities, their labels
  and types, and ``owl:sameAs`` from each merged IRI to its node. SPARQL users query this one.
* ``urn:graphwright:grown:state``: everything else, as records: entities with aliases and times, edges
  (promoted and staged) with confidence, votes and evidence, merges, the schema allow-list and its log,
  episodes, snapshots and the runs already folded in.
* ``urn:graphwright:grown:snapshot:<id>``: a copy of the grown KG as it was when the snapshot was taken.

``save`` replaces the KG and state graphs in one SPARQL update, which pyoxigraph applies as one
transaction: a crash leaves the previous state, never half of the new one.
"""

from __future__ import annotations

import hashlib
import json
from typing import cast
from urllib.parse import quote

import pyoxigraph as ox

from graphwright.growth.state import (
    Edge,
    EdgeStatus,
    EpisodeRecord,
    Evidence,
    GrowthState,
    Merge,
    MergeMethod,
    Node,
    SchemaChange,
    SchemaKind,
    Snapshot,
    Value,
)
from graphwright.store import vocab as v
from graphwright.store.codec import (
    QuadWriter,
    group_by_subject,
    iri_node,
    read_float,
    read_int,
    read_one,
    read_str,
    replace_graphs_update,
)
from graphwright.store.rdf_store import GraphStore, translated_errors

_URN = v.GROWN_PREFIX
KG_GRAPH = v.GROWN_KG_GRAPH
STATE_GRAPH = v.GROWN_STATE_GRAPH
SNAPSHOT_PREFIX = _URN + "snapshot:"
SCHEMA_NODE = _URN + "schema"

GW = v.GW
GROWN_ENTITY, GROWN_EDGE, MERGE, SCHEMA_CHANGE, EPISODE, SNAPSHOT, MERGED_RUN, TYPE_CANDIDATE = (
    GW + name
    for name in (
        "GrownEntity",
        "GrownEdge",
        "Merge",
        "SchemaChange",
        "Episode",
        "Snapshot",
        "MergedRun",
        "TypeCandidate",
    )
)
(
    ALIAS,
    LINKED,
    CREATED_AT,
    LAST_SEEN,
    FIRST_EPISODE,
    LAST_EPISODE,
    SOURCE_DOCUMENT,
    EDGE_STATUS,
    OBSERVED,
    STAGED_BECAUSE,
    EVIDENCE,
    MERGED_FROM,
    MERGED_INTO,
    METHOD,
    SCORE,
    EPISODE_NUMBER,
    ALLOWS_RELATION,
    ALLOWS_TYPE,
    SCHEMA_VERSION,
    KIND,
    TERM,
    DOCUMENTS,
    COUNTS,
    METRICS,
    SNAPSHOT_ID,
    NOTE,
    NODES,
    EDGES,
) = (
    GW + name
    for name in (
        "alias",
        "linked",
        "createdAt",
        "lastSeen",
        "firstEpisode",
        "lastEpisode",
        "sourceDocument",
        "edgeStatus",
        "observedConfidence",
        "stagedBecause",
        "evidence",
        "mergedFrom",
        "mergedInto",
        "method",
        "score",
        "episode",
        "allowsRelation",
        "allowsEntityType",
        "schemaVersion",
        "kind",
        "term",
        "documents",
        "counts",
        "metrics",
        "snapshotId",
        "note",
        "nodes",
        "edges",
    )
)
OWL_SAME_AS = v.OWL + "sameAs"


def snapshot_graph(sid: str) -> str:
    return SNAPSHOT_PREFIX + quote(sid, safe="")


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:24]


def edge_iri(edge: Edge) -> str:
    o = edge.object
    return f"{_URN}edge:{_digest(edge.subject, edge.predicate, o.kind, o.value, o.datatype or '', o.lang or '')}"


def value_node(value: Value) -> ox.NamedNode | ox.Literal:
    if value.kind == "iri":
        return iri_node(value.value)
    if value.lang:
        return ox.Literal(value.value, language=value.lang)
    return ox.Literal(value.value, datatype=None if value.datatype is None else iri_node(value.datatype))


def _value(node: ox.NamedNode | ox.Literal | ox.BlankNode) -> Value:
    if isinstance(node, ox.Literal):
        dt = node.datatype.value
        return Value("literal", node.value, None if dt == v.XSD_STRING or node.language else dt, node.language)
    return Value("iri", node.value)


# ------------------------------------------------------------------ encoding


def kg_quads(state: GrowthState, graph: str = KG_GRAPH) -> list[ox.Quad]:
    """The plain grown KG: what a snapshot copies and SPARQL users read."""
    kg = QuadWriter(graph)
    for node in state.nodes.values():
        subject = iri_node(node.iri)
        kg.add(subject, v.LABEL, node.label)
        for t in sorted(node.types):
            kg.add(subject, v.RDF_TYPE, iri_node(t))
        if not node.linked:
            kg.add(subject, v.RDF_TYPE, ox.NamedNode(v.UNLINKED_ENTITY))
    for edge in state.promoted():
        kg.add(iri_node(edge.subject), edge.predicate, value_node(edge.object))
    for source in state.redirects:
        target = state.canonical(source)
        if target in state.nodes:  # a node aged out keeps its merge records, not its sameAs links
            kg.add(iri_node(source), OWL_SAME_AS, iri_node(target))
    return kg.quads


def state_quads(state: GrowthState) -> list[ox.Quad]:
    w = QuadWriter(STATE_GRAPH)
    node = ox.NamedNode
    value: object  # the records below write values of every kind (QuadWriter.add takes any)
    for n in state.nodes.values():
        s = iri_node(n.iri)
        w.add(s, v.RDF_TYPE, node(GROWN_ENTITY))
        for key, value in (
            (v.ENTITY_LABEL, n.label),
            (LINKED, str(n.linked).lower()),
            (CREATED_AT, n.created_at),
            (LAST_SEEN, n.last_seen),
            (FIRST_EPISODE, n.first_episode),
            (LAST_EPISODE, n.last_episode),
        ):
            w.add(s, key, value)
        for alias in sorted(n.aliases):
            w.add(s, ALIAS, alias)
        for t in sorted(n.types):
            w.add(s, v.ENTITY_TYPE, iri_node(t))
        for doc in sorted(n.sources):
            w.add(s, SOURCE_DOCUMENT, doc)
    for e in state.edges.values():
        s = node(edge_iri(e))
        w.add(s, v.RDF_TYPE, node(GROWN_EDGE))
        w.add(s, v.RDF_SUBJECT, iri_node(e.subject))
        w.add(s, v.RDF_PREDICATE, iri_node(e.predicate))
        w.add(s, v.RDF_OBJECT, value_node(e.object))
        for key, value in (
            (EDGE_STATUS, e.status),
            (v.CONFIDENCE, float(e.confidence)),
            (OBSERVED, float(e.observed)),
            (CREATED_AT, e.created_at),
            (LAST_SEEN, e.last_seen),
            (FIRST_EPISODE, e.first_episode),
            (LAST_EPISODE, e.last_episode),
            (v.PREDICATE_LABEL, e.predicate_label),
            (STAGED_BECAUSE, e.reason),
        ):
            w.add(s, key, value)
        for doc in sorted(e.sources):
            w.add(s, SOURCE_DOCUMENT, doc)
        for i, ev in enumerate(e.evidence):
            record = node(f"{s.value}:evidence:{i}")
            w.add(s, EVIDENCE, record)
            for key, value in (
                (v.INDEX, i),
                (v.DOCUMENT_ID, ev.document_id),
                (v.EVIDENCE_TEXT, ev.text),
                (v.SYSTEM, ev.system),
            ):
                w.add(record, key, value)
    for i, m in enumerate(state.merges):
        s = node(f"{_URN}merge:{i}")
        w.add(s, v.RDF_TYPE, node(MERGE))
        for key, value in (
            (v.INDEX, i),
            (MERGED_FROM, iri_node(m.source)),
            (MERGED_INTO, iri_node(m.target)),
            (METHOD, m.method),
            (SCORE, float(m.score)),
            (v.ENTITY_LABEL, m.label),
            (v.DOCUMENT_ID, m.document_id),
            (EPISODE_NUMBER, m.episode),
            (v.RECORDED_AT, m.recorded_at),
        ):
            w.add(s, key, value)
    schema = node(SCHEMA_NODE)
    w.add(schema, SCHEMA_VERSION, state.schema_version)
    for r in sorted(state.allowed_relations):
        w.add(schema, ALLOWS_RELATION, iri_node(r))
    for t in sorted(state.allowed_types):
        w.add(schema, ALLOWS_TYPE, iri_node(t))
    for i, c in enumerate(state.schema_log):
        s = node(f"{_URN}schema-change:{i}")
        w.add(s, v.RDF_TYPE, node(SCHEMA_CHANGE))
        for key, value in (
            (v.INDEX, i),
            (SCHEMA_VERSION, c.version),
            (KIND, c.kind),
            (TERM, iri_node(c.term)),
            (v.ENTITY_LABEL, c.label),
            (v.REASON, c.reason),
            (EPISODE_NUMBER, c.episode),
            (v.RECORDED_AT, c.recorded_at),
        ):
            w.add(s, key, value)
    for t, docs in sorted(state.type_sources.items()):
        s = node(f"{_URN}type-candidate:{_digest(t)}")
        w.add(s, v.RDF_TYPE, node(TYPE_CANDIDATE))
        w.add(s, TERM, iri_node(t))
        for doc in sorted(docs):
            w.add(s, SOURCE_DOCUMENT, doc)
    for ep in state.episodes:
        s = node(f"{_URN}episode:{ep.number}")
        w.add(s, v.RDF_TYPE, node(EPISODE))
        for key, value in (
            (EPISODE_NUMBER, ep.number),
            (v.RECORDED_AT, ep.recorded_at),
            (DOCUMENTS, ep.documents),
            (COUNTS, json.dumps(ep.counts, sort_keys=True)),
            (METRICS, json.dumps(ep.metrics, sort_keys=True)),
            (SNAPSHOT_ID, ep.snapshot),
        ):
            w.add(s, key, value)
    for snap in state.snapshots:
        s = node(f"{_URN}snapshot-record:{quote(snap.sid, safe='')}")
        w.add(s, v.RDF_TYPE, node(SNAPSHOT))
        for key, value in (
            (SNAPSHOT_ID, snap.sid),
            (CREATED_AT, snap.created_at),
            (EPISODE_NUMBER, snap.episode),
            (NOTE, snap.note),
            (NODES, snap.nodes),
            (EDGES, snap.edges),
        ):
            w.add(s, key, value)
    for (doc, system), recorded in sorted(state.merged_runs.items()):
        s = node(f"{_URN}merged-run:{quote(doc, safe='')}:{quote(system, safe='')}")
        w.add(s, v.RDF_TYPE, node(MERGED_RUN))
        for key, value in ((v.DOCUMENT_ID, doc), (v.SYSTEM, system), (v.RECORDED_AT, recorded)):
            w.add(s, key, value)
    return w.quads


# ------------------------------------------------------------------ decoding


def decode(subjects: dict) -> GrowthState:
    state = GrowthState()
    by_type: dict[str, list[tuple[str, dict]]] = {}
    for subject, props in subjects.items():
        for t in props.get(v.RDF_TYPE, []):
            by_type.setdefault(t.value, []).append((subject, props))

    def values(props: dict, key: str) -> set[str]:
        return {n.value for n in props.get(key, [])}

    for iri, p in by_type.get(GROWN_ENTITY, []):
        state.nodes[iri] = Node(
            iri=iri,
            label=read_str(p, v.ENTITY_LABEL) or iri,
            linked=read_str(p, LINKED) == "true",
            created_at=read_str(p, CREATED_AT) or "",
            last_seen=read_str(p, LAST_SEEN) or "",
            first_episode=read_int(p, FIRST_EPISODE) or 0,
            last_episode=read_int(p, LAST_EPISODE) or 0,
            aliases=values(p, ALIAS),
            types=values(p, v.ENTITY_TYPE),
            sources=values(p, SOURCE_DOCUMENT),
        )
    # a string read back is one state_quads wrote from its field: of the field's type (cast below)
    for _, p in by_type.get(GROWN_EDGE, []):
        evidence = sorted((subjects[n.value] for n in p.get(EVIDENCE, [])), key=lambda r: read_int(r, v.INDEX) or 0)
        obj = read_one(p, v.RDF_OBJECT)
        assert obj is not None  # state_quads writes every edge's object
        edge = Edge(
            subject=read_str(p, v.RDF_SUBJECT) or "",
            predicate=read_str(p, v.RDF_PREDICATE) or "",
            object=_value(obj),
            status=cast(EdgeStatus, read_str(p, EDGE_STATUS) or "pending"),
            confidence=read_float(p, v.CONFIDENCE) or 0.0,
            observed=read_float(p, OBSERVED) or 0.0,
            created_at=read_str(p, CREATED_AT) or "",
            last_seen=read_str(p, LAST_SEEN) or "",
            first_episode=read_int(p, FIRST_EPISODE) or 0,
            last_episode=read_int(p, LAST_EPISODE) or 0,
            predicate_label=read_str(p, v.PREDICATE_LABEL),
            reason=read_str(p, STAGED_BECAUSE),
            sources=values(p, SOURCE_DOCUMENT),
            evidence=[
                Evidence(
                    read_str(r, v.DOCUMENT_ID) or "", read_str(r, v.EVIDENCE_TEXT) or "", read_str(r, v.SYSTEM) or ""
                )
                for r in evidence
            ],
        )
        state.edges[edge.key] = edge
    for _, p in sorted(by_type.get(MERGE, []), key=lambda row: read_int(row[1], v.INDEX) or 0):
        merge = Merge(
            source=read_str(p, MERGED_FROM) or "",
            target=read_str(p, MERGED_INTO) or "",
            method=cast(MergeMethod, read_str(p, METHOD) or "alias"),
            score=read_float(p, SCORE) or 0.0,
            label=read_str(p, v.ENTITY_LABEL) or "",
            document_id=read_str(p, v.DOCUMENT_ID) or "",
            episode=read_int(p, EPISODE_NUMBER) or 0,
            recorded_at=read_str(p, v.RECORDED_AT) or "",
        )
        state.merges.append(merge)
        state.redirects[merge.source] = merge.target
    schema = subjects.get(SCHEMA_NODE, {})
    state.schema_version = read_int(schema, SCHEMA_VERSION) or 0
    state.allowed_relations = values(schema, ALLOWS_RELATION)
    state.allowed_types = values(schema, ALLOWS_TYPE)
    for _, p in sorted(by_type.get(SCHEMA_CHANGE, []), key=lambda row: read_int(row[1], v.INDEX) or 0):
        state.schema_log.append(
            SchemaChange(
                version=read_int(p, SCHEMA_VERSION) or 0,
                kind=cast(SchemaKind, read_str(p, KIND) or "relation"),
                term=read_str(p, TERM) or "",
                label=read_str(p, v.ENTITY_LABEL),
                reason=read_str(p, v.REASON) or "",
                episode=read_int(p, EPISODE_NUMBER) or 0,
                recorded_at=read_str(p, v.RECORDED_AT) or "",
            )
        )
    for _, p in by_type.get(TYPE_CANDIDATE, []):
        state.type_sources[read_str(p, TERM) or ""] = values(p, SOURCE_DOCUMENT)
    for _, p in by_type.get(EPISODE, []):
        state.episodes.append(
            EpisodeRecord(
                number=read_int(p, EPISODE_NUMBER) or 0,
                recorded_at=read_str(p, v.RECORDED_AT) or "",
                documents=read_int(p, DOCUMENTS) or 0,
                counts=json.loads(read_str(p, COUNTS) or "{}"),
                metrics=json.loads(read_str(p, METRICS) or "{}"),
                snapshot=read_str(p, SNAPSHOT_ID),
            )
        )
    state.episodes.sort(key=lambda ep: ep.number)
    for _, p in by_type.get(SNAPSHOT, []):
        state.snapshots.append(
            Snapshot(
                sid=read_str(p, SNAPSHOT_ID) or "",
                created_at=read_str(p, CREATED_AT) or "",
                episode=read_int(p, EPISODE_NUMBER) or 0,
                note=read_str(p, NOTE) or "",
                nodes=read_int(p, NODES) or 0,
                edges=read_int(p, EDGES) or 0,
            )
        )
    state.snapshots.sort(key=lambda s: (s.created_at, s.sid))
    for _, p in by_type.get(MERGED_RUN, []):
        state.merged_runs[(read_str(p, v.DOCUMENT_ID) or "", read_str(p, v.SYSTEM) or "")] = (
            read_str(p, v.RECORDED_AT) or ""
        )
    return state


# ------------------------------------------------------------------ the store


def load(store: GraphStore) -> GrowthState:
    """The grown graph kept in ``store`` (empty before the first merge)."""
    with translated_errors("cannot read the grown graph"):
        quads = list(store.oxigraph.quads_for_pattern(None, None, None, ox.NamedNode(STATE_GRAPH)))
    return decode(group_by_subject(quads))


def save(store: GraphStore, state: GrowthState, *, snapshot: str | None = None) -> None:
    """Replace the grown graph in one transaction; ``snapshot`` also writes a copy of the KG under that id."""
    with translated_errors("cannot save the grown graph"):
        store.oxigraph.update(save_update(state, snapshot=snapshot))


def save_update(state: GrowthState, *, snapshot: str | None = None) -> str:
    """The SPARQL update ``save`` runs, for a caller that commits it with other changes."""
    graphs, quads = [KG_GRAPH, STATE_GRAPH], kg_quads(state) + state_quads(state)
    if snapshot is not None:
        graphs.append(snapshot_graph(snapshot))
        quads += kg_quads(state, snapshot_graph(snapshot))
    return replace_graphs_update(graphs, quads)


def drop(store: GraphStore) -> None:
    """Remove the grown graph, its records and its snapshots (the per-document graphs stay)."""
    with translated_errors("cannot drop the grown graph"):
        for graph in list(store.oxigraph.named_graphs()):
            if isinstance(graph, ox.NamedNode) and graph.value.startswith(_URN):
                store.oxigraph.remove_graph(graph)


def snapshot_quads(store: GraphStore, sid: str) -> list[ox.Quad]:
    with translated_errors("cannot read a snapshot"):
        return list(store.oxigraph.quads_for_pattern(None, None, None, ox.NamedNode(snapshot_graph(sid))))
