"""Settings of ``agentic-kgr`` and of its single-call baseline."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

LoopTool = Literal["quality", "feedback", "coverage"]


class AgenticKGRConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dataset: str | None = Field(
        default=None, description="RE dataset whose schema to use (conll04, nyt, duie2, ...); set by `eval run`."
    )
    schema_file: str | None = Field(default=None, description="Relation schema (YAML/JSON) instead of a dataset's.")
    entity_types: list[str] = Field(default_factory=list, description="Entity types beside those the relations name.")
    demos: int = Field(
        default=0,
        ge=0,
        le=10,
        description="Labelled examples before the text: the train sentences "
        "most similar to it (a dataset's train split, or pool_file).",
    )
    pool_file: str | None = Field(
        default=None,
        description="Labelled samples (JSONL: text, triples [[head, relation, "
        "tail]]) for the examples, instead of the dataset's train split.",
    )
    mode: Literal["guided", "agent", "single"] = Field(
        default="guided",
        description="guided: the system calls the tools the workflow requires and the model only "
        "extracts; agent: the model chooses every action (the paper's policy, for training); single: one extraction "
        "call (the baseline).",
    )
    max_steps: int = Field(default=10, ge=1, le=40, description="Actions per document (the paper: 10).")
    density_threshold: float = Field(
        default=0.7,
        ge=0.0,
        le=1.0,
        description="Complexity-adjusted adequacy below "
        "which the density tool asks for more (the paper: typically 0.65-0.80).",
    )
    loop_tools: list[LoopTool] = Field(
        default=["quality", "feedback"], description="guided: the optional tools called before each re-extraction."
    )
    max_iterations: int = Field(default=5, ge=1, description="The iterative-feedback tool's iteration limit.")
    disambiguation_strategy: Literal["exact_match", "semantic_similarity"] = "exact_match"
    similarity_threshold: float = Field(default=0.8, ge=0.0, le=1.0)
    embedder: str = Field(default="minilm", description="Embedding model of semantic_similarity.")
    standardize: bool = Field(
        default=True, description="Rename entities to the graph's name for them (matches of confidence 0.9 and more)."
    )
    observation_tokens: int | None = Field(
        default=400,
        ge=20,
        description="Budget of one tool observation in a prompt, in estimated tokens; None keeps observations whole.",
    )
    max_tokens: int = Field(default=512, ge=32, description="Completion budget of one call.")
    parse_retries: int = Field(default=1, ge=0, description="Re-asks with the parse error after a malformed answer.")
    token_budget: int | None = Field(
        default=30000, description="Prompt+completion tokens per document; None = unlimited."
    )

    @model_validator(mode="after")
    def _has_schema(self) -> AgenticKGRConfig:
        if not (self.dataset or self.schema_file):
            raise ValueError(
                "agentic-kgr needs a relation schema: set dataset=<conll04|nyt|duie2|...> or "
                "schema_file=<path to a YAML/JSON schema>"
            )
        return self
