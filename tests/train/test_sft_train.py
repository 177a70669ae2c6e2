"""The LoRA SFT recipe runs a few steps on CPU on a tiny model built locally (needs the train extra)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("trl", reason="the train extra is not installed: pip install 'graphwright[train]'")

from graphwright.train.sft import SFTRecipe, train_lora  # noqa: E402
from tests.support.tiny_model import build_tiny_chat_model  # noqa: E402


def examples(n: int, rationale: bool) -> list[dict]:
    rows = []
    for i in range(n):
        name = ["Anna Berg", "Carl Dahl", "John Smith"][i % 3]
        answer = f'Triples: [["{name}", "Work_For", "Acme"]]'
        if rationale:
            answer = f"Rationale: {name} is a spokesman of Acme.\n{answer}"
        rows.append(
            {
                "id": str(i),
                "messages": [
                    {"role": "system", "content": "You extract relation triples."},
                    {"role": "user", "content": f"Sentence: {name} , a spokesman for Acme , said ."},
                    {"role": "assistant", "content": answer},
                ],
            }
        )
    return rows


def write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_lora_sft_trains_d_then_d_prime_on_cpu(tmp_path):
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    plain, rationale = examples(6, False), examples(6, True)
    texts = [m["content"] for r in plain + rationale for m in r["messages"]]
    base = build_tiny_chat_model(tmp_path / "tiny", texts)
    data = [write(tmp_path / "d.jsonl", plain), write(tmp_path / "d_prime.jsonl", rationale)]
    recipe = SFTRecipe(batch_size=2, max_steps=3, learning_rate=1e-2, max_length=128)
    summary = train_lora(base, data, tmp_path / "adapter", recipe)

    assert [s["steps"] for s in summary["stages"]] == [3, 3]
    assert summary["stages"][0]["last_loss"] < summary["stages"][0]["first_loss"], "it learns"
    assert all(s["last_loss"] is not None and s["last_loss"] == s["last_loss"] for s in summary["stages"])  # not NaN
    assert summary["recipe"]["lora_r"] == 8 and summary["recipe"]["lora_alpha"] == 16
    assert (tmp_path / "adapter" / "adapter_config.json").is_file()
    adapter = json.loads((tmp_path / "adapter" / "adapter_config.json").read_text())
    assert (adapter["r"], adapter["lora_alpha"], adapter["lora_dropout"]) == (8, 16, 0.1)

    # the adapter loads on the base model and changes its output
    model = AutoModelForCausalLM.from_pretrained(base)
    ids = torch.tensor([[2, 5, 6, 7]])
    before = model(ids).logits
    tuned = PeftModel.from_pretrained(model, tmp_path / "adapter")
    assert not torch.allclose(before, tuned(ids).logits)
