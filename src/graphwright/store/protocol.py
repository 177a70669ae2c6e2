"""What a run writes its results into (``pipeline.extract_batch``): the RDF ``GraphStore`` answers it, and
a user's own sink can too. Writing a document's result is the commit point of a batch run; the status
read back is what lets the run resume."""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from graphwright.model import Document, ExtractionResult

Status = Literal["ok", "failed"]


@runtime_checkable
class ResultStore(Protocol):
    def add_result(self, document: Document | None, result: ExtractionResult) -> None:
        """Store one result, replacing any earlier one of the same system on the same document."""

    def record_failure(self, document_id: str, system: str, reason: str, source: str | None = None) -> None:
        """Record that ``system`` failed on a document that never reached it (unreadable input)."""

    def document_status(self, document_id: str, system: str) -> Status | None:
        """ "ok" or "failed" for the last stored run of ``system`` on the document; None when never run."""
