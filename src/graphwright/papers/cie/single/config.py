"""Settings of the single-call baseline."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from graphwright.kb.namespaces import parse_wikidata_id
from graphwright.papers.cie.common.config import input_sized_cap


class SingleConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt setting is an error, not a silent default

    max_entities: int = Field(
        default=50, ge=1, le=500, description="Entity candidates shown to the model (and in its schema)."
    )
    max_properties: int = Field(
        default=30, ge=1, le=500, description="Property candidates shown to the model (and in its schema)."
    )
    candidates_per_mention: int = Field(default=3, ge=1, le=20, description="KB records kept per spotted mention.")
    properties_per_sentence: int = Field(default=8, ge=1, le=50, description="Property search hits per sentence.")
    max_ngram: int = Field(
        default=5, ge=0, le=10, description="Longest word n-gram looked up as an exact label; 0: none (remote KBs)."
    )
    always_properties: list[str] = Field(
        default=["P31", "P279", "P106", "P27", "P17", "P131"],
        description='Properties always offered: frequent relations a text rarely words ("is an actor" -> occupation).',
    )
    max_retries: int = Field(default=2, ge=0, description="Re-asks with the parse error after a malformed answer.")
    max_tokens: int = Field(
        default=1024, ge=16, description="Completion budget of the call: a long text holds many triples."
    )
    cap_to_input: bool = Field(
        default=True,
        description="Cap the completion at the text's own length in tokens "
        "(within 128 and max_tokens): small models list noise after the real facts "
        "(docs/BENCHMARKS.md, output caps); false: max_tokens, as the 20-document "
        "benchmark of cie.single was measured.",
    )
    token_budget: int | None = Field(
        default=20000, description="Prompt+completion tokens per document; None = unlimited."
    )

    def completion_cap(self, text: str) -> int:
        """The completion budget for ``text``: max_tokens, or about one token per token of text."""
        return input_sized_cap(text, self.max_tokens) if self.cap_to_input else self.max_tokens

    @field_validator("always_properties")
    @classmethod
    def _property_ids(cls, value: list[str]) -> list[str]:
        ids = [parse_wikidata_id(v) for v in value]
        bad = [v for v, i in zip(value, ids) if not i or not i.startswith("P")]
        if bad:
            raise ValueError(f"not property ids: {', '.join(map(str, bad))} (write P31 or wdt:P31)")
        return list(dict.fromkeys(i for i in ids if i))
