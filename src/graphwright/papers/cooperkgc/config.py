"""Settings of ``cooperkgc`` and its baselines."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Mode = Literal["collaborate", "single", "two-stage", "vote"]


class CooperKGCConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt setting is an error, not a silent default

    dataset: str | None = Field(
        default=None,
        description="Set by `eval run`: the dataset's task is the target, "
        "and its expert gets the dataset's schema and pool; the others keep theirs.",
    )
    target: Literal["ner", "re", "ee"] | None = Field(
        default=None,
        description="The task whose answer is the "
        "result (the others only advise); default: the dataset's task, "
        "or all three without a dataset.",
    )
    ner: str = Field(
        default="news",
        description="The NER expert's background: news (CoNLL-2003's four types), an "
        "NER dataset, or an entity domain file (YAML: domain, types).",
    )
    re: str = Field(
        default="news",
        description="The RE expert's background: news (12 NYT-style relations), an RE "
        "dataset, or a relation schema file (YAML: relations with head and tail types).",
    )
    ee: str = Field(
        default="news",
        description="The EE expert's background: news (ACE 2005's 33 event types), an "
        "EE dataset, or an event schema file (YAML: events with roles).",
    )
    team: list[str] = Field(
        default=["ner", "re", "ee"],
        description="The experts: a task (ner, re, ee) takes its "
        "background above; 'task:source' adds one with another background (the paper's Table 3).",
    )
    mode: Mode = Field(
        default="collaborate",
        description="collaborate: the paper's rounds; single: one call per "
        "task (AutoKG); two-stage: the labels first, then the extraction (ChatIE); vote: three "
        "members of a task, majority vote (self-consistency).",
    )
    rounds: int = Field(
        default=4, ge=0, le=10, description="Collaboration rounds after the independent round 0 (the paper: 4)."
    )
    task_rounds: dict[Literal["ner", "re", "ee"], int] = Field(
        default={},
        description="Rounds an expert of a task "
        "revises in, when fewer than `rounds` (the paper: NER "
        "peaked at round 2, RE at 3); it keeps its last answer after.",
    )
    settle: bool = Field(
        default=True,
        description="Stop when a round changes no answer: at temperature 0 every "
        "later round would repeat it word for word.",
    )
    demos: int = Field(
        default=0,
        ge=0,
        le=8,
        description="Nearest labelled examples shown to each expert (the "
        "paper: 0 or 1); an expert whose background is a schema file has none.",
    )
    max_tokens: int = Field(default=384, ge=32, description="Completion budget of one answer.")
    parse_retries: int = Field(default=1, ge=0, description="Re-asks with the parse error inside one answer.")
    token_budget: int | None = Field(
        default=80000, description="Prompt+completion tokens per document; None = unlimited."
    )

    @field_validator("team")
    @classmethod
    def _team(cls, value: list[str]) -> list[str]:
        for member in value:
            task = member.partition(":")[0]
            if task not in ("ner", "re", "ee"):
                raise ValueError(f"team member {member!r}: the task must be ner, re or ee")
        if not value:
            raise ValueError("the team needs at least one expert")
        return value
