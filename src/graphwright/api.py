"""The Python API: ``graphwright.extract(texts)`` builds a graph as `graphwright extract` does.

    import graphwright

    with graphwright.open_store("out/store") as store:
        run = graphwright.extract(["Maren Solberg founded Tidewater Instruments in Oslo in 2016."], store=store)
        for triple in run.triples:
            print(triple.subject.label, triple.predicate.label, triple.object.label)

The run goes through the assembly the command line uses (graphwright.assembly, graphwright.pipeline): the
same default system, chunking, stated check, linking, failure records and store.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from graphwright.assembly import ModelChoice, attach_store
from graphwright.engines import open_run
from graphwright.errors import UserError
from graphwright.model import Document, ExtractionResult, Triple
from graphwright.pipeline import BatchSummary, extract_batch
from graphwright.store import GraphStore
from graphwright.systems.base import DEFAULT_SYSTEM


@dataclass
class Extraction:
    """What one call extracted: a result per document run now, in the order given, and the store that holds
    them with everything extracted before (query it, export it, view it)."""

    results: list[ExtractionResult]
    store: GraphStore
    summary: BatchSummary
    skipped: list[str] = field(default_factory=list)  # ids the store already held from this system

    @property
    def triples(self) -> list[Triple]:
        return [triple for result in self.results if result.status == "ok" for triple in result.triples]

    @property
    def failed(self) -> list[tuple[str, str]]:
        """(document, reason) for each document that failed: nothing is lost silently."""
        return list(self.summary.failed)


def open_store(path: str | os.PathLike[str] | None = None) -> GraphStore:
    """The graph store at ``path`` (created when absent), or a store in memory; use it in a ``with``."""
    return GraphStore.in_memory() if path is None else GraphStore.open(path)


async def extract_async(
    texts: str | Document | Iterable[str | Document],
    *,
    system: str = DEFAULT_SYSTEM,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    kb: str = "default",
    store: GraphStore | None = None,
    settings: dict | None = None,
    cache: bool = True,
    concurrency: int = 1,
    llm=None,
    redo: bool = False,
) -> Extraction:
    """Extract from ``texts`` (a text, a Document, or many) into ``store`` (in memory when not given).
    ``model``, ``base_url`` and ``api_key`` choose the model as the command line's options do; ``llm`` is
    an LLM object to use instead (graphwright.llm). A document the store already holds from this system
    is skipped, as a rerun of `extract` skips it, unless ``redo`` (then its result is replaced)."""
    documents = [_document(text) for text in ([texts] if isinstance(texts, (str, Document)) else texts)]
    graph_store = store if store is not None else GraphStore.in_memory()
    run = open_run(system, dict(settings or {}), ModelChoice(model, base_url, api_key, cache=cache), kb, llm=llm)
    attach_store(system, run.system, graph_store)
    results: dict[str, ExtractionResult] = {}
    try:
        summary = await extract_batch(
            documents,
            run.system,
            graph_store,
            concurrency=concurrency,
            redo=redo,
            on_result=lambda document, result: results.__setitem__(document.id, result),
        )
    finally:
        await run.aclose()
    return Extraction(
        [results[d.id] for d in documents if d.id in results],
        graph_store,
        summary,
        [d.id for d in documents if d.id not in results],
    )


def extract(texts: str | Document | Iterable[str | Document], **options) -> Extraction:
    """``extract_async`` for code outside an event loop (in a notebook or async code: ``await extract_async``)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(extract_async(texts, **options))
    raise UserError(
        "graphwright.extract was called inside a running event loop: use `await graphwright.extract_async(...)` there"
    )


def _document(text: str | Document) -> Document:
    if isinstance(text, Document):
        return text
    if not isinstance(text, str):
        raise UserError(f"graphwright.extract takes texts (str) or Documents, not {type(text).__name__}")
    return Document(text=text)
