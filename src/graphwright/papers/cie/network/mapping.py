"""Normalise and check the URI agent's mapping against the KB."""

from __future__ import annotations

import re
from typing import Any

from graphwright.kb.namespaces import is_wikidata_id, local_id, short_iri
from graphwright.papers.cie.common.uri import surface_roles
from graphwright.papers.cie.network.outputs import NO_IRI, Mapping

_ID_IN = re.compile(r"\b([PQ][1-9][0-9]*)\b")


def normalise_id(raw: str) -> str | None:
    """Accept ``wd:Q42``, ``Q42``, full IRIs and ``<...>``; return the bare id or None."""
    value = local_id(raw.strip().strip("<>"))
    if is_wikidata_id(value):
        return value
    m = _ID_IN.search(raw)
    return m.group(1) if m else None


def merge_mapping(kb, old: list[dict[str, Any]], new: list[Mapping]) -> tuple[list[dict[str, Any]], list[str]]:
    """New entries replace old ones for the same surface form; problems name unknown IRIs."""
    merged = {m["surface"].casefold(): m for m in old}
    problems = []
    for m in new:
        ident = normalise_id(m.iri)
        record = kb.get(ident) if ident else None
        if not ident or record is None:
            problems.append(f"IRI {m.iri!r} for {m.surface!r} is not in the knowledge base")
            continue
        merged[m.surface.casefold()] = {
            "surface": m.surface,
            "iri": short_iri(ident),
            "label": record.label,
            "description": record.description,
        }
    return list(merged.values()), problems


# --- retrieved candidates --------------------------------------------------
# The URI agent may only map a surface form to an IRI the tool showed for it:
# the candidates are kept in the state and become an enum in its schema.


def record_candidates(candidates: dict[str, dict[str, Any]], results) -> dict[str, dict[str, Any]]:
    """Add the tool's hits per search term (union over searches, retrieval order)."""
    merged = {k: {**v, "options": list(v["options"])} for k, v in candidates.items()}
    for res in results:
        key = res.request.term.strip().casefold()
        entry = merged.setdefault(key, {"term": res.request.term.strip(), "kind": res.request.kind, "options": []})
        known = {o["iri"] for o in entry["options"]}
        for c in res.candidates:
            iri = short_iri(c.id)
            if iri not in known:
                known.add(iri)
                entry["options"].append({"iri": iri, "label": c.label, "description": c.description})
    return merged


def mapping_choices(triples: list[dict[str, str]], candidates: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """surface -> the IRIs it may map to: its own hits, then hits of searches made
    under other words for the same kind (e.g. "CDU" searched for "Christian Democrats")."""
    roles = surface_roles(triples)
    loose: dict[str, list[str]] = {"entity": [], "property": []}
    for key, entry in candidates.items():
        if key not in roles:
            loose[entry["kind"]].extend(o["iri"] for o in entry["options"])
    choices = {}
    for key, (surface, kind) in roles.items():
        own = [o["iri"] for o in candidates.get(key, {}).get("options", [])]
        options = list(dict.fromkeys(own + loose[kind]))
        if options:
            choices[surface] = options
    return choices


def constrain_mapping(schema: dict[str, Any], route: str, choices: dict[str, list[str]]) -> dict[str, Any]:
    """In the variant for ``route``, ``uri_mapping`` becomes an object with one
    key per surface form whose value is one of its candidate IRIs or "none"."""
    if not choices:
        return schema
    for variant in schema.get("anyOf", []):
        if variant["properties"]["goto"].get("const") == route:
            variant["properties"]["uri_mapping"] = {
                "type": "object",
                "properties": {s: {"enum": [*iris, NO_IRI]} for s, iris in choices.items()},
                "required": list(choices),
                "additionalProperties": False,
            }
    return schema
