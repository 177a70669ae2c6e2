"""Runs the web app's jobs one at a time in the server's event loop, writing to its one open store.

One at a time because the store has one writer and the embedded model uses every core; a job's own
documents run with the concurrency it asks for. Each change is announced through ``Changes``,
which the page's event stream waits on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from graphwright.assembly import attach_store, build_system
from graphwright.errors import GraphwrightError
from graphwright.model import Document, ExtractionResult
from graphwright.pipeline import extract_batch
from graphwright.store import GraphStore
from graphwright.systems.base import System
from graphwright.web.jobs import UNFINISHED, JobBook

log = logging.getLogger("graphwright.web")


class Changes:
    """A counter that goes up on every change; waiters wake when it moves past what they saw."""

    def __init__(self) -> None:
        self.version = 0
        self._event = asyncio.Event()

    def bump(self) -> None:
        self.version += 1
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, seen: int, timeout: float) -> int:
        if self.version == seen:
            try:
                await asyncio.wait_for(self._event.wait(), timeout)
            except TimeoutError:
                pass
        return self.version


class JobRunner:
    def __init__(
        self,
        book: JobBook,
        store: GraphStore,
        *,
        llm_for: Callable[[str], Any],
        kb_for: Callable[[str], Any],
        max_chars: int,
    ) -> None:
        self.book, self.store = book, store
        self.llm_for, self.kb_for = llm_for, kb_for
        self.max_chars = max_chars
        self.changes = Changes()
        self.stored_runs: list[tuple[str, str]] = []  # (document, system) of each result stored, in order
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._current: tuple[str, asyncio.Task] | None = None  # the job running now
        self._cancelled: set[str] = set()  # jobs the user cancelled while they ran
        self._built: dict[str, System] = {}  # queued jobs' systems, built when their request was checked

    @property
    def store_version(self) -> int:
        """Goes up with each result stored: the graph browser reads the runs stored since its version."""
        return len(self.stored_runs)

    def submit(self, job_id: str, system: System | None = None) -> None:
        """Queue a job; ``system`` is the one the request built to check its settings, run as it is (a job
        resumed after a restart builds its own)."""
        if system is not None:
            self._built[job_id] = system
        self._queue.put_nowait(job_id)
        self.changes.bump()

    def resume_unfinished(self) -> list[str]:
        """Queue the jobs a stop or crash interrupted; their finished documents are skipped."""
        jobs = self.book.unfinished()
        for job_id in jobs:
            self.book.count_restart(job_id)
            self.submit(job_id)
        return jobs

    async def run_forever(self) -> None:
        while True:
            job_id = await self._queue.get()
            if self.book.get(job_id)["state"] not in UNFINISHED:  # cancelled while it waited
                continue
            self._current = (job_id, asyncio.create_task(self.run(job_id)))
            await self._current[1]  # a server stop cancels this wait and, with it, the job's task
            self._current = None

    def cancel(self, job_id: str) -> bool:
        """Stop a queued or running job; its documents not yet stored are recorded as failed. False when
        the job has already ended."""
        state = self.book.get(job_id)["state"]
        if state not in UNFINISHED:
            return False
        if self._current and self._current[0] == job_id:
            self._cancelled.add(job_id)
            self._current[1].cancel()  # run() records the cancel once the batch has stopped
        else:
            self._record_cancel(job_id)
        return True

    def _record_cancel(self, job_id: str) -> None:
        self._built.pop(job_id, None)
        self.book.fail_pending(job_id, "cancelled by the user before it was extracted")
        self.book.set_state(job_id, "cancelled", "cancelled by the user")
        self.changes.bump()

    async def run(self, job_id: str) -> None:
        book = self.book
        spec = book.spec(job_id)
        book.set_state(job_id, "running")
        self.changes.bump()
        try:
            documents = book.documents(job_id)
            system = self._built.pop(job_id, None)
            if system is None:
                system = build_system(spec.system, self.llm_for(spec.model), self.kb_for(spec.kb), spec.settings)
            attach_store(spec.system, system, self.store)  # the graph grown up to now, not when it was queued
            if not spec.redo:
                self._mark_already_stored(job_id, documents, spec.system, resumed=book.get(job_id)["restarts"] > 0)
            summary = await extract_batch(
                documents,
                system,
                self.store,
                results_path=book.texts_folder(job_id) / "results.jsonl",
                concurrency=spec.concurrency,
                max_chars=self.max_chars,
                redo=spec.redo,
                on_result=lambda document, result: self._stored(job_id, document, result),
                on_stage=lambda document, stage: self._stage(job_id, document, stage),
            )
        except asyncio.CancelledError:
            if job_id in self._cancelled:  # the user's cancel: the queue goes on with the next job
                self._cancelled.discard(job_id)
                self._record_cancel(job_id)
                return
            raise  # the server stops: the job stays "running" and resumes on the next start
        except (GraphwrightError, OSError) as exc:
            self._give_up(job_id, str(exc))
        except Exception as exc:  # noqa: BLE001 - one job's bug must not stop the server's queue
            log.exception("job %s failed", job_id)
            self._give_up(job_id, f"internal error (please report): {type(exc).__name__}: {exc}")
        else:
            usage = summary.usage
            book.set_state(
                job_id, "done", llm_calls=usage.llm_calls, tokens=usage.total_tokens, triples=summary.triples
            )
        self.changes.bump()

    def _mark_already_stored(self, job_id: str, documents: list[Document], system: str, resumed: bool) -> None:
        """A document the store holds is skipped by the batch; after a restart it may be this job's own,
        stored just before the stop."""
        status, reason = ("ok", None) if resumed else ("skipped", "already in the store from an earlier run")
        for document in documents:
            if self.store.document_status(document.id, system) == "ok":
                self.book.set_document(job_id, document.id, status, reason, only_pending=True)

    def _stage(self, job_id: str, document: Document, stage: str) -> None:
        self.book.set_stage(job_id, document.id, stage)
        self.changes.bump()

    def _stored(self, job_id: str, document: Document, result: ExtractionResult) -> None:
        self.book.set_document(job_id, document.id, result.status, result.reason, triples=len(result.triples))
        self.stored_runs.append((document.id, result.system))
        self.changes.bump()

    def graph_changed(self) -> None:
        """An edit rewrote runs: the graph page reads every run again."""
        self.stored_runs.extend((document_id, system) for _, document_id, system in self.store.graphs("prov"))
        self.changes.bump()

    def delete_document(self, document_id: str):
        """Delete a stored document and what was derived from it (graphwright.curation), in the event loop
        where jobs write, so no job's write interleaves; the graph page re-reads the runs it lost."""
        from graphwright.curation import delete_document

        systems = [system for _, _, system in self.store.graphs("prov", document_id=document_id)]
        deleted = delete_document(self.store, document_id)
        self.stored_runs.extend((document_id, system) for system in systems)
        self.changes.bump()
        return deleted

    def _give_up(self, job_id: str, reason: str) -> None:
        self.book.fail_pending(job_id, f"the job stopped: {reason}")
        self.book.set_state(job_id, "failed", reason)
