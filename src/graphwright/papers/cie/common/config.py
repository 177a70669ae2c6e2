"""Settings every CIExMAS agent architecture has; each architecture may add its own."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class CieConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt setting is an error, not a silent default

    max_steps: int = Field(default=10, ge=2, description="Agent calls before the run is wrapped up (step limit).")
    recursion_limit: int = Field(
        default=80, description="LangGraph super-step backstop; above max_steps plus tool steps."
    )
    output_format: Literal["json", "xml"] = Field(
        default="json", description="json: schema-constrained decoding; xml: the paper's tag protocol."
    )
    parse_retries: int = Field(default=2, ge=0, description="Re-asks with the parse error inside one agent call.")
    finish_retries: int = Field(default=1, ge=0, description="Times a rejected final Turtle goes back for repair.")
    candidates_per_term: int = Field(default=3, ge=1, le=20, description="URI retrieval hits per search term.")
    max_tokens: int = Field(default=512, description="Completion budget of one agent call.")
    extractor_max_tokens: int = Field(default=1024, description="Budget of calls that list triples or write Turtle.")
    token_budget: int | None = Field(
        default=60000, description="Prompt+completion tokens per document; None = unlimited."
    )
    trace_chars: int = Field(default=400, description="Characters of each call shown in the call trace to agents.")
    salvage_cut_off: bool = Field(
        default=True,
        description="Keep the complete part of an answer cut off at the token "
        "limit when it validates, instead of retrying (small models loop in long lists).",
    )
    max_agent_calls: int = Field(
        default=2,
        ge=1,
        description="Supervisor architectures: calls per specialist agent "
        "(small models re-run an extractor that already answered until the step limit).",
    )


def input_sized_cap(text: str, ceiling: int, floor: int = 128) -> int:
    """A completion budget that follows the input: about one token per token of text (4 characters),
    at least ``floor`` and at most ``ceiling``. Right answers come early; a small model at a large cap
    goes on listing noise (docs/BENCHMARKS.md, output caps)."""
    return min(ceiling, max(floor, len(text) // 4))
