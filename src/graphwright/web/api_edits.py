"""The user's edits over HTTP: merge two entities, rename one, remove a fact, list them, undo one
(graphwright.curation). Each runs in the event loop where jobs write, so none interleaves with a job's
write, and the graph page re-reads every run."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from graphwright.errors import DataNotFoundError, GraphwrightError
from graphwright.web.api_jobs import server

router = APIRouter(tags=["edits"])


class EditRequest(BaseModel):
    kind: Literal["merge", "rename", "remove"]
    source: str | None = Field(None, description="merge: the entity IRI that goes")
    target: str | None = Field(None, description="merge: the entity IRI it becomes")
    node: str | None = Field(None, description="rename: the entity IRI")
    label: str | None = Field(None, description="rename: its new name")
    fact: list[str] | None = Field(None, min_length=3, max_length=3, description="remove: subject, predicate, object")


def _row(edit, labels: dict[str, str]) -> dict[str, Any]:
    return {"number": edit.number, "kind": edit.kind, "what": edit.describe(labels), "undone": edit.undone}


@router.get("/api/edits")
def list_edits(request: Request) -> list[dict[str, Any]]:
    from graphwright.curation import edits

    store = server(request).store
    labels = store.labels()
    return [_row(e, labels) for e in edits(store)]


@router.post("/api/edits")
async def make_edit(request: Request, body: EditRequest) -> dict[str, Any]:
    """Record an edit and apply it to every stored run it changes; it holds for documents extracted later."""
    from graphwright.curation import Edit, edit_graph

    state = server(request)
    # the request model allows exactly three items
    fact = (body.fact[0], body.fact[1], body.fact[2]) if body.fact else None
    labels = state.store.labels()  # before the edit: a removed fact's property may have no label after it
    try:
        edit = edit_graph(state.store, Edit(0, body.kind, body.source, body.target, body.node, body.label, fact))
    except DataNotFoundError as exc:
        raise HTTPException(404, str(exc)) from exc
    except GraphwrightError as exc:
        raise HTTPException(400, str(exc)) from exc
    state.graph.reset()
    state.runner.graph_changed()
    return _row(edit, labels)


@router.post("/api/edits/{number}/undo")
async def undo(request: Request, number: int) -> dict[str, Any]:
    from graphwright.curation import undo_edit

    state = server(request)
    try:
        edit = undo_edit(state.store, number)
    except DataNotFoundError as exc:
        raise HTTPException(404, str(exc)) from exc
    state.graph.reset()
    state.runner.graph_changed()
    return _row(edit, state.store.labels())
