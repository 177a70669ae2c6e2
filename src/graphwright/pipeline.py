"""Run a system over many documents: chunking, concurrency, resume, no silent loss.

Every document ends as an ``ok`` result in the store or a recorded failure
with its reason; a rerun skips documents whose results are already stored and redoes the failed ones.

The store is the commit point: a document's line goes to results.jsonl first, then its result into
the store. Before and after a run, results.jsonl keeps for each document the last line the store
confirms; after a crash between the two writes the rerun drops the unconfirmed line and redoes the
document, so results.jsonl ends as one line per document, as after an uninterrupted run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from graphwright.chunking import CHUNK_CHARS, MAX_CHARS, chunk_document
from graphwright.converters import page_of
from graphwright.errors import GraphwrightError
from graphwright.inputs import InputFailure
from graphwright.jsonl import append_jsonl, keep_rows, last_per_key
from graphwright.llm.attribution import usage_by_agent
from graphwright.model import Document, Entity, ExtractionResult, Span, Triple, Usage
from graphwright.model.events import Event, event_iri
from graphwright.progress import listening, report
from graphwright.store.codec import unstorable
from graphwright.store.protocol import ResultStore
from graphwright.systems.base import System

T = TypeVar("T")


@dataclass
class BatchSummary:
    done: int = 0
    skipped: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (document or source, reason)
    triples: int = 0
    events: int = 0
    unlinked: int = 0  # entities kept under their own IRI: the KB has no entity for them
    usage: Usage = field(default_factory=Usage)


def _shift(span: Span | None, offset: int, document: Document) -> Span | None:
    return None if span is None else document.span(span.start + offset, span.end + offset)


async def run_piece(system: System, piece: Document) -> ExtractionResult:
    """One piece through ``system``, never raising: a failure becomes a failed result with its reason.
    ``usage_by_agent`` holds what each agent spent (the same wherever the piece runs: here or on a worker)."""
    with usage_by_agent() as ledger:
        try:
            result = await system.run(piece)
        except GraphwrightError as exc:  # a system should record failures itself; this is the safety net
            result = ExtractionResult.from_error(piece.id, system.name, exc)
        except Exception as exc:  # noqa: BLE001 - a bug must not lose the rest of the batch
            result = ExtractionResult.failed(
                piece.id, system.name, f"internal error (please report): {type(exc).__name__}: {exc}"
            )
    if ledger:
        result.usage_by_agent = dict(ledger)
    return result


async def run_document(system: System, document: Document, *, chunk_chars: int, max_chars: int) -> ExtractionResult:
    """One document, split into pieces when long; pieces' results are merged."""
    if len(document.text) > max_chars:
        return ExtractionResult.failed(
            document.id,
            system.name,
            f"document has {len(document.text):,} characters, above the limit of {max_chars:,}; "
            "split it into smaller files or raise --max-chars",
        )
    pieces = chunk_document(document, chunk_chars)
    merged = ExtractionResult(document_id=document.id, system=system.name)
    seen: set[tuple[str, str, str]] = set()
    entities: dict[tuple[str, tuple[str, ...]], Entity] = {}  # one entity per (IRI, types) over the pieces
    for number, (offset, piece) in enumerate(pieces, 1):
        report(f"extracting part {number} of {len(pieces)}" if len(pieces) > 1 else "extracting")
        result = await run_piece(system, piece)
        merged.usage = merged.usage + result.usage
        for agent, usage in result.usage_by_agent.items():
            merged.usage_by_agent[agent] = merged.usage_by_agent.get(agent, Usage()) + usage
        merged.trace += result.trace
        merged.warnings += result.warnings
        if result.status == "failed":
            merged.status, merged.reason = (
                "failed",
                (result.reason if len(pieces) == 1 else f"piece at offset {offset}: {result.reason}"),
            )
            merged.retryable = result.retryable
            merged.triples, merged.entities, merged.events = [], [], []
            return merged
        for triple in result.triples:
            if triple.key() not in seen:
                seen.add(triple.key())
                triple.provenance.evidence = _shift(triple.provenance.evidence, offset, document)
                merged.triples.append(triple)
        for entity in result.entities:
            kept = entities.setdefault((entity.iri, tuple(entity.types)), entity.model_copy(update={"mentions": []}))
            kept.mentions += [m.model_copy(update={"span": _shift(m.span, offset, document)}) for m in entity.mentions]
        for event in result.events:  # numbered over the whole document: pieces would each start at 0
            merged.events.append(
                event.model_copy(
                    update={
                        "iri": event_iri(document.id, system.name, len(merged.events)),
                        "trigger_span": _shift(event.trigger_span, offset, document),
                        "arguments": [
                            a.model_copy(update={"span": _shift(a.span, offset, document)}) for a in event.arguments
                        ],
                    }
                )
            )
        merged.output = result.output if len(pieces) == 1 else None
        merged.extra = result.extra if len(pieces) == 1 else {"pieces": len(pieces)}
    merged.entities = list(entities.values())
    return merged


async def in_window(items: Iterable[T], concurrency: int, work: Callable[[T], Awaitable[None]]) -> None:
    """``work`` on every item, ``concurrency`` at a time; items are drawn as they are started, at most two
    rounds of ``concurrency`` ahead, so a batch of 100,000 documents holds a few tasks at a time, not one
    per document. The first exception a task raises stops the run and is raised here; a run that is
    cancelled or fails leaves no task running behind it. `extract_batch` and `eval run` share it."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def gated(item: T) -> None:
        async with gate:
            await work(item)

    running: set[asyncio.Task] = set()
    try:
        for item in items:
            if len(running) >= 2 * max(1, concurrency):
                finished, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in finished:
                    task.result()
            running.add(asyncio.create_task(gated(item)))
        await asyncio.gather(*running)
    finally:
        for task in running:
            task.cancel()


async def extract_batch(
    items: Iterable[Document | InputFailure],
    system: System,
    store: ResultStore,
    *,
    results_path: Path | None = None,
    concurrency: int = 1,
    chunk_chars: int = CHUNK_CHARS,
    max_chars: int = MAX_CHARS,
    on_progress: Callable[[str], None] | None = None,
    on_result: Callable[[Document, ExtractionResult], None] | None = None,
    on_stage: Callable[[Document, str], None] | None = None,
    redo: bool = False,
) -> BatchSummary:
    """``on_progress`` gets each document's source as it is finished or skipped; ``on_result`` gets each
    result once the store holds it (the web app's job table follows the store with it); ``on_stage`` each
    running document's stages (graphwright.progress: "extracting part 1 of 3", "linking", "storing").
    ``redo`` runs documents the store already holds from this system again (new settings), replacing
    their results."""
    summary = BatchSummary()
    lock = asyncio.Lock()

    async def record(document: Document, result: ExtractionResult) -> None:
        with_pages(document, result)
        problem = unstorable(result, document.source)
        if problem:  # a system's bug on one document: that document fails, the batch goes on
            result = ExtractionResult.failed(
                document.id, result.system, f"its result cannot be stored: {problem}", usage=result.usage
            )
        async with lock:
            if results_path:
                append_jsonl(results_path, {"source": document.source, **result.model_dump(mode="json")})
            store.add_result(document, result)  # the commit point; a failed result keeps its reason and usage
            if result.status == "ok":
                summary.done += 1
                summary.triples += len(result.triples)
                summary.events += len(result.events)
                summary.unlinked += sum(not e.linked for e in result.entities)
            else:
                summary.failed.append((document.source or document.id, result.reason or "unknown"))
            summary.usage = summary.usage + result.usage
            if on_result:
                on_result(document, result)

    async def one(document: Document) -> None:
        with listening((lambda stage: on_stage(document, stage)) if on_stage else None):
            result = await run_document(system, document, chunk_chars=chunk_chars, max_chars=max_chars)
            report("storing")
        await record(document, result)
        if on_progress:
            on_progress(document.source or document.id)

    def to_run() -> Iterable[Document]:
        """The documents to extract; failed inputs and documents the store holds are recorded as the
        window reaches them."""
        for item in items:
            if isinstance(item, InputFailure):
                summary.failed.append((item.source, item.reason))
                store.record_failure(item.source, system.name, item.reason, source=item.source)
                if on_progress:
                    on_progress(item.source)
            elif not redo and store.document_status(item.id, system.name) == "ok":
                summary.skipped += 1
                if on_progress:
                    on_progress(item.source or item.id)
            else:
                yield item

    if results_path:
        keep_committed_results(results_path, store, system.name)
    await in_window(to_run(), concurrency, one)  # a store that fails stops the batch there
    if results_path:
        keep_committed_results(results_path, store, system.name)  # a redone document's old line goes
    return summary


def with_pages(document: Document, result: ExtractionResult) -> None:
    """Each piece of evidence gets the page it is on, for a document converted from a PDF."""
    if "page_starts" not in document.metadata:
        return
    items: list[Triple | Event] = [*result.triples, *result.events]
    for item in items:  # entities carry mentions, not provenance
        evidence = item.provenance.evidence
        if evidence is None:
            continue
        # where the subject (or trigger) is named inside the evidence: a span can run over a page break
        surface = (item.subject.surface or item.subject.label) if isinstance(item, Triple) else item.trigger
        found = document.text.find(surface, evidence.start, evidence.end) if surface else -1
        item.provenance.page = page_of(document.metadata, found if found >= 0 else evidence.start)


def keep_committed_results(path: Path, store, system: str) -> None:
    """Make ``path`` hold, for each document of ``system``, the last line whose status the store confirms:
    a rerun's line replaces the failure it retried, and a line the store never got (a crash came
    between the two writes) or a half-written last line goes."""

    def confirmed(rows: list[dict]) -> list[dict]:
        return last_per_key(
            [
                row
                for row in rows
                if row.get("system") != system
                or store.document_status(row.get("document_id"), system) == row.get("status")
            ],
            "document_id",
            "system",
        )

    keep_rows(path, confirmed)
