"""URI retrieval: map surface forms to KB IRIs (CIExMAS section 4.2.1)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from graphwright.errors import ModelOutputError
from graphwright.kb.namespaces import short_iri

SearchMode = Literal["fused", "label", "description", "example"]
Kind = Literal["entity", "property"]


class SearchRequest(BaseModel):
    term: str = Field(description="Words to look up: an entity name, a relation phrase or a short sentence.")
    mode: SearchMode = Field(
        default="fused",
        description="fused (label and description together) | label | description | example (properties only).",
    )
    kind: Kind = Field(description="entity for subjects/objects, property for relations.")


class Candidate(BaseModel):
    id: str
    label: str | None
    description: str | None
    example: str | None = None
    score: float


class SearchResult(BaseModel):
    request: SearchRequest
    candidates: list[Candidate]


def uri_retrieval(kb, requests: list[SearchRequest], *, k: int = 5) -> list[SearchResult]:
    """Search the KB for each request.

    kb: the knowledge base to search. requests: one entry per surface form to
    map; ``mode`` picks the label, description or property-example index and
    ``kind`` restricts hits to entities or properties. k: candidates per term.
    """
    if not requests:
        raise ModelOutputError("The URI retrieval tool needs at least one search request in tool_input.")
    results = []
    for req in requests:
        if req.mode == "example" and req.kind != "property":
            raise ModelOutputError(f"Search mode 'example' is for properties only (term {req.term!r}).")
        hits = kb.search(req.term, kind=req.kind, mode=req.mode, k=k)
        results.append(
            SearchResult(
                request=req,
                candidates=[
                    Candidate(
                        id=h.record.id,
                        label=h.record.label,
                        description=h.record.description,
                        example=(h.record.examples[0] if h.record.examples else None),
                        score=round(float(h.score), 3),
                    )
                    for h in hits
                ],
            )
        )
    return results


def render_results(results: list[SearchResult]) -> str:
    """Compact text for the agent: one block per term, one line per candidate."""
    lines = []
    for res in results:
        req = res.request
        lines.append(f'"{req.term}" ({req.kind}, {req.mode}):')
        if not res.candidates:
            lines.append("  no match; try other words or another mode")
        for c in res.candidates:
            desc = f" - {_clip(c.description, 90)}" if c.description else ""
            ex = f" e.g. {_clip(c.example, 60)}" if c.example and c.id.startswith("P") else ""
            lines.append(f"  {short_iri(c.id)} {c.label or '?'}{desc}{ex}")
    return "\n".join(lines)


def _clip(text: str, limit: int) -> str:
    """Keep tool answers short: prompt tokens are the main cost on a laptop."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
