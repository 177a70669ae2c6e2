"""Keeping the graph right: deleting a document and everything derived from it (``deletion``), reading
stored documents back to extract them again (``reextract``), and the user's edits, each undoable
(``edits``). Every change that takes more than one write is journalled (``journal``), and
``finish_pending`` completes what a killed command left half done."""

from __future__ import annotations

from graphwright.curation.deletion import Deleted, delete_document, pending
from graphwright.curation.edits import Edit, edit_graph, edits, rebuild, rebuild_pending, undo_edit
from graphwright.curation.reextract import remove_other_runs, stored_documents
from graphwright.store import GraphStore


def finish_pending(store: GraphStore) -> list[Deleted]:
    """Complete every deletion, and the rewrite after an edit, that a stopped process left half done."""
    deleted = [delete_document(store, document_id) for document_id in pending(store)]
    if rebuild_pending(store):
        rebuild(store)
    return deleted


__all__ = [
    "Deleted",
    "Edit",
    "delete_document",
    "edit_graph",
    "edits",
    "finish_pending",
    "pending",
    "remove_other_runs",
    "stored_documents",
    "undo_edit",
]
