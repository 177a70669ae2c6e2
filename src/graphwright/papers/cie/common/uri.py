"""URI retrieval as the supervisor architectures call it: compact (LLM-judged) or full."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphwright.papers.cie.common.turn import CieContext
from graphwright.tools.uri_retrieval import SearchRequest, render_results, uri_retrieval
from graphwright.tools.uri_summary import UriChoice, render_choices, summarize_results


def surface_roles(triples: list[dict[str, str]]) -> dict[str, tuple[str, str]]:
    """casefolded surface -> (surface as written, "entity" | "property"), in triple order."""
    roles: dict[str, tuple[str, str]] = {}
    for t in triples:
        for key in ("subject", "predicate", "object"):
            surface = t[key].strip()
            kind = "property" if key == "predicate" else "entity"
            roles.setdefault(surface.casefold(), (surface, kind))
    return roles


def complete_requests(
    requests: list[dict[str, Any]], triples: list[dict[str, str]], candidates: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The agent's searches, with the kind a surface form's role implies, plus a
    fused search for every surface form that has no candidates yet (small models
    forget some, or search a predicate as an entity)."""
    roles = surface_roles(triples)
    out, seen = [], set()
    for req in requests:
        key = req["term"].strip().casefold()
        if key in roles and req.get("mode") != "example":
            req = {**req, "kind": roles[key][1]}
        if (key, req["kind"], req.get("mode")) not in seen:
            seen.add((key, req["kind"], req.get("mode")))
            out.append(req)
    asked = {k for k, _, _ in seen}
    for key, (surface, kind) in roles.items():
        if key not in asked and key not in candidates:
            out.append({"term": surface, "mode": "fused", "kind": kind})
    return out


def complete_searches(
    requests: list[dict[str, Any]], triples: list[dict[str, str]], mapped: Sequence[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """``complete_requests`` for the supervisor architectures: surface forms that already have an
    IRI in the uri_mapping are not searched again."""
    return complete_requests(requests, triples, {m["surface"].strip().casefold(): m for m in mapped})


async def search_uris(
    ctx: CieContext, requests: list[dict[str, Any]] | list[SearchRequest], text: str, compact: bool
) -> tuple[str, list[UriChoice]]:
    """The tool's answer as text, and in compact mode the chosen IRI per term.

    Raises ModelOutputError for bad requests, which the caller feeds back."""
    parsed = [r if isinstance(r, SearchRequest) else SearchRequest.model_validate(r) for r in requests]
    results = uri_retrieval(ctx.kb, parsed, k=ctx.config.candidates_per_term)
    if not compact:
        return render_results(results), []
    choices = await summarize_results(ctx.llm, results, text)
    return render_choices(choices), choices


def merge_choices(mapping: list[dict[str, Any]], choices: list[UriChoice]) -> list[dict[str, Any]]:
    """uri_mapping entries {surface, iri, label}; a new choice for a term replaces the old one."""
    merged = {m["surface"].casefold(): m for m in mapping}
    for c in choices:
        if c.iri:
            merged[c.term.casefold()] = {"surface": c.term, "iri": c.iri, "label": c.label, "reason": c.reason}
    return list(merged.values())
