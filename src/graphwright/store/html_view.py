"""A self-contained HTML page that draws the stored graph and shows each triple's evidence.

Events are nodes of their own (kind ``event``, labelled "<type>: <trigger>") with one edge (kind
``role``) per argument; triples are edges of kind ``triple``.

The page makes no network requests (inline CSS and JS, and a CSP that forbids any fetch).
Graph data travels as JSON in ``<script type="application/json">``; ``<``, ``>`` and ``&`` are
written as ``\\u003c``-style escapes and all non-ASCII as ``\\uXXXX``, so no label can close the
script element, open a comment, or end a line (U+2028/2029). The page's JS writes data with
``textContent`` only.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Callable
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from graphwright.errors import UserError
from graphwright.kb.namespaces import is_unlinked, is_unlinked_relation, local_id
from graphwright.model import Event, EventArgument, Provenance, Term, Triple
from graphwright.store.rdf_store import GraphStore

EMPTY_MESSAGE = "No triples or events stored yet: run an extraction first, then render the view again."
_PLACEHOLDER = re.compile(r"__GW_(TITLE|DATA|EMPTY|EMPTY_HIDDEN)__")


def json_for_script(data: Any) -> str:
    """JSON that is inert inside an HTML ``<script>`` element and still parses back to ``data``."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    # ensure_ascii already escapes U+2028/2029; these three are the HTML-significant ones.
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def graph_data(
    store: GraphStore, *, document_id: str | None = None, system: str | None = None, max_edges: int | None = 1500
) -> dict[str, Any]:
    """Nodes and edges for the view; an edge merges the same triple from several runs.

    ``max_edges`` bounds triple and role edges together (None: no bound); an event is drawn whole or left out.
    """
    builder = GraphBuilder(store.labels(), max_edges)
    runs = store.triples_and_events_by_run(document_id=document_id, system=system)
    for doc_id, sys_id, triples, _ in runs:  # every triple first: the bound keeps triples before events
        builder.add_triples(doc_id, sys_id, triples)
    for doc_id, sys_id, _, events in runs:
        builder.add_events(doc_id, sys_id, events)
    return builder.data()


class GraphBuilder:
    """The view's nodes and edges, built run by run; a run can be taken out again (the web app's graph
    browser follows the store that way, one changed run at a time)."""

    def __init__(self, labels: dict[str, str], max_edges: int | None = None) -> None:
        self.labels = labels
        self.max_edges = float("inf") if max_edges is None else max_edges
        self.nodes: dict[tuple, dict[str, Any]] = {}
        self.edges: dict[tuple, dict[str, Any]] = {}
        self._edge_ids = 0
        self._supports: dict[tuple[str, str], list[tuple[tuple, dict]]] = {}  # run -> (edge key, its support)
        self._counts: dict[tuple[str, str], list[int]] = {}  # run -> [triples, events]

    def node_id(self, term: Term, owner: tuple) -> int:
        # One node per IRI; a literal gets its own node per (subject, predicate) so that common
        # values such as years do not become false hubs.
        key = ("iri", term.value) if term.kind == "iri" else ("literal", term.value, term.datatype, term.unit, owner)
        if key not in self.nodes:
            self.nodes[key] = {
                "id": len(self.nodes),
                "kind": term.kind,
                "iri": term.value if term.kind == "iri" else None,
                "label": _label(term, self.labels),
                "datatype": term.datatype,
                "unlinked": term.kind == "iri" and is_unlinked(term.value),  # drawn apart: no KB entity fits
            }
        return self.nodes[key]["id"]

    def _support(
        self, run: tuple[str, str], key: tuple, make_edge: Callable[[], dict[str, Any]], support: dict[str, Any]
    ) -> None:
        if key not in self.edges:
            if len(self.edges) >= self.max_edges:
                return
            self.edges[key] = {**make_edge(), "id": self._edge_ids, "support": []}
            self._edge_ids += 1
        self.edges[key]["support"].append(support)
        self._supports.setdefault(run, []).append((key, support))

    def add_triples(self, doc_id: str, sys_id: str, triples: list[Triple]) -> None:
        run = (doc_id, sys_id)
        self._counts.setdefault(run, [0, 0])[0] += len(triples)
        for t in triples:
            self._support(
                run,
                t.key() + (t.object.kind, t.object.datatype),
                partial(self._triple_edge, t),
                _support(doc_id, sys_id, t),
            )

    def _triple_edge(self, t: Triple) -> dict[str, Any]:
        owner = (t.subject.value, t.predicate.value)
        return {
            "kind": "triple",
            "source": self.node_id(t.subject, owner),
            "target": self.node_id(t.object, owner),
            "iri": t.predicate.value,
            "label": _label(t.predicate, self.labels),
            "unlinked": is_unlinked_relation(t.predicate.value),  # drawn dashed: no KB property fits
        }

    def add_events(self, doc_id: str, sys_id: str, events: list[Event]) -> None:
        run = (doc_id, sys_id)
        self._counts.setdefault(run, [0, 0])[1] += len(events)
        for e in events:
            if len(self.edges) + max(len(e.arguments), 1) > self.max_edges:
                continue
            # The event shares the IRI key space, so a triple about the event meets its node.
            event = self.node_id(Term.iri(e.iri), ())
            type_name = self.labels.get(e.type) or _local_name(e.type)
            self.nodes[("iri", e.iri)].update(
                {
                    "kind": "event",
                    "label": f"{type_name}: {e.trigger}",
                    "type": e.type,
                    "type_label": type_name,
                    "trigger": e.trigger,
                    "unlinked": False,
                    "support": [_provenance_support(doc_id, sys_id, e.provenance, [e.trigger])],
                }
            )
            for a in e.arguments:
                self._support(
                    run,
                    ("role", e.iri, a.role, a.entity.kind, a.entity.value, a.entity.datatype),
                    partial(self._role_edge, event, e, a),
                    _provenance_support(doc_id, sys_id, e.provenance, [e.trigger, a.entity.surface or ""]),
                )

    def _role_edge(self, event: int, e: Event, a: EventArgument) -> dict[str, Any]:
        return {
            "kind": "role",
            "source": event,
            "target": self.node_id(a.entity, (e.iri, a.role)),
            "iri": a.role,
            "label": self.labels.get(a.role) or _local_name(a.role),
        }

    def remove_run(self, doc_id: str, sys_id: str) -> None:
        """Take out what one run supports; an edge no run supports any more goes (its nodes stay, unused)."""
        self._counts.pop((doc_id, sys_id), None)
        for key, support in self._supports.pop((doc_id, sys_id), []):
            edge = self.edges.get(key)
            if edge is None:
                continue
            edge["support"] = [s for s in edge["support"] if s is not support]
            if not edge["support"]:
                del self.edges[key]

    def data(self) -> dict[str, Any]:
        return {
            "nodes": list(self.nodes.values()),
            "edges": list(self.edges.values()),
            "total_triples": sum(c[0] for c in self._counts.values()),
            "total_events": sum(c[1] for c in self._counts.values()),
            "documents": sorted({doc_id for (doc_id, _), c in self._counts.items() if any(c)}),
        }


def _label(term: Term, labels: dict[str, str]) -> str:
    if term.kind == "literal":
        return f"{term.value} {term.unit}" if term.unit else term.value
    return term.label or labels.get(term.value) or local_id(term.value)


def _local_name(iri: str) -> str:
    """The last path segment of a schema IRI (``.../event/Acquisition`` -> ``Acquisition``), unquoted."""
    name = unquote(re.split(r"[/#]", iri.rstrip("/"))[-1])
    return name or local_id(iri)


def _support(doc_id: str, sys_id: str, t: Triple) -> dict[str, Any]:
    surfaces = [t.subject.surface, t.predicate.surface, t.object.surface]
    return _provenance_support(doc_id, sys_id, t.provenance, surfaces)


def _provenance_support(doc_id: str, sys_id: str, p: Provenance, surfaces: list[str | None]) -> dict[str, Any]:
    return {
        "document_id": doc_id,
        "system": sys_id,  # the run's system, as the jobs and filters name it (provenance may add a version)
        "agent": p.agent,
        "model": p.model,
        "prompt_version": p.prompt_version,
        "confidence": p.confidence,
        "page": p.page,
        "evidence": p.evidence.text if p.evidence else None,
        "evidence_start": p.evidence.start if p.evidence else None,
        "evidence_end": p.evidence.end if p.evidence else None,
        "surfaces": [s for s in surfaces if s],
    }


def _template() -> str:
    return resources.files("graphwright.store").joinpath("view.html").read_text(encoding="utf-8")


def render_html(
    store: GraphStore,
    *,
    document_id: str | None = None,
    system: str | None = None,
    title: str = "graphwright",
    max_edges: int = 1500,
) -> str:
    """The whole page as a string. ``max_edges`` bounds the drawing (the page says when it is cut)."""
    data = graph_data(store, document_id=document_id, system=system, max_edges=max_edges)
    data["title"] = title
    empty = not data["nodes"]
    values = {
        "TITLE": html.escape(title),
        "DATA": json_for_script(data),
        "EMPTY": html.escape(EMPTY_MESSAGE),
        "EMPTY_HIDDEN": "" if empty else "hidden",
    }
    # One pass, so a substituted value can never be re-read as a placeholder.
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], _template())


def write_html(
    store: GraphStore,
    path: str | os.PathLike[str],
    *,
    document_id: str | None = None,
    system: str | None = None,
    title: str = "graphwright",
    max_edges: int = 1500,
) -> Path:
    """Render the page and write it to ``path`` (UTF-8); returns the path."""
    page = render_html(store, document_id=document_id, system=system, title=title, max_edges=max_edges)
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write the HTML view to {target}: {exc}") from exc
    return target
