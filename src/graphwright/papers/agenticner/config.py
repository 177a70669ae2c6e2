"""Settings of ``agenticner`` and its single-call baseline."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graphwright.model.domain import EntityDomain

DOMAIN_KEYS = ("name", "domain", "types", "language")


class AgenticNERConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt setting is an error, not a silent default

    dataset: str | None = Field(
        default=None, description="NER dataset whose domain, examples and KB to use; set by `eval run`."
    )
    domain_file: str | None = Field(
        default=None, description="Entity domain (YAML: domain, types) instead of a dataset's."
    )
    entity_domain: EntityDomain | None = Field(
        default=None,
        description="The entity domain itself; a configuration "
        "file may write its name, domain and types at the top level.",
    )
    examples_file: str | None = Field(
        default=None,
        description="Labelled examples (JSONL: tokens and IOB2 tags, or "
        "text with inline <Type> tags) instead of the dataset's train split.",
    )
    kb_file: str | None = Field(
        default=None,
        description="Grounding KB (JSONL phrase/types or TSV) instead of the one built from the examples' data.",
    )
    corpus: list[str] = Field(default=[], description="Text files or folders the offline researcher searches.")
    search_url: str | None = Field(default=None, description="Tavily-style web search API for the researcher.")
    search_api_key: str | None = Field(default=None, description="API key of the web search.")
    examples: int = Field(default=3, ge=0, le=20, description="Few-shot examples (the paper: 3, 12 for Astro-NER).")
    metaprompt: bool = Field(
        default=True,
        description="The LLM writes the tagger prompt from a base prompt (cached); false: the template prompt.",
    )
    reviewer: bool = Field(default=True, description="A reviewer checks the tagger's output.")
    researcher: bool = Field(default=True, description="A researcher answers <search> questions.")
    grounding: bool = Field(default=True, description="One revision round against the grounding KB.")
    kb_types: bool = Field(
        default=False,
        description="The grounding KB's type replaces a tagged type it contradicts, "
        "instead of being suggested to the tagger (a small tagger keeps its answer).",
    )
    kb_spot: bool = Field(
        default=False,
        description="Phrases the grounding KB knows that the tagger left untagged are tagged with the KB's type.",
    )
    kb_min_tagged_share: float = Field(
        default=0.5,
        ge=0,
        lt=1,
        description="kb_spot tags a phrase only if the labelled data tags more than this share of its occurrences.",
    )
    max_turns: int = Field(default=10, ge=1, le=50, description="Speaking turns of all agents (the paper: 10).")
    stop_on_repeat: bool = Field(
        default=True,
        description="End the review when the tagger answers feedback with "
        "the same output again (at temperature 0 the chat loops to the turn cap); the paper: no.",
    )
    min_coverage: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Share of the text an <output> must reproduce "
        "(character alignment); less, and the tagger is asked again for the tagged text.",
    )
    max_tokens: int = Field(default=512, ge=64, description="Completion budget of one turn.")
    token_budget: int | None = Field(
        default=30000, description="Prompt+completion tokens per document; None = unlimited."
    )
    seed: int = Field(default=0, description="Seed of the example sampling.")

    @model_validator(mode="before")
    @classmethod
    def _inline_domain(cls, data: Any) -> Any:
        """``--config domain.yaml``: a domain file with settings beside it is a whole configuration."""
        if isinstance(data, dict) and "types" in data:
            data = dict(data)
            data["entity_domain"] = {"name": "user-domain", **{k: data.pop(k) for k in DOMAIN_KEYS if k in data}}
        return data

    @model_validator(mode="after")
    def _has_domain(self) -> AgenticNERConfig:
        if not (self.dataset or self.domain_file or self.entity_domain):
            raise ValueError(
                "agenticner needs an entity domain: set dataset=<name> or "
                "domain_file=<domain.yaml>, or pass --config domain.yaml"
            )
        return self
