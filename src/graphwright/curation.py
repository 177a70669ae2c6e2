"""Keeping the graph right: deleting a document and everything derived from it, reading stored documents
back to extract them again, and the user's edits (merge two entities, rename one, remove a fact), each
undoable.

A deletion is written to the store's journal before it starts. Then the grown graph forgets the
document, then the document's runs (knowledge graph, provenance) and its text go, and the journal
entry is removed last. Each step can be done twice, so a process stopped anywhere (a crash, a kill)
leaves an entry that ``finish_pending`` completes: the next edit or `graph delete` runs it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import quote

import pyoxigraph as ox

from graphwright.errors import DataNotFoundError, UserError
from graphwright.failpoints import failpoint
from graphwright.growth import load, save
from graphwright.growth.forget import Forgotten, forget_document
from graphwright.model import Document
from graphwright.store import GraphStore
from graphwright.store import vocab as v
from graphwright.store.edits import EDITS_GRAPH, UNDONE, Edit, apply_edits, edit_iri, read_edits, record_quads

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
    return [Document(id=d, text=texts[d], source=sources.get(d), metadata=store.document_metadata(d))
            for d in document_ids]


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


def edit_graph(store: GraphStore, edit: Edit) -> Edit:
    """Record ``edit`` (merge, rename or remove; its number is given here) and apply it to every stored run
    it changes. It holds for later runs too: the store applies active edits to every result it writes."""
    known = {n for e in read_edits(store.oxigraph) for n in (e.number,)}
    edit = replace(edit, number=max(known, default=0) + 1)
    _check(store, edit)
    store.oxigraph.extend(record_quads(edit) + [_REBUILDING])  # the edit and the note to apply it, together
    failpoint("curation.edit-recorded")
    _rebuild(store)
    return edit


def undo_edit(store: GraphStore, number: int) -> Edit:
    """Undo an edit: every run it changed is rebuilt from its unedited quads with the other edits applied."""
    edits = {e.number: e for e in read_edits(store.oxigraph)}
    if number not in edits or edits[number].undone:
        raise DataNotFoundError(f"no edit {number} to undo; `graphwright graph edits` lists them")
    store.oxigraph.extend([ox.Quad(ox.NamedNode(edit_iri(number)), ox.NamedNode(UNDONE), ox.Literal("true"),
                                   ox.NamedNode(EDITS_GRAPH)), _REBUILDING])
    _rebuild(store)
    return replace(edits[number], undone=True)


def edits(store: GraphStore) -> list[Edit]:
    return read_edits(store.oxigraph)


# in the journal while the runs are rewritten after an edit or an undo: a stopped rewrite is finished
_REBUILDING = ox.Quad(ox.NamedNode(f"{JOURNAL_GRAPH}:rebuild"), ox.NamedNode(v.GW + "rebuildRuns"),
                      ox.Literal("pending"), ox.NamedNode(JOURNAL_GRAPH))


def _rebuild(store: GraphStore) -> None:
    """Every run as its system wrote it with the active edits applied: rewritten where that differs, one
    run per atomic update; the journal's note goes when all are done."""
    active = [e for e in read_edits(store.oxigraph) if not e.undone]
    for _, document_id, system in store.graphs("prov"):
        unedited = store.unedited_quads(document_id, system)
        current = store.run_quads(document_id, system)
        base = unedited if unedited is not None else current
        edited = apply_edits(base, active)
        if set(edited) != set(current):
            store.rewrite_run(document_id, system, edited, base if set(edited) != set(base) else None)
        elif unedited is not None and set(edited) == set(base):
            store.rewrite_run(document_id, system, edited, None)  # no edit changes it any more
        failpoint("curation.run-rewritten")
    store.oxigraph.remove(_REBUILDING)
    store.flush()


def _check(store: GraphStore, edit: Edit) -> None:
    """An edit names what the store holds: entities in some run, a fact some run states."""
    def held(iri: str) -> bool:
        node = ox.NamedNode(iri)
        return any(next(iter(store.oxigraph.quads_for_pattern(s, None, o, g)), None) is not None
                   for g, _, _ in store.graphs("doc") for s, o in ((node, None), (None, node)))

    if edit.kind == "merge":
        if edit.source == edit.target:
            raise UserError("an entity cannot be merged into itself")
        missing = [iri for iri in (edit.source, edit.target) if not held(iri)]
    elif edit.kind == "rename":
        missing = [] if held(edit.node) else [edit.node]
        if not (edit.label or "").strip():
            raise UserError("a new name cannot be empty")
    else:
        missing = [] if any(t.key() == edit.fact for t in store.triples()) else [" | ".join(edit.fact)]
    if missing:
        raise DataNotFoundError(f"the store holds no {', '.join(missing)}")


def finish_pending(store: GraphStore) -> list[Deleted]:
    """Complete every deletion, and the rewrite after an edit, that a stopped process left half done."""
    deleted = [delete_document(store, document_id) for document_id in pending(store)]
    if _REBUILDING in store.oxigraph:
        _rebuild(store)
    return deleted


__all__ = ["Deleted", "Edit", "delete_document", "edit_graph", "edits", "finish_pending", "pending",
           "remove_other_runs", "stored_documents", "undo_edit"]
