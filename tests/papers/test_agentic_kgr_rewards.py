"""Each reward term of agentic-kgr against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from graphwright.growth.lifecycle import Checks
from graphwright.growth.metrics import Topology
from graphwright.papers.agentic_kgr.kg_json import KG
from graphwright.papers.agentic_kgr.rewards import (
    RewardSettings,
    env_reward,
    result_reward,
    score,
    toolcall_reward,
    trajectory_reward,
)
from graphwright.papers.agentic_kgr.trajectory import Step, Trajectory

GOLD = KG(
    entities={"Peop": ["Lena Vogt"], "Org": ["Nordwind"]},
    relations={"Work_For": [{"subject": "Lena Vogt", "object": "Nordwind"}]},
)  # 3 items


def extract(kg=GOLD, valid=True):
    return Step("extract", {"kg": kg.model_dump()}, format_valid=valid)


def test_tool_calls_earn_less_each_time_they_repeat_and_are_capped():
    t = Trajectory(
        [
            extract(),
            Step("query_extraction_density"),
            Step("query_extraction_density"),
            Step("query_extraction_density"),
            Step("query_quality_metrics", success=False),
            Step("query_entity_disambiguation", by_model=False),
        ]
    )
    assert toolcall_reward(t) == pytest.approx(0.05 + 0.025 + 0.0125 - 0.1)
    # a new extraction makes the same call new again
    t2 = Trajectory([extract(), Step("query_extraction_density"), extract(), Step("query_extraction_density")])
    assert toolcall_reward(t2) == pytest.approx(0.10)
    many = Trajectory([extract()] + [Step("query_coverage_feedback", {"priority_types": [str(i)]}) for i in range(20)])
    assert toolcall_reward(many) == 0.5


def test_result_reward_full_match_partial_f1_and_density_penalty():
    assert result_reward(GOLD, True, GOLD) == {"format": 1.0, "accuracy": 1.5, "density_penalty": 0.0, "total": 2.5}
    # one of three gold items, two predicted: F1 = 2*1/(2+3); under-generation |2-3|/3 x 0.8
    partial = KG(entities={"Peop": ["lena  vogt"], "Loc": ["Kiel"]})
    r = result_reward(partial, True, GOLD)
    assert r["accuracy"] == pytest.approx(2 / 5) and r["density_penalty"] == pytest.approx(0.8 / 3)
    assert r["total"] == pytest.approx(1 + 2 / 5 - 0.8 / 3)
    # six predicted for three gold: over-generation 3/3 x 0.15
    over = KG(
        entities={"Peop": ["Lena Vogt", "A", "B", "C"], "Org": ["Nordwind"]},
        relations={"Work_For": [{"subject": "Lena Vogt", "object": "Nordwind"}]},
    )
    assert result_reward(over, True, GOLD)["density_penalty"] == pytest.approx(0.15)
    assert result_reward(GOLD, False, GOLD)["total"] == -1.0 and result_reward(None, True, GOLD)["format"] == -1.0


def test_trajectory_reward_finished_forced_and_long():
    done = Trajectory([extract()] + [Step("x")] * 4, stopped="finished")
    assert trajectory_reward(done) == pytest.approx(0.2)
    long = Trajectory([extract()] + [Step("x")] * 7, stopped="finished")
    assert trajectory_reward(long) == pytest.approx(0.2 - 3 * 0.02)
    forced = Trajectory([extract(), Step("x", by_model=False)], stopped="step limit")
    assert trajectory_reward(forced) == pytest.approx(-0.2)


def test_env_reward_from_graph_deltas():
    before = Topology.from_pairs([("a", "b")])
    after = Topology.from_pairs([("a", "b"), ("b", "c")])
    checks = Checks(self_loops=[object()], invalid_relations=[object(), object()])
    r = env_reward(before, after, checks, edges=4)
    assert r["coverage_gain"] == pytest.approx(((0.5 + 0.75 + 0.5) - (0.5 + 0.5)) / 3)
    entropy = -(2 * 0.25 * math.log(0.25) + 0.5 * math.log(0.5)) - math.log(2)
    assert r["entropy_gain"] == pytest.approx(entropy)
    assert r["constraint_penalty"] == pytest.approx((1 / 4) ** 2 + (2 / 4) ** 2)
    change = math.sqrt(1 + 2 * (1 - 1 / math.sqrt(2)) ** 2 + 2 * 0.5)
    assert r["laplacian_change"] == pytest.approx(change)
    assert r["total"] == pytest.approx(r["coverage_gain"] + entropy - 0.3125 - 0.1 * change)


def test_the_mix_is_alpha_env_plus_the_rest_task():
    t = Trajectory(
        [
            extract(),
            Step("query_extraction_density"),
            Step("query_entity_disambiguation"),
            Step("query_kg_storage"),
            Step("finish"),
        ],
        kg=GOLD,
        stopped="finished",
    )
    same = Topology.from_pairs([("a", "b")])
    r = score(t, GOLD, same, same, Checks(), edges=1, s=RewardSettings(alpha=0.25))
    assert r.toolcall == pytest.approx(0.15) and r.trajectory == pytest.approx(0.2) and r.result["total"] == 2.5
    assert r.env["total"] == 0.0 and r.total == pytest.approx(0.75 * (2.5 + 0.15 + 0.2))
