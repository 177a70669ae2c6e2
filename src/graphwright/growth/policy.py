"""The thresholds of the growing graph; the defaults are Agentic-KGR's example values (paper 004, A.5)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class GrowthPolicy(BaseModel):
    """How observations become edges, how edges are promoted and how they age.

    An edge's confidence is its system's (``default_confidence`` when the system gives none). An edge
    below ``stage_below``, or of a relation type outside the allow-list, waits in the staging area; it is
    promoted once its confidence reaches ``promote_confidence`` and ``promote_votes`` documents support it.
    Each further supporting document raises the confidence as an independent witness would
    (``1 - (1 - c_old)(1 - c_new)``), so default-confidence edges can be promoted by agreement alone.
    """

    model_config = ConfigDict(extra="forbid")

    default_confidence: float = Field(0.5, ge=0.0, le=1.0)
    stage_below: float = Field(0.5, ge=0.0, le=1.0, description="Edges less confident than this are staged.")
    promote_confidence: float = Field(0.72, ge=0.0, le=1.0)
    promote_votes: int = Field(3, ge=1, description="Distinct documents that must support a staged edge.")
    clock: Literal["days", "episodes"] = Field("days", description="What ageing counts since an edge was last seen.")
    soft_window: float = Field(7, ge=0, description="Age after which confidence decays.")
    hard_window: float = Field(45, ge=0, description="Age after which an edge is removed.")
    decay_rate: float = Field(0.08, ge=0.0, description="confidence x exp(-rate x (age - soft_window)).")
    resolve_threshold: float = Field(
        0.92, ge=0.0, le=1.0, description="Cosine similarity of two names' embeddings that merges them."
    )
    embedder: str | None = Field(
        "minilm", description="Embedding model for name similarity; None: exact and alias only."
    )
    allow_kb_terms: bool = Field(True, description="Wikidata properties and classes are in the schema from the start.")
    self_loops: list[str] = Field(default_factory=list, description="Relation IRIs allowed from a node to itself.")
    evidence_cap: int = Field(20, ge=1, description="Evidence sentences kept per edge (votes count them all).")
