"""URI retrieval as the supervisor architectures call it: compact (LLM-judged) or full."""

from __future__ import annotations

from typing import Any

from graphwright.systems.cie.common.turn import CieContext
from graphwright.tools.uri_retrieval import SearchRequest, render_results, uri_retrieval
from graphwright.tools.uri_summary import UriChoice, render_choices, summarize_results


def complete_searches(requests: list[dict[str, Any]], triples: list[dict[str, str]],
                      mapped: list[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """The agent's searches plus a fused search for every subject, predicate and object of the
    triples that it left out and that has no IRI yet: small models search the entities and forget
    the predicates."""
    out = list(requests)
    asked = {str(r.get("term", "")).strip().casefold() for r in requests} | {m["surface"].casefold() for m in mapped}
    for t in triples:
        for key in ("subject", "predicate", "object"):
            term = str(t.get(key, "")).strip()
            if term and term.casefold() not in asked:
                asked.add(term.casefold())
                out.append({"term": term, "mode": "fused", "kind": "property" if key == "predicate" else "entity"})
    return out


async def search_uris(ctx: CieContext, requests: list[dict[str, Any]] | list[SearchRequest], text: str,
                      compact: bool) -> tuple[str, list[UriChoice]]:
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
