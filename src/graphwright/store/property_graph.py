"""The stored graph as a property graph: GraphML (Gephi, yEd, networkx) and CSV files for Neo4j's
``neo4j-admin database import``, zipped.

Built from the view's nodes and edges (``html_view.graph_data``): one node per entity (a literal per
subject and predicate), one edge per distinct triple or event role, with the evidence and provenance
that support it. Labels from text are data: networkx's XML writer escapes them in GraphML and the CSV
writer quotes them.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from typing import Any

import networkx as nx

from graphwright.store.html_view import graph_data
from graphwright.store.rdf_store import GraphStore

FORMATS = ("graphml", "neo4j")
# CSV fields hold one value; lists are joined with ';' (neo4j-admin's default array delimiter)
_SEP = ";"


def relationship_type(label: str | None, iri: str) -> str:
    """A relationship type in Neo4j's style: the predicate's label (or its IRI's last part) in UPPER_SNAKE."""
    name = label or re.split(r"[/#:]", iri.rstrip("/#"))[-1]
    return re.sub(r"\W+", "_", name).strip("_").upper() or "RELATED_TO"


def _node_key(node: dict[str, Any]) -> str:
    return node["iri"] or f"literal:{node['id']}"


def _confidence(edge: dict[str, Any]) -> float | None:
    values = [s["confidence"] for s in edge["support"] if s["confidence"] is not None]
    return max(values) if values else None


def _joined(values) -> str:
    return _SEP.join(sorted({str(v).replace(_SEP, ",") for v in values if v}))


def to_networkx(store: GraphStore, *, document_id: str | None = None, system: str | None = None) -> nx.MultiDiGraph:
    """Every stored triple and event role as a MultiDiGraph edge, with plain attributes GraphML can hold."""
    data = graph_data(store, document_id=document_id, system=system, max_edges=None)
    graph = nx.MultiDiGraph()
    keys = {}
    for node in data["nodes"]:
        keys[node["id"]] = _node_key(node)
        graph.add_node(
            keys[node["id"]],
            label=node["label"],
            kind=node["kind"],
            iri=node["iri"] or "",
            datatype=node["datatype"] or "",
            unlinked=bool(node["unlinked"]),
        )
    for edge in data["edges"]:
        support = edge["support"]
        graph.add_edge(
            keys[edge["source"]],
            keys[edge["target"]],
            key=edge["iri"],
            kind=edge["kind"],
            iri=edge["iri"],
            label=edge["label"],
            confidence=_confidence(edge) or 0.0,
            support=len(support),
            documents=_joined(s["document_id"] for s in support),
            systems=_joined(s["system"] for s in support),
            evidence=_joined(s["evidence"] for s in support),
        )
    return graph


def graphml_bytes(store: GraphStore, **where: Any) -> bytes:
    out = io.BytesIO()
    nx.write_graphml(to_networkx(store, **where), out, encoding="utf-8")
    return out.getvalue()


def neo4j_zip_bytes(store: GraphStore, **where: Any) -> bytes:
    """nodes.csv and relationships.csv with neo4j-admin import headers, in one zip file."""
    graph = to_networkx(store, **where)
    nodes, edges = io.StringIO(), io.StringIO()
    w = csv.writer(nodes)
    w.writerow(["id:ID", "name", "kind", "iri", "datatype", "linked:boolean", ":LABEL"])
    for key, attrs in sorted(graph.nodes(data=True)):
        label = "Literal" if attrs["kind"] == "literal" else "Event" if attrs["kind"] == "event" else "Entity"
        w.writerow(
            [
                key,
                attrs["label"],
                attrs["kind"],
                attrs["iri"],
                attrs["datatype"],
                str(attrs["kind"] == "iri" and not attrs["unlinked"]).lower(),
                label,
            ]
        )
    w = csv.writer(edges)
    w.writerow(
        [
            ":START_ID",
            ":END_ID",
            ":TYPE",
            "iri",
            "confidence:double",
            "support:int",
            "documents:string[]",
            "systems:string[]",
            "evidence:string[]",
        ]
    )
    for source, target, attrs in sorted(graph.edges(data=True), key=lambda e: (e[0], e[1], e[2]["iri"])):
        w.writerow(
            [
                source,
                target,
                relationship_type(attrs["label"], attrs["iri"]),
                attrs["iri"],
                f"{attrs['confidence']:.4f}",
                attrs["support"],
                attrs["documents"],
                attrs["systems"],
                attrs["evidence"],
            ]
        )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("nodes.csv", nodes.getvalue())
        archive.writestr("relationships.csv", edges.getvalue())
    return out.getvalue()
