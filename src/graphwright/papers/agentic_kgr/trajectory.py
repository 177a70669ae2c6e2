"""What one rollout did, step by step: the record the rewards, the traces and GRPO training read."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from graphwright.papers.agentic_kgr.kg_json import KG

EXTRACT, FINISH = "extract", "finish"
DENSITY, COVERAGE, QUALITY, FEEDBACK, DISAMBIGUATION, STORAGE = (
    "query_extraction_density",
    "query_coverage_feedback",
    "query_quality_metrics",
    "query_iterative_feedback",
    "query_entity_disambiguation",
    "query_kg_storage",
)
TOOLS = (DENSITY, COVERAGE, QUALITY, FEEDBACK, DISAMBIGUATION, STORAGE)


@dataclass
class Step:
    action: str
    arguments: dict[str, Any] = field(default_factory=dict)
    observation: Any = None
    success: bool = True
    error: str | None = None
    raw: str | None = None  # the model's answer, for steps the model wrote
    by_model: bool = True  # False: the system took the step (guided mode, or a required step at the end)
    format_valid: bool | None = None  # extraction steps: did the answer follow the format


@dataclass
class Trajectory:
    steps: list[Step] = field(default_factory=list)
    kg: KG | None = None  # the extraction stored (or the last one)
    stopped: str = ""  # why the rollout ended
    messages: list[dict[str, str]] = field(default_factory=list)  # agent mode: the policy's conversation

    def add(self, step: Step) -> Step:
        self.steps.append(step)
        return step

    def extractions(self) -> list[KG]:
        return [KG.model_validate(s.arguments["kg"]) for s in self.steps if s.action == EXTRACT and s.success]

    def tool_calls(self) -> list[Step]:
        return [s for s in self.steps if s.action in TOOLS]

    def called(self, tool: str) -> bool:
        return any(s.action == tool and s.success for s in self.steps)

    def to_json(self) -> dict[str, Any]:
        return {
            "steps": [asdict(s) for s in self.steps],
            "kg": self.kg.model_dump() if self.kg else None,
            "stopped": self.stopped,
            "messages": self.messages,
        }
