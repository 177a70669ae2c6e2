"""The web app's jobs: what was submitted and each document's state, in SQLite beside the texts.

A job's texts are written to disk and its rows committed before the job is accepted, so a restart
loses nothing: on start the server puts the jobs it left queued or running back in the queue, and
``extract_batch`` skips the documents the store already holds and redoes the rest. Every document
ends ``ok`` (or ``skipped``: the store already had it) or ``failed`` with its reason.
"""

from __future__ import annotations

import builtins
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphwright.model import Document

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, created REAL, started REAL, finished REAL,
    system TEXT, model TEXT, kb TEXT, settings TEXT, concurrency INTEGER DEFAULT 1,
    state TEXT, error TEXT, restarts INTEGER DEFAULT 0,
    llm_calls INTEGER DEFAULT 0, tokens INTEGER DEFAULT 0, triples INTEGER DEFAULT 0
);
CREATE TABLE IF NOT EXISTS documents (
    job_id TEXT, position INTEGER, name TEXT, document_id TEXT, chars INTEGER,
    status TEXT, reason TEXT, triples INTEGER DEFAULT 0, stage TEXT,
    PRIMARY KEY (job_id, position)
);
"""
UNFINISHED = ("queued", "running")


@dataclass
class JobSpec:
    system: str
    model: str
    kb: str
    settings: dict[str, Any] = field(default_factory=dict)
    concurrency: int = 1  # documents of the job at once (helps with a model server, not the embedded model)
    redo: bool = False  # extract documents the store already holds from this system again (re-extraction)


class JobBook:
    """The job table. Calls come from the event loop and from request threads: one lock serialises them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(folder / "jobs.sqlite3", check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(jobs)")}
            if "redo" not in columns:  # a job table from before re-extraction
                self._db.execute("ALTER TABLE jobs ADD COLUMN redo INTEGER DEFAULT 0")
            if "stage" not in {row[1] for row in self._db.execute("PRAGMA table_info(documents)")}:
                self._db.execute("ALTER TABLE documents ADD COLUMN stage TEXT")  # from before stages were shown

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def texts_folder(self, job_id: str) -> Path:
        return self.folder / "jobs" / job_id

    def create(
        self, spec: JobSpec, texts: list[tuple[str, str] | Document], refused: Sequence[tuple[str, str]] = ()
    ) -> str:
        """Write the texts, then the rows (one transaction): a job either exists whole or not at all.
        ``texts`` are (name, text), or Documents (an uploaded PDF's pages are in its metadata); ``refused``
        are (name, reason) for uploads that are not texts: they are recorded as failed documents, so the
        job says what became of every file."""
        job_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        folder = self.texts_folder(job_id)
        folder.mkdir(parents=True)
        rows: list[tuple[str, int, str, str | None, int, str, str | None]] = []
        for position, item in enumerate(texts):
            name, text = (item.source or "upload", item.text) if isinstance(item, Document) else item
            _write_durably(folder / f"{position:05d}.txt", text.encode("utf-8"))
            if isinstance(item, Document) and item.metadata:
                _write_durably(folder / f"{position:05d}.json", json.dumps(item.metadata).encode("utf-8"))
            rows.append((job_id, position, name, Document(text=text).id, len(text), "pending", None))
        rows += [(job_id, len(rows) + i, name, None, 0, "failed", reason) for i, (name, reason) in enumerate(refused)]
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO jobs (id, created, system, model, kb, settings, concurrency, state, redo) "
                "VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    job_id,
                    time.time(),
                    spec.system,
                    spec.model,
                    spec.kb,
                    json.dumps(spec.settings),
                    spec.concurrency,
                    "queued",
                    int(spec.redo),
                ),
            )
            self._db.executemany(
                "INSERT INTO documents (job_id, position, name, document_id, chars, status, reason) "
                "VALUES (?,?,?,?,?,?,?)",
                rows,
            )
        return job_id

    def documents(self, job_id: str) -> list[Document]:
        """The job's texts as Documents, named by what the user uploaded."""
        folder = self.texts_folder(job_id)
        with self._lock:
            rows = self._db.execute(
                "SELECT position, name FROM documents WHERE job_id=? AND document_id IS NOT NULL ORDER BY position",
                (job_id,),
            ).fetchall()

        # bytes, not read_text: its newline translation would turn \r\n into \n and change the document's id
        def metadata(position: int) -> dict[str, str]:
            path = folder / f"{position:05d}.json"
            return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}

        return [
            Document(
                text=(folder / f"{r['position']:05d}.txt").read_bytes().decode("utf-8"),
                source=r["name"],
                metadata=metadata(r["position"]),
            )
            for r in rows
        ]

    def spec(self, job_id: str) -> JobSpec:
        job = self._job_row(job_id)
        return JobSpec(
            job["system"],
            job["model"],
            job["kb"],
            json.loads(job["settings"] or "{}"),
            job["concurrency"],
            bool(job["redo"]),
        )

    def _job_row(self, job_id: str) -> sqlite3.Row:
        with self._lock:
            row = self._db.execute("SELECT * FROM jobs WHERE id=?", (job_id,)).fetchone()
        if row is None:
            raise KeyError(job_id)
        return row

    def get(self, job_id: str) -> dict[str, Any]:
        """The job with its documents; KeyError when there is none."""
        job = self._summary(self._job_row(job_id))
        with self._lock:
            docs = self._db.execute(
                "SELECT position, name, document_id, chars, status, stage, reason, triples FROM documents "
                "WHERE job_id=? ORDER BY position",
                (job_id,),
            ).fetchall()
        job["documents"] = [dict(d) for d in docs]
        return job

    def list(self, limit: int = 100) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM jobs ORDER BY created DESC LIMIT ?", (limit,)).fetchall()
        return [self._summary(r) for r in rows]

    def _summary(self, row: sqlite3.Row) -> dict[str, Any]:
        job = dict(row)
        job["settings"] = json.loads(job["settings"] or "{}")
        with self._lock:
            counts = dict(
                self._db.execute(
                    "SELECT status, COUNT(*) FROM documents WHERE job_id=? GROUP BY status", (row["id"],)
                ).fetchall()
            )
        job["counts"] = {s: counts.get(s, 0) for s in ("pending", "ok", "skipped", "failed")}
        job["total"] = sum(counts.values())
        job["label"] = _label(job)
        ran = job["started"] is not None and job["finished"] is not None
        job["seconds"] = round(job["finished"] - job["started"], 1) if ran else None  # how long it ran
        return job

    def unfinished(self) -> builtins.list[str]:  # builtins: the class's own list() shadows the type here
        with self._lock:
            rows = self._db.execute(
                f"SELECT id FROM jobs WHERE state IN ({','.join('?' * len(UNFINISHED))}) ORDER BY created", UNFINISHED
            ).fetchall()
        return [r["id"] for r in rows]

    def set_state(self, job_id: str, state: str, error: str | None = None, **numbers: int) -> None:
        stamp = {"running": "started", "done": "finished", "failed": "finished", "cancelled": "finished"}.get(state)
        sets = ["state=?", "error=?"] + [f"{k}=?" for k in numbers] + ([f"{stamp}=?"] if stamp else [])
        values = [state, error, *numbers.values(), *([time.time()] if stamp else [])]
        with self._lock:
            self._db.execute(f"UPDATE jobs SET {', '.join(sets)} WHERE id=?", (*values, job_id))

    def count_restart(self, job_id: str) -> None:
        with self._lock:
            self._db.execute("UPDATE jobs SET restarts=restarts+1, state='queued' WHERE id=?", (job_id,))

    def set_document(
        self,
        job_id: str,
        document_id: str,
        status: str,
        reason: str | None = None,
        triples: int = 0,
        only_pending: bool = False,
    ) -> None:
        """Every row of the job with that document (the same text uploaded twice is one document)."""
        where = "job_id=? AND document_id=?" + (" AND status='pending'" if only_pending else "")
        with self._lock:
            self._db.execute(
                f"UPDATE documents SET status=?, reason=?, triples=?, stage=NULL WHERE {where}",
                (status, reason, triples, job_id, document_id),
            )

    def set_stage(self, job_id: str, document_id: str, stage: str) -> None:
        """Where a pending document's run is now: "extracting part 2 of 5", "linking", "storing"."""
        with self._lock:
            self._db.execute(
                "UPDATE documents SET stage=? WHERE job_id=? AND document_id=? AND status='pending'",
                (stage, job_id, document_id),
            )

    def fail_pending(self, job_id: str, reason: str) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE documents SET status='failed', reason=? WHERE job_id=? AND status='pending'", (reason, job_id)
            )


def _write_durably(path: Path, data: bytes) -> None:
    """On disk before the job's rows commit: a power cut after the commit must not lose the text."""
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _label(job: dict[str, Any]) -> str:
    """The job's state as the page says it: "done, 1 of 3 failed", "running, 2 of 5 finished"."""
    counts, total = job["counts"], job["total"]
    finished = counts["ok"] + counts["skipped"] + counts["failed"]
    if job["state"] == "running":
        return f"running, {finished} of {total} finished"
    if job["state"] == "done" and counts["failed"]:
        return f"done, {counts['failed']} of {total} failed"
    return job["state"]
