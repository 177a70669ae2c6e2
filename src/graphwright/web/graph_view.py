"""The graph browser's data: the whole stored graph read once per store change, then filtered in memory.

The page never draws everything: it asks for the best-supported edges that pass its filters (at most
``limit``) and then expands a node's neighbourhood on demand, so a graph of 10,000 edges stays usable.
Node and edge ids are the view's numbers (``n12``, ``e40``), stable until the store changes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from graphwright.store import GraphStore
from graphwright.store import vocab as v
from graphwright.store.html_view import graph_data


@dataclass(frozen=True)
class Filters:
    document: str | None = None
    system: str | None = None
    type: str | None = None  # a node type IRI: edges touching a node of that type
    min_confidence: float | None = None
    search: str | None = None  # text in a node's or an edge's label

    def support(self, support: list[dict]) -> list[dict]:
        """The supports of an edge that pass the document, system and confidence filters."""
        return [s for s in support
                if (self.document is None or s["document_id"] == self.document)
                and (self.system is None or s["system"] == self.system)
                and (self.min_confidence is None or (s["confidence"] is not None and s["confidence"] >= self.min_confidence))]


# an event node also has its type, trigger and the evidence of its record
_NODE_FIELDS = ("label", "kind", "iri", "datatype", "unlinked", "types", "type", "type_label", "trigger", "support")


class GraphIndex:
    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._version = -1
        self._data: dict[str, Any] = {}

    def data(self, version: int) -> dict[str, Any]:
        """The whole graph with node types and each node's edges, rebuilt when ``version`` moved."""
        with self._lock:
            if version != self._version:
                data = graph_data(self.store, max_edges=None)
                types = _node_types(self.store)
                labels = self.store.labels()
                for node in data["nodes"]:
                    node["types"] = sorted(types.get(node["iri"], ())) if node["iri"] else []
                data["type_labels"] = {t: labels.get(t) or t.rsplit("/", 1)[-1] for ts in types.values() for t in ts}
                data["adjacent"] = adjacent = {n["id"]: [] for n in data["nodes"]}
                for i, edge in enumerate(data["edges"]):
                    edge["id"] = i
                    adjacent[edge["source"]].append(i)
                    adjacent[edge["target"]].append(i)
                data["systems"] = sorted({s["system"] for e in data["edges"] for s in e["support"]})
                self._data, self._version = data, version
            return self._data

    def select(self, version: int, filters: Filters, limit: int) -> dict[str, Any]:
        """The best-supported edges passing ``filters`` (most supports first, then most confident)."""
        data = self.data(version)
        nodes = data["nodes"]
        needle = (filters.search or "").casefold()
        chosen = []
        for edge in data["edges"]:
            support = filters.support(edge["support"])
            if not support:
                continue
            ends = (nodes[edge["source"]], nodes[edge["target"]])
            if filters.type and not any(filters.type in n["types"] or n.get("type") == filters.type for n in ends):
                continue
            if needle and needle not in edge["label"].casefold() and not any(needle in n["label"].casefold() for n in ends):
                continue
            chosen.append((edge, support))
        chosen.sort(key=lambda es: (-len(es[1]), -max((s["confidence"] or 0) for s in es[1]), es[0]["id"]))
        return self._elements(data, chosen[:limit], total=len(chosen))

    def neighbourhood(self, version: int, node_id: int, filters: Filters, limit: int) -> dict[str, Any]:
        """The edges at ``node_id`` that pass the filters' document, system and confidence."""
        data = self.data(version)
        if node_id not in data["adjacent"]:
            raise KeyError(node_id)
        chosen = [(data["edges"][i], filters.support(data["edges"][i]["support"])) for i in data["adjacent"][node_id]]
        chosen = [es for es in chosen if es[1]]
        return self._elements(data, chosen[:limit], total=len(chosen))

    def facets(self, version: int) -> dict[str, Any]:
        data = self.data(version)
        return {"documents": data["documents"], "systems": data["systems"],
                "types": sorted(({"iri": t, "label": label} for t, label in data["type_labels"].items()
                                 if not t.startswith(v.GW)), key=lambda t: t["label"].casefold()),
                "total_triples": data["total_triples"], "total_events": data["total_events"],
                "edges": len(data["edges"]), "nodes": len(data["nodes"])}

    @staticmethod
    def _elements(data: dict[str, Any], chosen: list[tuple[dict, list[dict]]], total: int) -> dict[str, Any]:
        nodes = data["nodes"]
        used = sorted({i for edge, _ in chosen for i in (edge["source"], edge["target"])})
        return {
            "nodes": [{**{k: nodes[i][k] for k in _NODE_FIELDS if k in nodes[i]},
                       "id": f"n{i}", "degree": len(data["adjacent"][i])} for i in used],
            "edges": [{"id": f"e{edge['id']}", "source": f"n{edge['source']}", "target": f"n{edge['target']}",
                       "kind": edge["kind"], "iri": edge["iri"], "label": edge["label"], "support": support}
                      for edge, support in chosen],
            "total": total,
        }


def _node_types(store: GraphStore) -> dict[str, set[str]]:
    """Each node's ``rdf:type``s over every document's graph."""
    out: dict[str, set[str]] = {}
    for row in store.query("SELECT DISTINCT ?s ?t WHERE { ?s a ?t }"):
        out.setdefault(row["s"], set()).add(row["t"])
    return out
