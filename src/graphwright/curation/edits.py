"""The user's edits of the graph: merge two entities, rename one, remove a fact; each recorded, applied
to every stored run it changes (and by the store to every run written later), and undoable in any order
(graphwright.store.edits does the rewriting)."""

from __future__ import annotations

import json
from dataclasses import replace

import pyoxigraph as ox

from graphwright.curation.journal import JOURNAL_GRAPH
from graphwright.errors import DataNotFoundError, UserError
from graphwright.failpoints import failpoint
from graphwright.store import GraphStore
from graphwright.store import vocab as v
from graphwright.store.codec import quad_data, term_value
from graphwright.store.edits import EDITS_GRAPH, UNDONE, Edit, apply_edits, edit_iri, read_edits, record_quads


def edit_graph(store: GraphStore, edit: Edit) -> Edit:
    """Record ``edit`` (merge, rename or remove; its number is given here) and apply it to every stored run
    it changes. It holds for later runs too: the store applies active edits to every result it writes."""
    made = read_edits(store.oxigraph)
    edit = replace(edit, number=max((e.number for e in made), default=0) + 1)
    _check(store, edit)
    labels = store.labels()  # the names as they are now: a merge or a rename takes the old ones away
    edit = replace(edit, names=json.dumps({i: labels[i] for i in edit.iris if i in labels}, ensure_ascii=False))
    _commit(store, made + [edit], record_quads(edit), about=edit)
    return edit


def undo_edit(store: GraphStore, number: int) -> Edit:
    """Undo an edit: every run it changed is rebuilt from its unedited quads with the other edits applied."""
    made = read_edits(store.oxigraph)
    undone = next((e for e in made if e.number == number and not e.undone), None)
    if undone is None:
        raise DataNotFoundError(f"no edit {number} to undo; `graphwright graph edits` lists them")
    flag = ox.Quad(ox.NamedNode(edit_iri(number)), ox.NamedNode(UNDONE), ox.Literal("true"), ox.NamedNode(EDITS_GRAPH))
    undone = replace(undone, undone=True)
    _commit(store, [undone if e.number == number else e for e in made], [flag], about=undone)
    return undone


def edits(store: GraphStore) -> list[Edit]:
    return read_edits(store.oxigraph)


# Left in the journal by an earlier version while it rewrote the runs one by one after an edit: the
# rewrite a stopped process left is finished (each edit now commits whole).
_REBUILDING = ox.Quad(
    ox.NamedNode(f"{JOURNAL_GRAPH}:rebuild"),
    ox.NamedNode(v.GW + "rebuildRuns"),
    ox.Literal("pending"),
    ox.NamedNode(JOURNAL_GRAPH),
)


def rebuild_pending(store: GraphStore) -> bool:
    """Whether a rewrite after an edit or an undo was stopped before it ended."""
    return _REBUILDING in store.oxigraph


def rebuild(store: GraphStore) -> None:
    """Every run as its system wrote it with the recorded edits applied."""
    _commit(store, read_edits(store.oxigraph), [])


def _commit(store: GraphStore, made: list[Edit], record: list[ox.Quad], about: Edit | None = None) -> None:
    """``record`` (an edit, or an undo) and every run rewritten as its system wrote it with the active
    edits of ``made`` applied, where that differs, in one update: a kill leaves the store as before or
    as after. With ``about`` (the edit made or undone) only the runs it can change are read: those that
    name its entities, and those an edit changed before."""
    active = [e for e in made if not e.undone]
    named = None if about is None else _graphs_naming(store, about)
    runs = []
    for _, document_id, system in store.graphs("prov"):
        unedited = store.unedited_quads(document_id, system)
        if (
            named is not None
            and unedited is None
            and not named & {v.doc_graph(document_id, system), v.prov_graph(document_id, system)}
        ):
            continue  # neither names what the edit is about nor was changed by an edit: it stays as it is
        current = store.run_quads(document_id, system)
        base = unedited if unedited is not None else current
        edited = apply_edits(base, active)
        if set(edited) != set(current):
            runs.append((document_id, system, edited, base if set(edited) != set(base) else None))
        elif unedited is not None and set(edited) == set(base):
            runs.append((document_id, system, edited, None))  # no edit changes it any more
    failpoint("curation.edit-ready")
    store.rewrite_runs(
        runs, also=[f"INSERT DATA {{ {quad_data(record)} }}", f"DELETE DATA {{ {quad_data([_REBUILDING])} }}"]
    )
    failpoint("curation.edit-committed")
    store.flush()


def _graphs_naming(store: GraphStore, edit: Edit) -> set[str]:
    """The graphs where an entity the edit is about appears (as a subject or an object)."""
    by_kind: dict[str, list[str | None]] = {
        "merge": [edit.source],
        "rename": [edit.node],
        "remove": [(edit.fact or ("",))[0]],
    }
    iris = by_kind[edit.kind]
    return {
        q.graph_name.value
        for iri in filter(None, iris)
        for q in _quads_naming(store, iri)
        if isinstance(q.graph_name, ox.NamedNode)
    }


def _quads_naming(store: GraphStore, iri: str) -> list[ox.Quad]:
    """Every quad, in any graph, with ``iri`` as its subject or its object (two index look-ups)."""
    node = ox.NamedNode(iri)
    return [*store.oxigraph.quads_for_pattern(node, None, None), *store.oxigraph.quads_for_pattern(None, None, node)]


def _in_documents(quads) -> bool:
    return any(
        isinstance(q.graph_name, ox.NamedNode) and q.graph_name.value.startswith(v.DOC_GRAPH_PREFIX) for q in quads
    )


def _check(store: GraphStore, edit: Edit) -> None:
    """An edit names what the store holds: entities in some run, a fact some run states (one look-up
    each over every graph, not a read of the runs)."""

    def held(iri: str) -> bool:
        return _in_documents(_quads_naming(store, iri))

    def stated(subject: str, predicate: str, obj: str) -> bool:
        try:
            quads = store.oxigraph.quads_for_pattern(ox.NamedNode(subject), ox.NamedNode(predicate), None)
        except ValueError:  # not IRIs: no run states it
            return False
        return _in_documents(q for q in quads if term_value(q.object) == obj)

    if edit.kind == "merge":
        if edit.source is None or edit.target is None:
            raise UserError("a merge names the entity that goes and the one it becomes")
        if edit.source == edit.target:
            raise UserError("an entity cannot be merged into itself")
        missing = [iri for iri in (edit.source, edit.target) if not held(iri)]
    elif edit.kind == "rename":
        if edit.node is None:
            raise UserError("a rename names the entity to rename")
        missing = [] if held(edit.node) else [edit.node]
        if not (edit.label or "").strip():
            raise UserError("a new name cannot be empty")
    else:
        if edit.fact is None:
            raise UserError("a removal names the fact: subject, predicate and object")
        missing = [] if stated(*edit.fact) else [" | ".join(edit.fact)]
    if missing:
        raise DataNotFoundError(f"the store holds no {', '.join(missing)}")
