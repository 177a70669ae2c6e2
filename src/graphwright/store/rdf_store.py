"""The embedded RDF store: extraction results in, triples, events, records and SPARQL out.

Layout (see ``store/vocab.py``): each (document, system) pair owns a KG graph and a provenance
graph; re-adding a result drops both first, so a re-run replaces exactly its own output. Every write
that changes a KG graph also brings the merged KG graph (each triple once) in step, in the same update.
Every pyoxigraph error is translated to ``StoreError`` here and chained to the original.

The store is synchronous: writes are short, and async callers may wrap them in
``asyncio.to_thread``. One on-disk store can be open in one place at a time (RocksDB lock).
"""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, TypeVar, cast
from urllib.parse import unquote

import pyoxigraph as ox

from graphwright.errors import DataNotFoundError, StoreError
from graphwright.failpoints import failpoint
from graphwright.model import Document, Entity, Event, ExtractionResult, Triple
from graphwright.store import codec
from graphwright.store import vocab as v
from graphwright.store.codec import term_value
from graphwright.store.edits import EDITS_GRAPH, apply_edits, parse_unedited, read_edits, unedited_quad
from graphwright.store.edits import RAW as RAW_PREDICATE
from graphwright.store.protocol import Status

GraphKind = Literal["doc", "prov"]
T = TypeVar("T")


@contextmanager
def translated_errors(action: str) -> Iterator[None]:
    """Re-raise pyoxigraph's errors as StoreError, saying what we were doing."""
    try:
        yield
    except SyntaxError as exc:
        raise StoreError(f"{action}: invalid SPARQL: {exc}") from exc
    except (OSError, ValueError, RuntimeError, TypeError) as exc:
        raise StoreError(f"{action}: {exc}") from exc


class GraphStore:
    """A pyoxigraph store on disk (``path``) or in memory (``path=None``).

    >>> with GraphStore.in_memory() as store:
    ...     store.count()
    0
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False) -> None:
        self.path = None if path is None else Path(path)
        self.read_only = read_only and self.path is not None
        if self.read_only:
            assert self.path is not None  # read_only holds only with a path
            self._store: ox.Store | None = _open_read_only(self.path)
            return
        with translated_errors(f"cannot open the graph store at {self.path}"):
            try:
                self._store = ox.Store(None if self.path is None else str(self.path))
            except OSError as exc:
                if "lock" in str(exc).lower():
                    raise StoreError(
                        f"the graph store at {self.path} is already open (in this or another process); "
                        "close it there first"
                    ) from exc
                raise
            if not self._store.contains_named_graph(ox.NamedNode(v.MERGED_KG_GRAPH)) and self.graphs("doc"):
                self._store.update(codec.MERGE_ALL)  # a store written before the merged graph was kept

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, create: bool = True, read_only: bool = False) -> GraphStore:
        """Open the store at ``path``, creating it (and its parent folders) if needed.

        With ``create=False`` a missing store is an error, so a mistyped path for an export or a
        view is reported instead of silently giving an empty graph. ``read_only`` (which implies
        ``create=False``) opens a store that another process may be writing: it sees what that
        process has committed so far.
        """
        target = Path(path)
        if target.exists() and not target.is_dir():
            raise StoreError(f"cannot open the graph store at {target}: it is a file, not a folder")
        if (read_only or not create) and (not target.exists() or not any(target.iterdir())):
            raise DataNotFoundError(f"no graph store at {target}; run an extraction first or pass the right --store")
        target.parent.mkdir(parents=True, exist_ok=True)
        return cls(target, read_only=read_only)

    @classmethod
    def open_for_reading(cls, path: str | os.PathLike[str]) -> GraphStore:
        """Open an existing store to read it (exports, views). A store another run is writing is opened
        read-only, which takes no lock and sees what that run has committed."""
        try:
            return cls.open(path, create=False)
        except StoreError as exc:
            if "already open" not in str(exc):
                raise
        return cls.open(path, read_only=True)

    @classmethod
    def in_memory(cls) -> GraphStore:
        return cls(None)

    # ------------------------------------------------------------ lifecycle

    @property
    def oxigraph(self) -> ox.Store:
        """The underlying pyoxigraph store (for exports); raises once closed."""
        if self._store is None:
            raise StoreError("the graph store is closed")
        return self._store

    def flush(self) -> None:
        if self._store is not None and self.path is not None and not self.read_only:
            with translated_errors("cannot flush the graph store"):
                self._store.flush()

    def close(self) -> None:
        """Flush and release the store (and its lock). Closing twice is harmless."""
        if self._store is None:
            return
        try:
            self.flush()
        finally:
            # Dropping the last reference closes RocksDB and frees the lock.
            self._store = None

    @property
    def closed(self) -> bool:
        return self._store is None

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = "memory" if self.path is None else str(self.path)
        return f"GraphStore({where}{', closed' if self.closed else ''})"

    # ------------------------------------------------------------ writing

    def add_result(self, document: Document | None, result: ExtractionResult) -> None:
        """Store one result, replacing any earlier one for the same document and system.

        A failed result is stored too (with whatever partial triples it carries) so that
        ``document_status`` reports it and nothing is lost silently.
        """
        if document is not None and document.id != result.document_id:
            raise StoreError(
                f"result is for document {result.document_id!r} but was added with document {document.id!r}"
            )
        source = document.source if document is not None else None
        self._replace(
            result,
            source,
            document.text if document is not None else None,
            document.metadata if document is not None else None,
        )

    def record_failure(self, document_id: str, system: str, reason: str, source: str | None = None) -> None:
        """Record that ``system`` failed on a document, replacing earlier output for the pair."""
        self._replace(ExtractionResult.failed(document_id, system, reason), source)

    def _replace(
        self,
        result: ExtractionResult,
        source: str | None,
        text: str | None = None,
        metadata: dict[str, str] | None = None,
    ) -> None:
        # Encode (and so validate) everything before touching the store; the user's edits hold for a rerun.
        quads = self._edited(v.run_iri(result.document_id, result.system), codec.encode_result(result, source))
        if text:  # the text its facts came from, kept once per document (the passages `ask` reads)
            graph = ox.NamedNode(v.text_graph(result.document_id))
            quads.append(
                ox.Quad(
                    ox.NamedNode(v.document_iri(result.document_id)),
                    ox.NamedNode(v.DOCUMENT_TEXT),
                    ox.Literal(text),
                    graph,
                )
            )
            if metadata:  # a PDF's pages, so a re-extraction still knows them
                quads.append(
                    ox.Quad(
                        ox.NamedNode(v.document_iri(result.document_id)),
                        ox.NamedNode(v.DOCUMENT_METADATA),
                        ox.Literal(json.dumps(metadata)),
                        graph,
                    )
                )
        drop = [v.prov_graph(result.document_id, result.system), v.doc_graph(result.document_id, result.system)]
        failpoint("store.writing")
        # One update holding the run record: a kill leaves the run as before or as after (a resumed batch
        # redoes a document with no status instead of trusting half of it).
        with translated_errors(f"cannot store document {result.document_id!r}"):
            self.oxigraph.update(
                self._replace_update(
                    result.document_id,
                    [result.system],
                    drop + ([v.text_graph(result.document_id)] if text else []),
                    quads,
                )
            )
        failpoint("store.written")

    def _replace_update(self, document_id: str, systems: list[str], drop: list[str], quads: list[ox.Quad]) -> str:
        """The update that drops ``drop`` (and the systems' unedited runs), inserts ``quads``, and keeps the
        merged KG graph in step with the KG graphs it changes."""
        changed = [
            q.triple
            for g in drop
            if g.startswith(v.DOC_GRAPH_PREFIX)
            for q in self.oxigraph.quads_for_pattern(None, None, None, ox.NamedNode(g))
        ]
        changed += [q.triple for q in quads if term_value(q.graph_name).startswith(v.DOC_GRAPH_PREFIX)]
        unedited = [
            f"DELETE WHERE {{ GRAPH <{EDITS_GRAPH}> {{ <{v.run_iri(document_id, s)}> <{RAW_PREDICATE}> ?x }} }}"
            for s in systems
        ]
        return codec.replace_graphs_update(drop, quads, also=unedited, then=codec.merged_graph_sync(changed))

    def _edited(self, run: str, quads: list[ox.Quad]) -> list[ox.Quad]:
        """The run's quads with the active edits applied; where they change it, its unedited quads go beside
        the edits (in the same write) so that undoing one rebuilds the run."""
        active = [e for e in read_edits(self.oxigraph) if not e.undone]
        edited = apply_edits(quads, active) if active else quads
        return edited + [unedited_quad(run, quads)] if set(edited) != set(quads) else edited

    def run_quads(self, document_id: str, system: str) -> list[ox.Quad]:
        """A run's quads as stored (its knowledge graph and provenance graphs)."""
        graphs = [ox.NamedNode(v.doc_graph(document_id, system)), ox.NamedNode(v.prov_graph(document_id, system))]
        return list(self.quads(graphs))

    def unedited_quads(self, document_id: str, system: str) -> list[ox.Quad] | None:
        """A run's quads as its system wrote them, where an edit changed it; else None."""
        run = ox.NamedNode(v.run_iri(document_id, system))
        for quad in self.oxigraph.quads_for_pattern(run, ox.NamedNode(RAW_PREDICATE), None, ox.NamedNode(EDITS_GRAPH)):
            return parse_unedited(term_value(quad.object))
        return None

    def rewrite_runs(
        self, runs: Iterable[tuple[str, str, list[ox.Quad], list[ox.Quad] | None]], *, also: Sequence[str] = ()
    ) -> None:
        """Replace each ``(document_id, system, quads, unedited)`` run's graphs with ``quads``, keeping
        ``unedited`` beside the edits (None: drop it), and run ``also`` (more update operations): all in one
        SPARQL update, which oxigraph commits whole, so a kill leaves the store as before or as after."""
        parts = []
        for document_id, system, quads, unedited in runs:
            run = v.run_iri(document_id, system)
            quads = quads + ([unedited_quad(run, unedited)] if unedited is not None else [])
            parts.append(
                self._replace_update(
                    document_id, [system], [v.prov_graph(document_id, system), v.doc_graph(document_id, system)], quads
                )
            )
        with translated_errors("cannot rewrite the stored runs"):
            self.oxigraph.update(" ;\n".join(parts + list(also)))

    def remove_document(self, document_id: str, system: str | None = None, *, also: Sequence[str] = ()) -> int:
        """Delete a document's output (for one system, or all), and run ``also`` (more update operations),
        in one update; returns how many runs were removed. With no system's output left, its text goes too."""
        every = self.graphs("prov", document_id=document_id)  # one listing of the named graphs serves both
        runs = [run for run in every if system is None or run[2] == system]
        systems = [sys_id for _, _, sys_id in runs]
        drop = [g for s in systems for g in (v.prov_graph(document_id, s), v.doc_graph(document_id, s))]
        if len(runs) == len(every):
            drop.append(v.text_graph(document_id))
        with translated_errors(f"cannot remove document {document_id!r}"):
            self.oxigraph.update(" ;\n".join([self._replace_update(document_id, systems, drop, []), *also]))
        return len(runs)

    def document_metadata(self, document_id: str) -> dict[str, str]:
        """What was kept with the document's text (a PDF's pages); {} when nothing."""
        with translated_errors("cannot read the document's metadata"):
            for quad in self.oxigraph.quads_for_pattern(
                ox.NamedNode(v.document_iri(document_id)),
                ox.NamedNode(v.DOCUMENT_METADATA),
                None,
                ox.NamedNode(v.text_graph(document_id)),
            ):
                return json.loads(term_value(quad.object))
        return {}

    def document_texts(self, document_ids: Iterable[str] | None = None) -> dict[str, str]:
        """The stored text of each document (of ``document_ids``; None: all) that has one. Texts are kept
        from the time the store began to keep them; a document extracted earlier has none until rerun."""
        wanted = None if document_ids is None else set(document_ids)
        out: dict[str, str] = {}
        predicate = ox.NamedNode(v.DOCUMENT_TEXT)
        with translated_errors("cannot read the document texts"):
            if wanted is None:
                quads = self.oxigraph.quads_for_pattern(None, predicate, None, None)
            else:
                quads = (
                    q
                    for d in sorted(wanted)
                    for q in self.oxigraph.quads_for_pattern(
                        ox.NamedNode(v.document_iri(d)), predicate, None, ox.NamedNode(v.text_graph(d))
                    )
                )
            for quad in quads:
                graph = quad.graph_name.value if isinstance(quad.graph_name, ox.NamedNode) else ""
                if graph.startswith(v.TEXT_GRAPH_PREFIX):
                    out[unquote(graph[len(v.TEXT_GRAPH_PREFIX) :])] = term_value(quad.object)
        return out

    # ------------------------------------------------------------ reading

    def graphs(
        self, kind: GraphKind = "doc", *, document_id: str | None = None, system: str | None = None
    ) -> list[tuple[ox.NamedNode, str, str]]:
        """``(graph, document_id, system)`` for this store's graphs of one kind, sorted."""
        out = []
        with translated_errors("cannot list graphs"):
            names = list(self.oxigraph.named_graphs())
        for graph in names:
            if not isinstance(graph, ox.NamedNode):
                continue
            parsed = v.parse_graph(graph.value)
            if parsed is None or parsed[0] != kind:
                continue
            _, doc_id, sys_id = parsed
            if (document_id is None or doc_id == document_id) and (system is None or sys_id == system):
                out.append((graph, doc_id, sys_id))
        return sorted(out, key=lambda row: (row[1], row[2]))

    def quads(self, graphs: list[ox.NamedNode]) -> Iterator[ox.Quad]:
        for graph in graphs:
            with translated_errors("cannot read the graph store"):
                yield from self.oxigraph.quads_for_pattern(None, None, None, graph)

    def _prov_subjects(self, document_id: str | None, system: str | None) -> Iterator[dict]:
        for graph, _, _ in self.graphs("prov", document_id=document_id, system=system):
            yield codec.group_by_subject(self.quads([graph]))

    def document_status(self, document_id: str, system: str) -> Status | None:
        """``"ok"`` or ``"failed"`` for the last stored run of ``system`` on the document, else None."""
        run = ox.NamedNode(v.run_iri(document_id, system))
        graph = ox.NamedNode(v.prov_graph(document_id, system))
        with translated_errors("cannot read a document status"):
            for quad in self.oxigraph.quads_for_pattern(run, ox.NamedNode(v.STATUS), None, graph):
                return cast(Status, term_value(quad.object))  # the run record holds the result's status
        return None

    def triples(self, document_id: str | None = None, system: str | None = None) -> list[Triple]:
        """The stored triples with their provenance, by document, system, then original order."""
        return [t for _, _, triples in self.triples_by_run(document_id, system) for t in triples]

    def triples_by_run(
        self, document_id: str | None = None, system: str | None = None
    ) -> list[tuple[str, str, list[Triple]]]:
        """``(document_id, system, triples)`` per stored run: triples with the run they came from."""
        return self._by_run(codec.decode_triples, document_id, system)

    def events(self, document_id: str | None = None, system: str | None = None) -> list[Event]:
        """The stored events (with their arguments), by document, system, then original order."""
        return [e for _, _, events in self.events_by_run(document_id, system) for e in events]

    def events_by_run(
        self, document_id: str | None = None, system: str | None = None
    ) -> list[tuple[str, str, list[Event]]]:
        """``(document_id, system, events)`` per stored run."""
        return self._by_run(codec.decode_events, document_id, system)

    def triples_and_events_by_run(
        self, document_id: str | None = None, system: str | None = None
    ) -> list[tuple[str, str, list[Triple], list[Event]]]:
        """``(document_id, system, triples, events)`` per stored run, each provenance graph read once
        (reading it is most of the cost)."""
        out = []
        for graph, doc_id, sys_id in self.graphs("prov", document_id=document_id, system=system):
            subjects = codec.group_by_subject(self.quads([graph]))
            out.append((doc_id, sys_id, codec.decode_triples(subjects), codec.decode_events(subjects)))
        return out

    def _by_run(
        self, decode: Callable[[dict], list[T]], document_id: str | None, system: str | None
    ) -> list[tuple[str, str, list[T]]]:
        out = []
        for graph, doc_id, sys_id in self.graphs("prov", document_id=document_id, system=system):
            out.append((doc_id, sys_id, decode(codec.group_by_subject(self.quads([graph])))))
        return out

    def entities(self, document_id: str | None = None, system: str | None = None) -> list[Entity]:
        """The stored entities (with mentions), by document, system, then original order."""
        return [e for subjects in self._prov_subjects(document_id, system) for e in codec.decode_entities(subjects)]

    def documents(self, document_ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """One record per stored run (of ``document_ids``; None: all): id, system, status, reason, source,
        counts (triples, entities, events), usage, time."""
        wanted = None if document_ids is None else set(document_ids)
        rows = []
        for graph, doc_id, sys_id in self.graphs("prov"):  # only each run's own record, not its statements
            if wanted is not None and doc_id not in wanted:
                continue
            with translated_errors("cannot read the documents"):
                run = ox.NamedNode(v.run_iri(doc_id, sys_id))
                props = codec.group_by_subject(self.oxigraph.quads_for_pattern(run, None, None, graph)).get(run.value)
            if props and codec.is_run(props):
                rows.append(codec.decode_run(props))
        return sorted(rows, key=lambda r: (r["document_id"] or "", r["system"] or ""))

    def sources(self, document_ids: Iterable[str] | None = None) -> dict[str, str]:
        """Where each stored document (of ``document_ids``; None: all) came from, its file or URL, by id;
        a document given as text alone has none and is left out."""
        return {run["document_id"]: run["source"] for run in self.documents(document_ids) if run.get("source")}

    def labels(self, document_id: str | None = None) -> dict[str, str]:
        """``{IRI: label}`` from the KG graphs; where sources disagree, the smallest label wins (stable)."""
        out: dict[str, str] = {}
        label = ox.NamedNode(v.LABEL)
        merged = ox.NamedNode(v.MERGED_KG_GRAPH)
        every = document_id is None and self.oxigraph.contains_named_graph(merged)
        # every document's labels are in the merged graph: one read, not one per run
        graphs = [merged] if every else [g for g, _, _ in self.graphs("doc", document_id=document_id)]
        for graph in graphs:
            with translated_errors("cannot read labels"):
                for quad in self.oxigraph.quads_for_pattern(None, label, None, graph):
                    iri, text = term_value(quad.subject), term_value(quad.object)
                    if iri not in out or text < out[iri]:
                        out[iri] = text
        return out

    def count(self, document_id: str | None = None, system: str | None = None) -> int:
        """How many triples are stored (one per result triple, so ``len(triples())``)."""
        n = 0
        rdf_type, statement = ox.NamedNode(v.RDF_TYPE), ox.NamedNode(v.RDF_STATEMENT)
        for graph, _, _ in self.graphs("prov", document_id=document_id, system=system):
            with translated_errors("cannot count triples"):
                n += sum(1 for _ in self.oxigraph.quads_for_pattern(None, rdf_type, statement, graph))
        return n

    def has_grown_graph(self) -> bool:
        """Whether `graph merge` has grown a graph in this store."""
        with translated_errors("cannot read the graph store"):
            return self.oxigraph.contains_named_graph(ox.NamedNode(v.GROWN_KG_GRAPH))

    def raw_query(self, sparql: str, *, union: bool = True, grown: bool = False) -> Any:
        """pyoxigraph's own answer to ``sparql`` over the default graph ``query`` reads, for a caller that
        serializes it (the SPARQL protocol); its errors are pyoxigraph's."""
        kw: dict[str, Any] = {"prefixes": v.PREFIXES}
        merged = ox.NamedNode(v.MERGED_KG_GRAPH)
        has_merged = self.oxigraph.contains_named_graph(merged)
        if has_merged:  # GRAPH ?g reaches every graph but this copy: a fact is found once per run stating it
            kw["named_graphs"] = [g for g in self.oxigraph.named_graphs() if g != merged]
        if grown:
            kw["default_graph"] = [ox.NamedNode(v.GROWN_KG_GRAPH)]
        elif union:  # a store written before the merged graph was kept, open read-only: a row per graph
            kw["default_graph"] = [merged] if has_merged else [g for g, _, _ in self.graphs("doc")]
        return self.oxigraph.query(sparql, **kw)

    def query(
        self, sparql: str, *, union: bool = True, grown: bool = False, max_rows: int | None = None
    ) -> list[dict[str, Any]]:
        """Run a SPARQL query; rows map variable names to values (IRI or lexical form; None if unbound).

        With ``union`` the default graph is every KG graph merged (a triple two runs state is one row), so
        plain patterns see the knowledge graph; ``GRAPH ?g { ... }`` reaches every run's graphs, provenance
        included. The prefixes of ``vocab.PREFIXES`` (wd, wdt, rdfs, gw, ...) are predeclared. ASK gives ``[{"ask": bool}]``;
        CONSTRUCT/DESCRIBE give ``subject``/``predicate``/``object`` rows. With ``grown`` the default graph is
        the graph grown over the documents (``graph merge``). ``max_rows`` stops reading the answer there.
        Never format untrusted text into ``sparql``: see ``graphwright.sparql`` for escaping helpers.
        """
        with translated_errors("query failed"):
            result = self.raw_query(sparql, union=union, grown=grown)
            if isinstance(result, ox.QueryBoolean):
                return [{"ask": bool(result)}]
            if isinstance(result, ox.QueryTriples):
                return [
                    {"subject": _value(t.subject), "predicate": _value(t.predicate), "object": _value(t.object)}
                    for t in itertools.islice(result, max_rows)
                ]
            names = [var.value for var in result.variables]
            return [{name: _value(solution[name]) for name in names} for solution in itertools.islice(result, max_rows)]


def _open_read_only(path: Path, attempts: int = 5) -> ox.Store:
    """RocksDB's read-only mode beside a writer: the writer may delete a file (a flush, a compaction)
    between the reader reading the file list and opening the file; a new try sees the new list."""
    for attempt in range(attempts):
        try:
            return ox.Store.read_only(str(path))
        except (OSError, RuntimeError) as exc:
            last = exc
            time.sleep(0.1 * (attempt + 1))
    raise StoreError(
        f"cannot read the graph store at {path} while another run writes it ({last}); "
        "try again, or when that run has finished"
    ) from last


def _value(node: Any) -> str | None:
    if node is None:
        return None
    if isinstance(node, ox.BlankNode):
        return f"_:{node.value}"
    return node.value
