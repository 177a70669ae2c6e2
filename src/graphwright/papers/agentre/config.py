"""Settings of ``agentre`` and of its single-call baselines."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Tool = Literal["samples", "guidelines", "kg", "memory"]
MemoryKind = Literal["shallow", "deep", "reflection"]


class AgentREConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt setting is an error, not a silent default

    dataset: str | None = Field(
        default=None,
        description="RE dataset whose schema and train pool to use (conll04, "
        "scierc, nyt, webnlg, duie2); set by `eval run`.",
    )
    schema_file: str | None = Field(default=None, description="Relation schema (YAML/JSON) instead of a dataset's.")
    pool_file: str | None = Field(
        default=None,
        description="Labelled samples (JSONL: text, triples [[head, relation, "
        "tail]]) for sample retrieval and memory, instead of the dataset's train split.",
    )
    pool_size: int | None = Field(default=1000, ge=1, description="First N pool samples used (the paper: 1,000).")
    mode: Literal["react", "direct", "staged", "cot"] = Field(
        default="react",
        description="react: the agent picks tools and when to finish; direct, staged (relation types "
        "first) and cot: fixed extraction with the retrieved context.",
    )
    tools: list[Tool] = Field(
        default=["samples", "guidelines", "kg", "memory"],
        description="Retrieval and memory the agent may use (ablations drop some).",
    )
    retriever: Literal["embedding", "bm25", "tfidf", "random"] = Field(
        default="embedding", description="How similar labelled samples are found."
    )
    k: int = Field(default=5, ge=1, le=20, description="Labelled samples per search (the paper: 5).")
    memory_dir: str | None = Field(
        default=None, description="Memory folder (warm it with `graphwright agentre warm-up`); none: no memory."
    )
    memory: list[MemoryKind] = Field(default=["shallow", "deep", "reflection"], description="Memory kinds used.")
    memory_k: int = Field(default=3, ge=1, le=10, description="Memory entries recalled per search.")
    max_iterations: int = Field(
        default=5,
        ge=0,
        le=20,
        description="Agent actions before it must finish; 0: it "
        "finishes at once with the prefetched observations (one call).",
    )
    copy_arguments: bool = Field(
        default=False,
        description="Heads and tails are chosen by constrained decoding "
        "among the sentence's word spans, so they cannot come from the examples.",
    )
    examples_as_turns: bool = Field(
        default=False,
        description="Fixed modes: the similar labelled samples are earlier "
        "exchanges of the chat (sentence, then its answer), not a block in the prompt.",
    )
    reask_ungrounded: bool = Field(
        default=False,
        description="When the extractor names a head or tail the sentence "
        "does not contain (fixed modes), ask once more, saying which names those were.",
    )
    escalate: int = Field(
        default=0,
        ge=0,
        le=3,
        description="Fixed modes: when the answer keeps no triple because "
        "every one named something the sentence lacks (a small model copying the examples), this many "
        "more calls with the examples as earlier chat turns, each time found by another retriever "
        "(the configured one, then the others of embedding, bm25, tfidf); the triples a majority of "
        "those answers name are kept.",
    )
    escalate_when: Literal["nothing_kept", "any_dropped"] = Field(
        default="nothing_kept",
        description="Which answers escalate: nothing_kept, those whose every triple named "
        "something the sentence lacks; any_dropped, also those with some such triple (the majority's triples are "
        "added to the ones kept).",
    )
    pool_types: bool = Field(
        default=False,
        description="Fixed modes: triples whose head or tail the labelled pool "
        "types as something their relation does not allow are dropped (a name the pool types "
        "one way in most of its mentions); names the pool does not type pass.",
    )
    check: Literal["none", "types", "pairs"] = Field(
        default="none",
        description="After the extractor (fixed modes): types: one call types the arguments it "
        "named, and triples whose types their relation does not allow get the one relation that fits or are "
        "dropped; pairs: also one checklist call decides every type-compatible pair of those arguments.",
    )
    max_pairs: int = Field(default=12, ge=1, le=40, description="Pairs one checklist call decides at most.")
    check_examples: int = Field(
        default=3,
        ge=0,
        le=10,
        description="Labelled samples shown to the typer and the "
        "checklist as worked examples (samples whose entities are typed).",
    )
    max_tokens: int = Field(default=512, ge=32, description="Completion budget of one call.")
    parse_retries: int = Field(default=2, ge=0, description="Re-asks with the parse error after a malformed answer.")
    token_budget: int | None = Field(
        default=30000, description="Prompt+completion tokens per document; None = unlimited."
    )
    seed: int = Field(default=0, description="Seed of the random retriever.")

    @model_validator(mode="after")
    def _has_schema(self) -> AgentREConfig:
        if not (self.dataset or self.schema_file):
            raise ValueError(
                "agentre needs a relation schema: set dataset=<conll04|scierc|nyt|webnlg|duie2> or "
                "schema_file=<path to a YAML/JSON schema>"
            )
        return self
