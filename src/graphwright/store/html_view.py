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
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from graphwright.errors import UserError
from graphwright.kb.namespaces import is_unlinked, local_id
from graphwright.model import Event, Provenance, Term, Triple
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
    max_edges = float("inf") if max_edges is None else max_edges
    labels = store.labels()
    nodes: dict[tuple, dict[str, Any]] = {}
    edges: dict[tuple, dict[str, Any]] = {}
    total = total_events = 0

    def node_id(term: Term, owner: tuple) -> int:
        # One node per IRI; a literal gets its own node per (subject, predicate) so that common
        # values such as years do not become false hubs.
        key = ("iri", term.value) if term.kind == "iri" else ("literal", term.value, term.datatype, owner)
        if key not in nodes:
            nodes[key] = {
                "id": len(nodes),
                "kind": term.kind,
                "iri": term.value if term.kind == "iri" else None,
                "label": _label(term, labels),
                "datatype": term.datatype,
                "unlinked": term.kind == "iri" and is_unlinked(term.value),  # drawn apart: no KB entity fits
            }
        return nodes[key]["id"]

    both = store.triples_and_events_by_run(document_id=document_id, system=system)
    runs = [(doc_id, sys_id, triples) for doc_id, sys_id, triples, _ in both]
    event_runs = [(doc_id, sys_id, events) for doc_id, sys_id, _, events in both]
    documents = sorted({doc_id for doc_id, _, items in [*runs, *event_runs] if items})
    for doc_id, sys_id, triples in runs:
        for t in triples:
            total += 1
            key = t.key() + (t.object.kind, t.object.datatype)
            if key not in edges:
                if len(edges) >= max_edges:
                    continue
                owner = (t.subject.value, t.predicate.value)
                edges[key] = {
                    "kind": "triple",
                    "source": node_id(t.subject, owner),
                    "target": node_id(t.object, owner),
                    "iri": t.predicate.value,
                    "label": _label(t.predicate, labels),
                    "support": [],
                }
            edges[key]["support"].append(_support(doc_id, sys_id, t))

    def add_event(doc_id: str, sys_id: str, e: Event) -> None:
        # The event shares the IRI key space, so a triple about the event meets its node.
        event = node_id(Term.iri(e.iri), ())
        type_name = labels.get(e.type) or _local_name(e.type)
        nodes[("iri", e.iri)].update({
            "kind": "event", "label": f"{type_name}: {e.trigger}", "type": e.type, "type_label": type_name,
            "trigger": e.trigger, "unlinked": False,
            "support": [_provenance_support(doc_id, sys_id, e.provenance, [e.trigger])],
        })
        for a in e.arguments:
            key = ("role", e.iri, a.role, a.entity.kind, a.entity.value, a.entity.datatype)
            if key not in edges:
                edges[key] = {
                    "kind": "role",
                    "source": event,
                    "target": node_id(a.entity, (e.iri, a.role)),
                    "iri": a.role,
                    "label": labels.get(a.role) or _local_name(a.role),
                    "support": [],
                }
            surfaces = [e.trigger, a.entity.surface or ""]
            edges[key]["support"].append(_provenance_support(doc_id, sys_id, e.provenance, surfaces))

    for doc_id, sys_id, events in event_runs:
        for e in events:
            total_events += 1
            if len(edges) + max(len(e.arguments), 1) <= max_edges:
                add_event(doc_id, sys_id, e)
    return {
        "nodes": list(nodes.values()),
        "edges": list(edges.values()),
        "total_triples": total,
        "total_events": total_events,
        "documents": documents,
    }


def _label(term: Term, labels: dict[str, str]) -> str:
    if term.kind == "literal":
        return term.value
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
        "system": p.system or sys_id,
        "agent": p.agent,
        "model": p.model,
        "prompt_version": p.prompt_version,
        "confidence": p.confidence,
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
