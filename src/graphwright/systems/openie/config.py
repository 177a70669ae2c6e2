"""Settings of ``openie``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class OpenIEConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt setting is an error, not a silent default

    max_triples: int = Field(default=12, ge=1, le=60, description="Triples asked for per passage.")
    max_tokens: int = Field(default=384, ge=32, description="Completion budget of one answer.")
    parse_retries: int = Field(default=2, ge=0, le=5, description="Corrections of an answer that does not parse.")
    max_relation_words: int = Field(default=6, ge=1, description="Longer relation phrases are dropped as sentences.")
    max_argument_words: int = Field(default=10, ge=1, description="Longer subjects and objects are dropped as clauses.")
    token_budget: int | None = Field(default=None, ge=1, description="Tokens one document may spend in all.")
