"""GRPO over agentic-kgr trajectories runs on CPU on a tiny model built in the test (needs the train extra):
rollouts with environment tokens masked out, each reward term logged as computed, and the adapter's
weights change."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("trl", reason="the train extra is not installed: pip install 'graphwright[train]'")

from graphwright.model.labelled import RESample, RETriple  # noqa: E402
from graphwright.train.grpo import GRPORecipe, train_grpo  # noqa: E402
from tests.support.tiny_model import build_tiny_chat_model  # noqa: E402

SCHEMA = (
    "name: company\nrelations:\n"
    "  works_for: {description: a person employed by an organisation, head: [Person], tail: [Organization]}\n"
)
TEXTS = ["Lena Vogt works for Nordwind .", "Ana Ruiz works for Kessler ."]
GOOD = [
    '{"thought": "", "action": "extract", "kg": {"entities": {"Person": ["Lena Vogt"], "Organization": '
    '["Nordwind"]}, "relations": {"works_for": [{"subject": "Lena Vogt", "object": "Nordwind"}]}}}',
    '{"thought": "", "action": "query_extraction_density", "arguments": {}}',
    '{"thought": "", "action": "query_entity_disambiguation", "arguments": {}}',
    '{"thought": "", "action": "query_kg_storage", "arguments": {}}',
    '{"thought": "", "action": "finish", "arguments": {}}',
]
BAD = ["nonsense"] * 5


class ScriptedSampler:
    """Rollouts alternate between a policy that follows the workflow and one that never answers in format."""

    def __init__(self, tokenizer):
        self.tokenizer, self.turn, self.rollout = tokenizer, 0, 0

    def __call__(self, ids):
        script = GOOD if self.rollout % 2 == 0 else BAD
        text = script[min(self.turn, len(script) - 1)]
        self.turn += 1
        if self.turn == 5:
            self.turn, self.rollout = 0, self.rollout + 1
        new = self.tokenizer(text, add_special_tokens=False)["input_ids"] + [self.tokenizer.eos_token_id]
        return new, [-1.0] * len(new)


def test_grpo_trains_the_adapter_on_scored_rollouts(tmp_path, monkeypatch):
    from graphwright.systems import datasets
    from graphwright.train import grpo

    schema = tmp_path / "company.yaml"
    schema.write_text(SCHEMA)
    samples = [
        RESample(
            id=str(i),
            text=t,
            triples=[RETriple(*t.split(" works for ")[0:1], "works_for", t.split(" works for ")[1][:-2])],
        )
        for i, t in enumerate(TEXTS)
    ]

    class Data:
        pool = samples

    class Installed:
        def relations(self, name):
            return Data

    monkeypatch.setattr(datasets, "datasets", Installed)
    words = GOOD + TEXTS + ["Observation : ERROR Extraction recorded Finished extract first call"]
    prompt = grpo._policy_prompt()
    base = build_tiny_chat_model(tmp_path / "tiny", words + [prompt.static, prompt.dynamic], byte_level=True)
    from transformers import AutoTokenizer

    sampler = ScriptedSampler(AutoTokenizer.from_pretrained(base))
    recipe = GRPORecipe(steps=2, generations=2, learning_rate=5e-2, kl=0.04, max_turns=5, max_new_tokens=64, limit=2)
    summary = train_grpo(base, "custom", tmp_path / "adapter", recipe, schema_file=str(schema), sampler=sampler)

    assert summary["trainable_tensors_changed"] > 0, "the adapter learns from the reward differences"
    rows = [json.loads(line) for line in (tmp_path / "adapter" / "dynamics.jsonl").read_text().splitlines()]
    assert len(rows) == 4  # 2 steps x 1 prompt x 2 rollouts
    good, bad = rows[0], rows[1]
    assert good["stopped"] == "finished" and good["tool_calls"] == {
        "query_extraction_density": 1,
        "query_entity_disambiguation": 1,
        "query_kg_storage": 1,
    }
    assert good["rewards"]["result"]["total"] == pytest.approx(2.5)  # full match, format right
    assert good["rewards"]["toolcall"] == pytest.approx(0.15) and good["rewards"]["trajectory"] == pytest.approx(0.2)
    assert bad["rewards"]["result"]["total"] == -1.0 and bad["failed_calls"] == 5 and bad["kept"] is False
    # TRL logged the same terms it was given, weighted into the total reward
    step = summary["steps"][0]
    expected = (good["rewards"]["result"]["total"] + bad["rewards"]["result"]["total"]) / 2
    assert step["rewards/result_reward/mean"] == pytest.approx(expected)
    assert step["reward"] == pytest.approx((good["rewards"]["total"] + bad["rewards"]["total"]) / 2, abs=1e-4)
