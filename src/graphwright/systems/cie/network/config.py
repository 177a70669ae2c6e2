"""Settings of the CIExMAS network architecture."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class NetworkConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt setting is an error, not a silent default

    max_steps: int = Field(default=8, ge=3, description="Agent calls before the run is wrapped up (step limit).")
    recursion_limit: int = Field(default=60, description="LangGraph super-step backstop; above max_steps plus tool steps.")
    output_format: Literal["json", "xml"] = Field(
        default="json", description="json: schema-constrained decoding; xml: the paper's tag protocol."
    )
    strict_routing: bool = Field(
        default=True, description="Routes close by the state (see routes.py): search before mapping, check before judging."
    )
    max_repairs: int = Field(default=1, ge=0, description="Strict routing: times the validation agent may send work back.")
    parse_retries: int = Field(default=2, ge=0, description="Re-asks with the parse error inside one agent call.")
    finish_retries: int = Field(default=1, ge=0, description="Times a rejected final Turtle goes back for repair.")
    candidates_per_term: int = Field(default=3, ge=1, le=20, description="URI retrieval hits shown per search term.")
    max_tokens: int = Field(default=512, description="Completion budget of one agent call.")
    extractor_max_tokens: int = Field(default=1024, description="The extractor's budget: a long text holds many triples.")
    token_budget: int | None = Field(default=60000, description="Prompt+completion tokens per document; None = unlimited.")
    trace_chars: int = Field(default=400, description="Characters of each call shown in the call trace to agents.")
