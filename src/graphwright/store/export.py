"""Write the stored graph as Turtle, N-Triples, JSON-LD, N-Quads or TriG.

Triple formats (turtle, ntriples, jsonld) get one plain KG: the union of the KG graphs,
deduplicated, with labels and the event nodes (``a gw:Event``, ``gw:trigger``, one edge per role);
``include_provenance`` adds the reified statements, entity and event records and run records.
Quad formats (nquads, trig) keep the named graphs, so the dataset can be loaded back as is.
pyoxigraph's serializers do all escaping: labels from text are written as data, never code.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import IO

import pyoxigraph as ox

from graphwright.errors import StoreError, UnknownNameError, UserError
from graphwright.store import vocab as v
from graphwright.store.rdf_store import GraphStore

FORMATS: dict[str, ox.RdfFormat] = {
    "turtle": ox.RdfFormat.TURTLE,
    "ntriples": ox.RdfFormat.N_TRIPLES,
    "jsonld": ox.RdfFormat.JSON_LD,
    "nquads": ox.RdfFormat.N_QUADS,
    "trig": ox.RdfFormat.TRIG,
}
# property graphs (store/property_graph.py): edges carry their evidence, so --provenance adds nothing
PROPERTY_FORMATS = ("graphml", "neo4j")
ALL_FORMATS = [*FORMATS, *PROPERTY_FORMATS]
QUAD_FORMATS = frozenset({"nquads", "trig"})
_LINE_FORMATS = frozenset({"ntriples", "nquads"})
# UTF-8 of the C1 controls U+0080-U+009F (U+0085 is NEXT LINE) and of U+2028/U+2029.
_RAW_BREAKS = re.compile(rb"\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]")
EXTENSIONS = {
    ".ttl": "turtle",
    ".turtle": "turtle",
    ".nt": "ntriples",
    ".jsonld": "jsonld",
    ".json": "jsonld",
    ".nq": "nquads",
    ".trig": "trig",
    ".graphml": "graphml",
    ".zip": "neo4j",
}
_ALIASES = {
    "ttl": "turtle",
    "nt": "ntriples",
    "n-triples": "ntriples",
    "json-ld": "jsonld",
    "nq": "nquads",
    "n-quads": "nquads",
}
EXPORT_PREFIXES = {k: v.PREFIXES[k] for k in ("wd", "wdt", "rdf", "rdfs", "xsd", "gw", "gwe")}


def resolve_format(fmt: str | None, target: object = None) -> str:
    """The canonical format name from ``fmt``, else from the file extension of ``target``."""
    if fmt is not None:
        name = _ALIASES.get(fmt.lower(), fmt.lower())
        if name not in ALL_FORMATS:
            raise UnknownNameError("export format", fmt, ALL_FORMATS)
        return name
    path = target if isinstance(target, (str, os.PathLike)) else getattr(target, "name", None)
    suffix = Path(path).suffix.lower() if isinstance(path, (str, os.PathLike)) else ""
    if suffix not in EXTENSIONS:
        raise UserError(
            f"cannot tell the export format from {str(path or 'the stream')!r}; pass fmt= one of "
            f"{', '.join(ALL_FORMATS)} or use an extension {', '.join(EXTENSIONS)}"
        )
    return EXTENSIONS[suffix]


def serialize_graph(
    store: GraphStore,
    fmt: str,
    *,
    document_id: str | None = None,
    system: str | None = None,
    include_provenance: bool = False,
    grown: bool = False,
) -> bytes:
    """The export as bytes (see ``export_graph``)."""
    name = resolve_format(fmt)
    if name in PROPERTY_FORMATS:
        return _property_graph(store, name, document_id, system, grown)
    if grown:
        graphs = [ox.NamedNode(v.GROWN_KG_GRAPH)] + ([ox.NamedNode(v.GROWN_STATE_GRAPH)] if include_provenance else [])
    else:
        graphs = [g for g, _, _ in store.graphs("doc", document_id=document_id, system=system)]
        if include_provenance:
            graphs += [g for g, _, _ in store.graphs("prov", document_id=document_id, system=system)]
    try:
        data: list[ox.Quad] | list[ox.Triple]
        if name in QUAD_FORMATS:
            data = sorted(store.quads(graphs), key=_quad_key)
        else:
            # Same triple from several documents or systems: written once.
            data = sorted({q.triple for q in store.quads(graphs)}, key=_triple_key)
        out = ox.serialize(data, format=FORMATS[name], prefixes=EXPORT_PREFIXES)
        assert out is not None  # with no output given, serialize returns the bytes
    except (OSError, ValueError, TypeError) as exc:
        raise StoreError(f"cannot export as {name}: {exc}") from exc
    if name in _LINE_FORMATS:
        # The writer escapes C0 controls but leaves C1 controls and U+2028/U+2029 raw (valid N-Triples);
        # line readers such as str.splitlines() break lines at U+0085/U+2028/U+2029, so they are
        # written as \u escapes and each statement stays one line. Such characters can only stand in
        # literals or IRIs, and both take \u escapes.
        out = _RAW_BREAKS.sub(lambda m: b"\\u%04X" % ord(m.group().decode("utf-8")), out)
    return out


def export_graph(
    store: GraphStore,
    path_or_stream: str | os.PathLike[str] | IO[bytes] | IO[str],
    fmt: str | None = None,
    *,
    document_id: str | None = None,
    system: str | None = None,
    include_provenance: bool = False,
    grown: bool = False,
) -> int:
    """Write the graph to a file path or an open (binary or text) stream; returns bytes written.

    ``fmt`` is one of turtle, ntriples, jsonld, nquads, trig, graphml or neo4j (a zip of CSV files for
    neo4j-admin import); when None it comes from the file
    extension. ``document_id``/``system`` restrict the export to those runs; ``grown`` exports the graph
    grown over the documents instead (with ``include_provenance``, its records too).
    """
    name = resolve_format(fmt, path_or_stream)
    data = serialize_graph(
        store, name, document_id=document_id, system=system, include_provenance=include_provenance, grown=grown
    )
    if isinstance(path_or_stream, (str, os.PathLike)):
        path = Path(path_or_stream)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as exc:
            raise UserError(f"cannot write the export to {path}: {exc}") from exc
    elif isinstance(path_or_stream, io.TextIOBase):
        path_or_stream.write(data.decode("utf-8"))
    else:
        path_or_stream.write(data)  # type: ignore[arg-type]
    return len(data)


def _property_graph(store: GraphStore, name: str, document_id: str | None, system: str | None, grown: bool) -> bytes:
    from graphwright.store import property_graph  # networkx, loaded only for these formats

    if grown:
        raise UserError(f"the grown graph is not exported as {name}: use `graphwright graph neo4j` for it")
    write = property_graph.graphml_bytes if name == "graphml" else property_graph.neo4j_zip_bytes
    return write(store, document_id=document_id, system=system)


def _term_key(term: object) -> tuple[str, str]:
    return (type(term).__name__, str(term))


def _triple_key(t: ox.Triple) -> tuple:
    # Sorted by subject so the Turtle writer groups each subject's triples in one block.
    return (_term_key(t.subject), _term_key(t.predicate), _term_key(t.object))


def _quad_key(q: ox.Quad) -> tuple:
    return (str(q.graph_name), *_triple_key(q.triple))
