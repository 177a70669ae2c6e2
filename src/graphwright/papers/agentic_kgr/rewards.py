"""Agentic-KGR's rewards (paper 004, section 2.2 and Eqs. 8-11), each term on its own so each can be logged.

R = alpha x R_env + (1 - alpha) x R_task, with R_task = result + tool-call + trajectory reward:

* tool calls: +0.05 per successful call and -0.1 per failed one; a call repeating an earlier one on the same
  extraction (same tool, same arguments) earns half of what the previous repeat did; the sum is capped at 0.5.
  Only the policy's own calls count, not the steps the system took for it.
* result: format +1.0 when the final extraction follows the JSON format, else -1.0 (and nothing else);
  accuracy 1.5 for a full match with the gold graph, else the F1 of entity names and relation triples; minus
  the density penalty | |A| - |B| | / |B| x 0.15 when the answer has more items than the gold, x 0.8 when fewer.
* trajectory (the paper names it without a formula; ours): +0.2 when the policy finished the workflow itself,
  -0.2 when the system had to take required steps for it, -0.02 per step beyond the five a minimal rollout
  needs (extract, density, disambiguation, storage, finish).
* environment, from the growing graph before and after the rollout: coverage gain per node (Eq. 9, kappa 0.5,
  one hop) + degree-entropy gain (A.5's proxy for Eq. 10) - lambda_contr x sum of squared violation shares
  (self-loops, invalid relations and types, dangling edges: Eq. 8) - lambda_T x ||L_after - L_before||_F.
  The paper subtracts exp(-beta ||dL||), which rewards large changes; the penalty here grows with the change,
  as the paper's stated intent asks.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass

from graphwright.growth.lifecycle import Checks
from graphwright.growth.metrics import Topology, coverage, degree_entropy, laplacian_change
from graphwright.papers.agentic_kgr.analysis import normalize_name
from graphwright.papers.agentic_kgr.kg_json import KG
from graphwright.papers.agentic_kgr.trajectory import EXTRACT, TOOLS, Trajectory


@dataclass(frozen=True)
class RewardSettings:
    tool_success: float = 0.05
    tool_failure: float = -0.1
    redundancy_decay: float = 0.5
    tool_cap: float = 0.5
    format_reward: float = 1.0
    full_match: float = 1.5
    over_rate: float = 0.15
    under_rate: float = 0.8
    completed: float = 0.2
    forced: float = 0.2
    extra_step: float = 0.02
    minimal_steps: int = 5
    kappa: float = 0.5
    lambda_contr: float = 1.0
    lambda_t: float = 0.1
    alpha: float = 0.3


def toolcall_reward(trajectory: Trajectory, s: RewardSettings = RewardSettings()) -> float:
    total, extraction = 0.0, 0
    seen: Counter[tuple[int, str, str]] = Counter()
    for step in trajectory.steps:
        if step.action == EXTRACT and step.success:
            extraction += 1
        if step.action not in TOOLS or not step.by_model:
            continue
        if not step.success:
            total += s.tool_failure
            continue
        key = (extraction, step.action, json.dumps(step.arguments, sort_keys=True))
        total += s.tool_success * s.redundancy_decay ** seen[key]
        seen[key] += 1
    return min(total, s.tool_cap)


def items(kg: KG) -> set[tuple[str, ...]]:
    """What the result reward compares: entity names and relation triples, case and spacing aside."""
    return {("entity", normalize_name(n)) for n in kg.entity_names()} | {
        ("relation", normalize_name(a), r, normalize_name(b)) for a, r, b in kg.triples()
    }


def f1(predicted: set, gold: set) -> float:
    hits = len(predicted & gold)
    return 2 * hits / (len(predicted) + len(gold)) if predicted or gold else 1.0


def result_reward(
    kg: KG | None, format_valid: bool, gold: KG, s: RewardSettings = RewardSettings()
) -> dict[str, float]:
    if kg is None or not format_valid:
        return {"format": -s.format_reward, "accuracy": 0.0, "density_penalty": 0.0, "total": -s.format_reward}
    predicted, wanted = items(kg), items(gold)
    accuracy = s.full_match if predicted == wanted else f1(predicted, wanted)
    if wanted:
        gap = (len(predicted) - len(wanted)) / len(wanted)
        penalty = abs(gap) * (s.over_rate if gap > 0 else s.under_rate)
    else:
        penalty = s.over_rate * len(predicted)
    return {
        "format": s.format_reward,
        "accuracy": accuracy,
        "density_penalty": penalty,
        "total": s.format_reward + accuracy - penalty,
    }


def trajectory_reward(trajectory: Trajectory, s: RewardSettings = RewardSettings()) -> float:
    completed = trajectory.stopped == "finished"
    forced = any(not step.by_model for step in trajectory.steps)
    extra = max(0, len(trajectory.steps) - s.minimal_steps)
    return s.completed * completed - s.forced * forced - s.extra_step * extra


def env_reward(
    before: Topology, after: Topology, checks: Checks, edges: int, s: RewardSettings = RewardSettings()
) -> dict[str, float]:
    coverage_gain = (coverage(after, s.kappa) - coverage(before, s.kappa)) / max(1, len(after.nodes))
    entropy_gain = degree_entropy(after) - degree_entropy(before)
    counts = checks.counts()
    violations = [counts[k] for k in ("self_loops", "invalid_relations", "invalid_types", "dangling")]
    constraint = sum((v / max(1, edges)) ** 2 for v in violations)
    change = laplacian_change(before, after)
    return {
        "coverage_gain": coverage_gain,
        "entropy_gain": entropy_gain,
        "constraint_penalty": constraint,
        "laplacian_change": change,
        "total": coverage_gain + entropy_gain - s.lambda_contr * constraint - s.lambda_t * change,
    }


def final_format_valid(trajectory: Trajectory) -> bool:
    extractions = [step for step in trajectory.steps if step.action == EXTRACT and step.success]
    return bool(extractions) and bool(extractions[-1].format_valid)


@dataclass
class Rewards:
    toolcall: float
    result: dict[str, float]
    trajectory: float
    env: dict[str, float]
    alpha: float

    @property
    def task(self) -> float:
        return self.result["total"] + self.toolcall + self.trajectory

    @property
    def total(self) -> float:
        return self.alpha * self.env["total"] + (1 - self.alpha) * self.task

    def to_json(self) -> dict:
        return {**asdict(self), "task": self.task, "total": self.total}


def score(
    trajectory: Trajectory,
    gold: KG,
    before: Topology,
    after: Topology,
    checks: Checks,
    edges: int,
    s: RewardSettings = RewardSettings(),
) -> Rewards:
    return Rewards(
        toolcall=toolcall_reward(trajectory, s),
        result=result_reward(trajectory.kg, final_format_valid(trajectory), gold, s),
        trajectory=trajectory_reward(trajectory, s),
        env=env_reward(before, after, checks, edges, s),
        alpha=s.alpha,
    )
