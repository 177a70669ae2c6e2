"""Keeping the graph right: deleting a document and everything derived from it, and reading stored
documents back to extract them again.

A deletion is written to the store's journal before it starts. Then the grown graph forgets the
document, then the document's runs (knowledge graph, provenance) and its text go, and the journal
entry is removed last. Each step can be done twice, so a process stopped anywhere (a crash, a kill)
leaves an entry that ``finish_pending`` completes: the next edit or `graph delete` runs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

import pyoxigraph as ox

from graphwright.errors import DataNotFoundError
from graphwright.failpoints import failpoint
from graphwright.growth import load, save
from graphwright.growth.forget import Forgotten, forget_document
from graphwright.model import Document
from graphwright.store import GraphStore
from graphwright.store import vocab as v

JOURNAL_GRAPH = "urn:graphwright:journal"
_DELETE = v.GW + "deleteDocument"


@dataclass
class Deleted:
    document_id: str
    runs: int  # the systems' runs removed from the store
    grown: Forgotten  # what the grown graph lost


def _entry(document_id: str) -> ox.Quad:
    subject = ox.NamedNode(f"{JOURNAL_GRAPH}:delete:{quote(document_id, safe='')}")
    return ox.Quad(subject, ox.NamedNode(_DELETE), ox.Literal(document_id), ox.NamedNode(JOURNAL_GRAPH))


def pending(store: GraphStore) -> list[str]:
    """The documents whose deletion began and did not end."""
    quads = store.oxigraph.quads_for_pattern(None, ox.NamedNode(_DELETE), None, ox.NamedNode(JOURNAL_GRAPH))
    return sorted(q.object.value for q in quads)


def delete_document(store: GraphStore, document_id: str) -> Deleted:
    """Remove the document's output of every system, its text and its part of the grown graph.
    Raises DataNotFoundError when the store holds nothing of it (and no deletion of it is pending)."""
    known = store.graphs("prov", document_id=document_id) or store.document_texts([document_id])
    if not known and document_id not in pending(store):
        raise DataNotFoundError(f"the store holds no document {document_id!r}; `graphwright graph documents` "
                                "lists the ones it has")
    store.oxigraph.add(_entry(document_id))  # the journal first: from here the deletion will be finished
    failpoint("curation.journalled")
    state = load(store)
    grown = forget_document(state, document_id)
    if grown.edges or grown.votes or grown.nodes:
        save(store, state)
    failpoint("curation.grown-forgot")
    runs = store.remove_document(document_id)
    failpoint("curation.runs-removed")
    store.oxigraph.remove(_entry(document_id))
    store.flush()
    return Deleted(document_id, runs, grown)


def stored_documents(store: GraphStore, document_ids: list[str]) -> list[Document]:
    """The stored documents, with their text and source, to extract again; an id whose text the store
    lacks (stored before texts were kept) is an error that says so."""
    texts = store.document_texts(document_ids)
    missing = [d for d in document_ids if d not in texts]
    if missing:
        raise DataNotFoundError(f"the store keeps no text of {', '.join(missing)}: it holds no such document, or "
                                "one extracted before texts were kept (extract its file again instead)")
    sources = {run["document_id"]: run["source"] for run in store.documents() if run["source"]}
    return [Document(id=d, text=texts[d], source=sources.get(d)) for d in document_ids]


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


def finish_pending(store: GraphStore) -> list[Deleted]:
    """Complete every deletion a stopped process left half done."""
    return [delete_document(store, document_id) for document_id in pending(store)]


__all__ = ["Deleted", "delete_document", "finish_pending", "pending", "remove_other_runs", "stored_documents"]
