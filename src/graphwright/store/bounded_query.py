"""Read-only SPARQL with a time limit and a size limit, for queries a user types into the web app.

pyoxigraph cannot interrupt a query, and a query that joins every triple with every other runs for
hours; in the server's own process it would hold a core and its memory until it ended. So such
queries run in a child process, which is killed when the time limit passes (and started again for
the next query). The child opens the store read-only beside the server, which writes it, and opens it
again when the caller says the store has changed, so it sees every result stored before the query.
"""

from __future__ import annotations

import multiprocessing
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from graphwright.errors import StoreError

# the server runs threads, and a forked child could inherit a lock one of them held
_CONTEXT = multiprocessing.get_context("spawn")
_READY = "ready"
_START_SECONDS = 60


class QueryTimeout(StoreError):
    """The query ran past the time limit and was stopped."""


class AnswerTooLarge(StoreError):
    """The answer is larger than the size limit allows."""

    @classmethod
    def over(cls, limit: int) -> AnswerTooLarge:
        return cls(f"the answer is over {limit / 1024 / 1024:g} MB; add a LIMIT")


@dataclass(frozen=True)
class Rows:
    rows: list[dict[str, Any]]
    truncated: bool  # more rows matched than ``max_rows``


@dataclass(frozen=True)
class Serialized:
    body: bytes
    media_type: str


class BoundedQueries:
    """Queries over the store at ``path``, each stopped after ``seconds``; one at a time (a lock), so one
    user's long query makes the next wait, never run beside it."""

    def __init__(
        self, path: Path, *, seconds: float = 30.0, max_rows: int = 10_000, max_bytes: int = 50 * 1024 * 1024
    ) -> None:
        self.path, self.seconds, self.max_rows, self.max_bytes = Path(path), seconds, max_rows, max_bytes
        self._lock = threading.Lock()
        self._child: Any = None
        self._conn: Any = None

    def rows(self, sparql: str, *, version: int, grown: bool = False) -> Rows:
        """``GraphStore.query``'s rows, at most ``max_rows`` of them. ``version`` names the store's state:
        a new one makes the child open the store again."""
        found = self._ask(("rows", sparql, grown, self.max_rows + 1, ""), version)
        return Rows(found[: self.max_rows], len(found) > self.max_rows)

    def serialized(self, sparql: str, *, version: int, accept: str = "") -> Serialized:
        """The SPARQL protocol's answer over every document's KG, in the format ``accept`` (an HTTP Accept
        header) prefers among those this endpoint writes: SELECT and ASK as SPARQL JSON, XML, CSV or TSV
        results (JSON by default), CONSTRUCT and DESCRIBE as N-Triples, Turtle or RDF/XML (N-Triples)."""
        body, media_type = self._ask(("serialized", sparql, False, self.max_bytes, accept), version)
        return Serialized(body, media_type)

    def close(self) -> None:
        with self._lock:
            self._stop()

    def __enter__(self) -> BoundedQueries:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ask(self, request: tuple, version: int) -> Any:
        with self._lock:
            if self._child is None or not self._child.is_alive():
                self._start()
            self._conn.send((version, *request))
            if not self._conn.poll(self.seconds):
                self._stop()  # the only way to end a pyoxigraph query
                raise QueryTimeout(
                    f"the query ran past the {self.seconds:g} s limit and was stopped; "
                    "narrow its patterns or add a LIMIT"
                )
            try:
                outcome, value = self._conn.recv()
            except EOFError:  # the child died (out of memory, killed)
                self._stop()
                raise StoreError(
                    "the query stopped the process that ran it (out of memory?); narrow its patterns or add a LIMIT"
                ) from None
        if outcome == "ok":
            return value
        raise value if isinstance(value, StoreError) else StoreError(value)

    def _start(self) -> None:
        self._conn, theirs = _CONTEXT.Pipe()
        self._child = _CONTEXT.Process(
            target=_serve, args=(theirs, str(self.path)), daemon=True, name="graphwright-sparql"
        )
        self._child.start()
        theirs.close()
        # starting Python and its imports takes seconds on a busy machine: not the query's time
        try:
            ready = self._conn.poll(_START_SECONDS) and self._conn.recv() == _READY
        except EOFError:  # it died on the way (a broken install)
            ready = False
        if not ready:
            self._stop()
            raise StoreError(f"the SPARQL process did not start within {_START_SECONDS} s")

    def _stop(self) -> None:
        if self._child is not None:
            self._child.kill()
            self._child.join(5)
            self._conn.close()
        self._child = self._conn = None


def _serve(conn, path: str) -> None:
    """The child: answers requests until the pipe closes, with the store opened at the version asked."""
    from graphwright.store.rdf_store import GraphStore  # the child imports only what queries need

    conn.send(_READY)
    store, opened = None, None
    answer: tuple[str, list[dict[str, Any]] | tuple[bytes, str] | StoreError | str]  # rows, bytes, or an error
    while True:
        try:
            version, kind, sparql, grown, limit, accept = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if store is None or version != opened:
                if store is not None:
                    store.close()
                store, opened = GraphStore.open(path, read_only=True), version
            if kind == "rows":
                answer = ("ok", store.query(sparql, grown=grown, max_rows=limit))
            else:
                answer = ("ok", _serialize(store, sparql, limit, accept))
        except StoreError as exc:  # pickled whole, so the caller raises the same kind
            answer = ("error", exc)
        except Exception as exc:  # any other goes back as its message
            answer = ("error", str(exc))
        conn.send(answer)


class _CappedBuffer:
    """A writable file that refuses to grow past ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit, self.size = limit, 0
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.size += len(data)
        if self.size > self.limit:
            raise AnswerTooLarge.over(self.limit)
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass


# media type -> what pyoxigraph writes, best first: the first of each kind is the default
RESULT_FORMATS = {
    "application/sparql-results+json": ox.QueryResultsFormat.JSON,
    "application/json": ox.QueryResultsFormat.JSON,
    "application/sparql-results+xml": ox.QueryResultsFormat.XML,
    "application/xml": ox.QueryResultsFormat.XML,
    "text/csv": ox.QueryResultsFormat.CSV,
    "text/tab-separated-values": ox.QueryResultsFormat.TSV,
}
GRAPH_FORMATS = {
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
}


def negotiate(accept: str, offered: dict) -> str:
    """The media type of ``offered`` that an HTTP Accept header prefers (by q, then its order); the first
    offered when it names none of them (or */*), as a lenient endpoint answers."""
    choices = []
    for position, part in enumerate(accept.split(",")):
        kind, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if kind.strip().lower() in offered and q > 0:
            choices.append((-q, position, kind.strip().lower()))
    return min(choices)[2] if choices else next(iter(offered))


def _serialize(store, sparql: str, limit: int, accept: str = "") -> tuple[bytes, str]:
    from graphwright.store.rdf_store import translated_errors

    out = _CappedBuffer(limit)
    with translated_errors("query failed"):
        result = store.raw_query(sparql)
        offered = GRAPH_FORMATS if isinstance(result, ox.QueryTriples) else RESULT_FORMATS
        media_type = negotiate(accept, offered)
        try:
            result.serialize(out, format=offered[media_type])
        except (OSError, RuntimeError) as exc:  # pyoxigraph may wrap the writer's own error
            if out.size > limit:
                raise AnswerTooLarge.over(limit) from exc
            raise
    return b"".join(out.parts), media_type
