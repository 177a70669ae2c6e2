"""`graphwright graph edit merge|rename|remove|undo|list`: the user's edits of the stored graph, each
recorded, holding when documents are extracted again, and undoable (graphwright.curation)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table
from rich.text import Text

from graphwright.cli.app import graph_app
from graphwright.cli.common import console, fail
from graphwright.errors import GraphwrightError

edit_app = typer.Typer(no_args_is_help=True, help="Merge, rename or remove in the stored graph; undo any edit.")
graph_app.add_typer(edit_app, name="edit")
STORE = typer.Option(Path("out/store"), "--store")


def _on_store(store: Path, change):
    """``change(graph_store)`` on the store, after finishing what a stopped command left half done; its
    errors as the command's."""
    from graphwright.curation import finish_pending
    from graphwright.store import GraphStore

    try:
        with GraphStore.open(store, create=False) as graph_store:
            finish_pending(graph_store)
            return change(graph_store)
    except GraphwrightError as exc:
        fail(exc)


def _apply(store: Path, edit) -> None:
    from graphwright.curation import edit_graph

    labels, made = _on_store(store, lambda graph_store: (graph_store.labels(), edit_graph(graph_store, edit)))
    typer.echo(f"edit {made.number}: {made.describe(labels)} (undo with `graphwright graph edit undo {made.number}`)")


@edit_app.command("merge")
def merge(
    source: str = typer.Argument(..., help="The entity IRI that goes."),
    target: str = typer.Argument(..., help="The entity IRI it becomes."),
    store: Path = STORE,
) -> None:
    """Merge one entity into another in every document's graph (two names of one thing)."""
    from graphwright.curation import Edit

    _apply(store, Edit(0, "merge", source=source, target=target))


@edit_app.command("rename")
def rename(
    node: str = typer.Argument(..., help="The entity IRI."), label: str = typer.Argument(...), store: Path = STORE
) -> None:
    """Give an entity another name in every document's graph."""
    from graphwright.curation import Edit

    _apply(store, Edit(0, "rename", node=node, label=label))


@edit_app.command("remove")
def remove(
    subject: str,
    predicate: str,
    object: str = typer.Argument(..., help="An IRI, or a literal's value."),
    store: Path = STORE,
) -> None:
    """Remove a wrong fact; it stays removed when its document is extracted again."""
    from graphwright.curation import Edit

    _apply(store, Edit(0, "remove", fact=(subject, predicate, object)))


@edit_app.command("undo")
def undo(number: int = typer.Argument(..., help="The edit's number (`graph edit list`)."), store: Path = STORE) -> None:
    """Undo an edit; the others stay."""
    from graphwright.curation import undo_edit

    edit, labels = _on_store(store, lambda graph_store: (undo_edit(graph_store, number), graph_store.labels()))
    typer.echo(f"undid edit {edit.number}: {edit.describe(labels)}")


@edit_app.command("list")
def listing(store: Path = STORE) -> None:
    """Every edit, in the order made, and whether it was undone."""
    from graphwright.curation import edits
    from graphwright.store import GraphStore

    try:
        with GraphStore.open_for_reading(store) as graph_store:
            made, labels = edits(graph_store), graph_store.labels()
    except GraphwrightError as exc:
        fail(exc)
    table = Table("edit", "what", "state")
    for edit in made:
        table.add_row(str(edit.number), Text(edit.describe(labels)), "undone" if edit.undone else "active")
    console.print(table)
