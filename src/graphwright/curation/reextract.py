"""Stored documents read back, with their text and what its conversion kept, to be extracted again."""

from __future__ import annotations

from graphwright.errors import DataNotFoundError
from graphwright.growth import load, save
from graphwright.growth.forget import Forgotten, forget_document
from graphwright.model import Document
from graphwright.store import GraphStore


def stored_documents(store: GraphStore, document_ids: list[str]) -> list[Document]:
    """The stored documents, with their text and source, to extract again; an id whose text the store
    lacks (stored before texts were kept) is an error that says so."""
    texts = store.document_texts(document_ids)
    missing = [d for d in document_ids if d not in texts]
    if missing:
        raise DataNotFoundError(
            f"the store keeps no text of {', '.join(missing)}: it holds no such document, or "
            "one extracted before texts were kept (extract its file again instead)"
        )
    sources = store.sources(document_ids)
    return [
        Document(id=d, text=texts[d], source=sources.get(d), metadata=store.document_metadata(d)) for d in document_ids
    ]


def remove_other_runs(store: GraphStore, document_id: str, keep: str) -> int:
    """Remove the document's runs of every system but ``keep`` (its text stays); how many went. The grown
    graph forgets the document, so the next `graph merge` folds in the run that is left."""
    others = [system for _, _, system in store.graphs("prov", document_id=document_id) if system != keep]
    removed = sum(store.remove_document(document_id, system=system) for system in others)
    if removed:
        state = load(store)
        if forget_document(state, document_id) != Forgotten():
            save(store, state)
    return removed
