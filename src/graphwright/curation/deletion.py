"""Deleting a document and everything derived from it.

A deletion is written to the store's journal before it starts. Then one update takes the document's
runs (knowledge graph, provenance), its text, its part of the grown graph and the journal entry, so a
process stopped anywhere (a crash, a kill) leaves the store as before or as after; before, the entry
says the deletion was asked for, and ``finish_pending`` does it.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

import pyoxigraph as ox

from graphwright.curation.journal import JOURNAL_GRAPH
from graphwright.errors import DataNotFoundError
from graphwright.failpoints import failpoint
from graphwright.growth import load, save_update
from graphwright.growth.forget import Forgotten, forget_document
from graphwright.store import GraphStore
from graphwright.store import vocab as v
from graphwright.store.codec import quad_data, term_value

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
    """The documents whose deletion was asked for and not done (the process was stopped first)."""
    quads = store.oxigraph.quads_for_pattern(None, ox.NamedNode(_DELETE), None, ox.NamedNode(JOURNAL_GRAPH))
    return sorted(term_value(q.object) for q in quads)


def delete_document(store: GraphStore, document_id: str) -> Deleted:
    """Remove the document's output of every system, its text and its part of the grown graph.
    Raises DataNotFoundError when the store holds nothing of it (and no deletion of it is pending)."""
    known = store.graphs("prov", document_id=document_id) or store.document_texts([document_id])
    if not known and document_id not in pending(store):
        raise DataNotFoundError(
            f"the store holds no document {document_id!r}; `graphwright graph documents` lists the ones it has"
        )
    store.oxigraph.add(_entry(document_id))  # the journal first: from here the deletion will be finished
    failpoint("curation.journalled")
    state = load(store)
    grown = forget_document(state, document_id)
    also = [save_update(state)] if grown.edges or grown.votes or grown.nodes else []
    done = f"DELETE DATA {{ {quad_data([_entry(document_id)])} }}"
    runs = store.remove_document(document_id, also=[*also, done])
    failpoint("curation.deleted")
    store.flush()
    return Deleted(document_id, runs, grown)
