"""The graph browser's data: the whole stored graph read once per store change, then filtered in memory.

The page never draws everything: it asks for the best-supported edges that pass its filters (at most
``limit``) and then expands a node's neighbourhood on demand, so a graph of 10,000 edges stays usable.
Node and edge ids are the view's numbers (``n12``, ``e40``), stable until the store changes.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

from graphwright.sparql import sparql_iri
from graphwright.store import GraphStore
from graphwright.store import vocab as v
from graphwright.store.html_view import GraphBuilder


@dataclass(frozen=True)
class Filters:
    document: str | None = None
    system: str | None = None
    type: str | None = None  # a node type IRI: edges touching a node of that type
    min_confidence: float | None = None
    search: str | None = None  # text in a node's or an edge's label

    def support(self, support: list[dict]) -> list[dict]:
        """The supports of an edge that pass the document, system and confidence filters. A support its
        system gave no confidence is not judged by confidence (it would vanish at any threshold)."""
        return [
            s
            for s in support
            if (self.document is None or s["document_id"] == self.document)
            and (self.system is None or s["system"] == self.system)
            and (self.min_confidence is None or s["confidence"] is None or s["confidence"] >= self.min_confidence)
        ]


# an event node also has its type, trigger and the evidence of its record
_NODE_FIELDS = ("label", "kind", "iri", "datatype", "unlinked", "types", "type", "type_label", "trigger", "support")


class GraphIndex:
    """The graph read from the store once, then kept up to date one changed run at a time.

    ``changes`` is the runner's list of the (document, system) runs it stored, in order; a version is
    a length of that list, so the runs between two versions are the ones to read again.
    """

    def __init__(self, store: GraphStore, changes: list[tuple[str, str]]) -> None:
        self.store, self.changes = store, changes
        self._lock = threading.Lock()
        self._version = -1
        self._builder: GraphBuilder | None = None
        self._types: dict[str, set[str]] = {}
        self._data: dict[str, Any] = {}

    def reset(self) -> None:
        """Read the whole graph again at the next request (an edit renamed or merged across runs)."""
        with self._lock:
            self._builder = None

    def data(self, version: int) -> dict[str, Any]:
        """The whole graph with node types and each node's edges, as of ``version``."""
        with self._lock:
            if self._builder is None:
                self._builder = GraphBuilder(self.store.labels())
                for doc_id, sys_id, triples, _ in (runs := self.store.triples_and_events_by_run()):
                    self._builder.add_triples(doc_id, sys_id, triples)
                for doc_id, sys_id, _, events in runs:
                    self._builder.add_events(doc_id, sys_id, events)
                self._types = _node_types(self.store)
            elif version != self._version:
                for run in dict.fromkeys(self.changes[self._version : version]):
                    self._read_again(*run)
            else:
                return self._data
            self._version = version
            self._data = self._derive()
            return self._data

    def _read_again(self, doc_id: str, sys_id: str) -> None:
        builder = self._builder
        assert builder is not None  # data() reads the whole graph before it reads runs again
        builder.remove_run(doc_id, sys_id)
        for iri, label in self.store.labels(document_id=doc_id).items():
            builder.labels.setdefault(iri, label)
        for _, _, triples, events in self.store.triples_and_events_by_run(document_id=doc_id, system=sys_id):
            builder.add_triples(doc_id, sys_id, triples)
            builder.add_events(doc_id, sys_id, events)
        for iri, types in _node_types(self.store, v.doc_graph(doc_id, sys_id)).items():
            self._types.setdefault(iri, set()).update(types)

    def _derive(self) -> dict[str, Any]:
        """Types, adjacency and facets over the builder's nodes and edges (milliseconds at 10,000 edges)."""
        builder = self._builder
        assert builder is not None  # data() builds it first
        data = builder.data()
        types, labels = self._types, builder.labels
        nodes = {}
        for node in data["nodes"]:
            node["types"] = sorted(types.get(node["iri"], ())) if node["iri"] else []
            nodes[node["id"]] = node
        data["nodes"] = nodes
        data["type_labels"] = {t: labels.get(t) or t.rsplit("/", 1)[-1] for ts in types.values() for t in ts}
        adjacent: dict[int, list[int]] = {}  # node id -> ids of its edges
        data["adjacent"] = adjacent
        for edge in data["edges"]:
            adjacent.setdefault(edge["source"], []).append(edge["id"])
            adjacent.setdefault(edge["target"], []).append(edge["id"])
        data["edges"] = {edge["id"]: edge for edge in data["edges"]}
        data["systems"] = sorted({s["system"] for e in data["edges"].values() for s in e["support"]})
        return data

    def select(self, version: int, filters: Filters, limit: int) -> dict[str, Any]:
        """The best-supported edges passing ``filters`` (most supports first, then most confident)."""
        data = self.data(version)
        nodes = data["nodes"]
        needle = (filters.search or "").casefold()
        chosen = []
        for edge in data["edges"].values():
            support = filters.support(edge["support"])
            if not support:
                continue
            ends = (nodes[edge["source"]], nodes[edge["target"]])
            if filters.type and not any(filters.type in n["types"] or n.get("type") == filters.type for n in ends):
                continue
            if (
                needle
                and needle not in edge["label"].casefold()
                and not any(needle in n["label"].casefold() for n in ends)
            ):
                continue
            chosen.append((edge, support))
        chosen.sort(key=lambda es: (-len(es[1]), -max((s["confidence"] or 0) for s in es[1]), es[0]["id"]))
        return self._elements(data, chosen[:limit], total=len(chosen))

    def neighbourhood(self, version: int, node_id: int, filters: Filters, limit: int) -> dict[str, Any]:
        """The edges at ``node_id`` that pass the filters' document, system and confidence."""
        data = self.data(version)
        if node_id not in data["nodes"]:
            raise KeyError(node_id)
        chosen = [
            (data["edges"][i], filters.support(data["edges"][i]["support"])) for i in data["adjacent"].get(node_id, [])
        ]
        chosen = [es for es in chosen if es[1]]
        return self._elements(data, chosen[:limit], total=len(chosen))

    def facets(self, version: int) -> dict[str, Any]:
        data = self.data(version)
        names = self.store.sources()
        shared = {n for n, count in Counter(names.values()).items() if count > 1}
        documents = [
            {"iri": d, "label": (f"{names[d]} ({d})" if names[d] in shared else names[d]) if d in names else d}
            for d in data["documents"]
        ]
        return {
            "documents": sorted(documents, key=lambda d: (d["label"].casefold(), d["iri"])),
            "systems": data["systems"],
            "types": sorted(
                ({"iri": t, "label": label} for t, label in data["type_labels"].items() if not t.startswith(v.GW)),
                key=lambda t: t["label"].casefold(),
            ),
            "total_triples": data["total_triples"],
            "total_events": data["total_events"],
            "edges": len(data["edges"]),
            "nodes": len(data["adjacent"]),
        }

    @staticmethod
    def _elements(data: dict[str, Any], chosen: list[tuple[dict, list[dict]]], total: int) -> dict[str, Any]:
        nodes = data["nodes"]
        used = sorted({i for edge, _ in chosen for i in (edge["source"], edge["target"])})
        return {
            "nodes": [
                {
                    **{k: nodes[i][k] for k in _NODE_FIELDS if k in nodes[i]},
                    "id": f"n{i}",
                    "degree": len(data["adjacent"].get(i, ())),
                }
                for i in used
            ],
            "edges": [
                {
                    "id": f"e{edge['id']}",
                    "source": f"n{edge['source']}",
                    "target": f"n{edge['target']}",
                    "kind": edge["kind"],
                    "iri": edge["iri"],
                    "label": edge["label"],
                    "unlinked": edge.get("unlinked", False),
                    "support": support,
                }
                for edge, support in chosen
            ],
            "total": total,
        }


def _node_types(store: GraphStore, graph: str | None = None) -> dict[str, set[str]]:
    """Each node's types over every document's graph, or over one graph: its ``rdf:type``s (entity
    records) and the classes the graph says it is an instance of (Wikidata's P31, as `facts` and
    cie.* write it)."""
    out: dict[str, set[str]] = {}
    pattern = "{ ?s a ?t } UNION { ?s wdt:P31 ?t FILTER(isIRI(?t)) }"
    where = f"GRAPH {sparql_iri(graph)} {{ {pattern} }}" if graph else pattern
    for row in store.query(f"SELECT DISTINCT ?s ?t WHERE {{ {where} }}"):
        out.setdefault(row["s"], set()).add(row["t"])
    return out
