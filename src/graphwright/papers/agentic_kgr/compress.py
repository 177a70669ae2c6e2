"""Token-budgeted compression of tool observations (paper 004's prompt compression, in its simplest form):
keep the fields a tool's next decision depends on, cut long lists, and cut what is still over the budget.
Tokens are estimated at 4 characters each. The conversation itself is never rewritten, so a backend can
reuse its prefix and GRPO trains on exactly the tokens the policy saw."""

from __future__ import annotations

import json
from typing import Any

from graphwright.papers.agentic_kgr.trajectory import COVERAGE, DENSITY, DISAMBIGUATION, FEEDBACK, QUALITY, STORAGE

CHARS_PER_TOKEN = 4
LIST_ITEMS = 6
# the fields each tool's observation is reduced to
KEY_FIELDS = {
    DENSITY: ("needs_more_extraction", "density_assessment", "recommendations"),
    COVERAGE: ("coverage_score", "coverage_level", "missing_entity_types", "missing_relation_types"),
    QUALITY: ("overall_score", "quality_level", "dimension_scores"),
    FEEDBACK: ("trend", "should_continue_iteration", "strategy", "next_steps"),
    DISAMBIGUATION: ("quality_score", "summary", "standardization_suggestions", "warnings"),
    STORAGE: ("storage_status", "warnings", "refused"),
}


def estimate_tokens(text: str) -> int:
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def _trim(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _trim(v) for k, v in value.items() if v not in (None, [], {}, "")}
    if isinstance(value, list):
        return [_trim(v) for v in value[:LIST_ITEMS]] + (
            [f"... {len(value) - LIST_ITEMS} more"] if len(value) > LIST_ITEMS else []
        )
    return value


def cut(text: str, budget_tokens: int) -> str:
    limit = budget_tokens * CHARS_PER_TOKEN
    return text if len(text) <= limit else text[: max(0, limit - 3)] + "..."


def compress_observation(tool: str, observation: Any, budget_tokens: int | None) -> str:
    """The observation as prompt text: whole without a budget, else its key fields, trimmed and cut."""
    if budget_tokens is None:
        return json.dumps(observation, ensure_ascii=False)
    if isinstance(observation, dict) and tool in KEY_FIELDS:
        observation = {k: observation[k] for k in KEY_FIELDS[tool] if k in observation}
    return cut(json.dumps(_trim(observation), ensure_ascii=False), budget_tokens)
