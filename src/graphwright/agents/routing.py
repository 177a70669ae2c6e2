"""JSON Schemas that tie an agent's ``goto`` to the payload that route needs.

A flat output model allows ``goto: uri_retrieval_tool`` with an empty
``tool_input``; a small model at temperature 0 then repeats that answer
however often the error is fed back. The routed schema is an ``anyOf`` with
one variant per route, where ``goto`` is a constant and the fields that route
needs must be non-empty, so constrained decoding cannot produce the mismatch.
The flat model still parses every variant (and the XML-tag protocol).
"""

from __future__ import annotations

import copy
from typing import Any


def routed_schema(
    base: dict[str, Any],
    needs: dict[str, tuple[str, ...]],
    routes: list[str] | None = None,
    empties: dict[str, tuple[str, ...]] | None = None,
) -> dict[str, Any]:
    """``base``: the flat model's schema; ``needs``: route -> fields that must be non-empty;
    ``routes``: the routes open in this turn (default: all); ``empties``: route -> fields
    fixed to ``[]`` or ``""`` (saves tokens and keeps the model from filling them with guesses).
    """
    defs = base.get("$defs", {})
    goto_values = [r for r in _goto_values(base["properties"]["goto"], defs) if routes is None or r in routes]
    variants = []
    for route in goto_values:
        props = copy.deepcopy(base["properties"])
        props["goto"] = {"const": route, "type": "string"}
        for name in (empties or {}).get(route, ()):
            props[name] = _empty(props[name])
        for name in needs.get(route, ()):
            props[name] = _non_empty(props[name])
        variants.append({"type": "object", "properties": props, "required": list(props)})
    schema: dict[str, Any] = {"title": base.get("title", "Output"), "anyOf": variants}
    if defs:
        schema["$defs"] = defs
    return schema


def _goto_values(prop: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    if "$ref" in prop:
        prop = defs[prop["$ref"].rsplit("/", 1)[1]]
    if "enum" in prop:
        return list(prop["enum"])
    return [prop["const"]]


def _empty(prop: dict[str, Any]) -> dict[str, Any]:
    if prop.get("type") == "array":
        return {"type": "array", "maxItems": 0, "items": prop.get("items", {})}
    return {"type": "string", "const": ""}


def _non_empty(prop: dict[str, Any]) -> dict[str, Any]:
    prop = {k: v for k, v in prop.items() if k != "default"}
    if prop.get("type") == "array":
        prop["minItems"] = 1
    elif prop.get("type") == "string":
        prop["minLength"] = 1
    return prop
