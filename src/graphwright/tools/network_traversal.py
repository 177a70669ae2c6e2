"""Network traversal: a property's direct super- and sub-properties (CIExMAS section 4.2.2).

Helps an agent replace a too general or too narrow property: it lists the neighbours in the
subproperty-of (P1647 / rdfs:subPropertyOf) hierarchy with labels and usage examples and, given
the triple's subject and object, whether each candidate's type constraints fit them (one
superclass level, as in the paper, so the answer stays small and cycles cannot blow it up).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from graphwright.errors import ModelOutputError
from graphwright.kb.namespaces import parse_wikidata_id, short_iri
from graphwright.tools.type_constraints import check_type

ONE_LEVEL = 1


class TraversalRequest(BaseModel):
    property: str = Field(description="the property to look around, e.g. wdt:P463")
    subject: str = Field(default="", description="optional: the triple's subject, e.g. wd:Q567")
    object: str = Field(default="", description="optional: the triple's object, e.g. wd:Q49762")


class PropertyView(BaseModel):
    id: str
    label: str
    description: str = ""
    example: str | None = None
    relation: Literal["self", "super", "sub"]
    fits: bool | None = None  # the triple's types meet this property's constraints (None: unknown)
    notes: list[str] = Field(default_factory=list)


class Traversal(BaseModel):
    request: TraversalRequest
    properties: list[PropertyView]  # the property itself first, then supers, then subs


def _entity(value: str, role: str) -> str | None:
    if not value.strip():
        return None
    ident = parse_wikidata_id(value)
    if ident is None or not ident.startswith("Q"):
        raise ModelOutputError(f"network traversal: {role} {value!r} is not an entity IRI (wd:Q...)")
    return ident


def network_traversal(kb, request: TraversalRequest) -> Traversal:
    """Neighbours of ``request.property`` and, with subject/object given, which of them fit the triple.

    Raises ModelOutputError (fed back to the agent) for an unknown property or malformed IRIs.
    """
    pid = parse_wikidata_id(request.property)
    prop = kb.get(pid) if pid and pid.startswith("P") else None
    if prop is None or prop.kind != "property":
        raise ModelOutputError(f"network traversal: {request.property!r} is not a known property (wdt:P...)")
    subject, obj = _entity(request.subject, "subject"), _entity(request.object, "object")
    views = [_view(kb, prop, "self", subject, obj)]
    views += [_view(kb, p, "super", subject, obj) for p in kb.super_properties(prop.id)]
    views += [_view(kb, p, "sub", subject, obj) for p in kb.sub_properties(prop.id)]
    return Traversal(request=request, properties=views)


def _view(kb, prop, relation: str, subject: str | None, obj: str | None) -> PropertyView:
    view = PropertyView(
        id=prop.id,
        label=prop.label or "?",
        description=prop.description,
        relation=relation,
        example=prop.examples[0] if prop.examples else None,
    )
    verdicts = []
    if subject:
        verdicts.append(check_type(kb, subject, prop, "subject", depth=ONE_LEVEL))
    if obj:
        verdicts.append(check_type(kb, obj, prop, "value", depth=ONE_LEVEL))
    view.notes = [v.reason for v in verdicts if v.reason]
    if any(v.fits is False for v in verdicts):
        view.fits = False
    elif verdicts and all(v.fits for v in verdicts):
        view.fits = True
    return view


def render_traversal(result: Traversal) -> str:
    lines = []
    names = {"self": "property", "super": "broader (super-property)", "sub": "narrower (sub-property)"}
    for v in result.properties:
        fit = {True: " [types fit]", False: " [types do not fit]", None: ""}[v.fits]
        line = f"{names[v.relation]}: {short_iri(v.id)} {v.label}{fit}"
        if v.description:
            line += f" - {v.description[:90]}"
        if v.example:
            line += f" e.g. {v.example[:60]}"
        lines.append(line)
        lines += [f"  note: {n}" for n in v.notes]
    if len(result.properties) == 1:
        lines.append("No super- or sub-properties are known for it.")
    return "\n".join(lines)
