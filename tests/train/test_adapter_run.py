"""The `facts` adapter's training runs in pieces: every step is checkpointed and in the ledger, a killed run
resumes where it stopped, and a changed training file or recipe is refused (tiny model built in the test)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("peft", reason="the train extra is not installed: pip install 'graphwright[train]'")

from graphwright.errors import UserError  # noqa: E402
from graphwright.train.adapter import AdapterRecipe, train_adapter  # noqa: E402
from tests.support.tiny_model import build_tiny_chat_model  # noqa: E402

RECIPE = AdapterRecipe(rank=4, alpha=8, accumulation=2, warmup_steps=1, threads=1)


def rows(n: int) -> list[dict]:
    out = []
    for i in range(n):
        name = ["Ida Holm", "Aino Berg", "Carl Dahl"][i % 3]
        out.append(
            {
                "source": f"doc-{i}",
                "document": i + 1,
                "messages": [
                    {"role": "system", "content": "List every fact."},
                    {"role": "user", "content": f"{name} works for Holm Data."},
                    {"role": "assistant", "content": f'{{"triples": [["{name}", "works for", "Holm Data"]]}}'},
                ],
            }
        )
    return out


def write(path, data):
    path.write_text("".join(json.dumps(r) + "\n" for r in data))
    return path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    texts = [m["content"] for r in rows(3) for m in r["messages"]]
    return build_tiny_chat_model(tmp_path_factory.mktemp("tiny"), texts, byte_level=True)


def ledger(out):
    return [json.loads(line) for line in (out / "ledger.jsonl").read_text().splitlines()]


def test_a_killed_run_resumes_from_its_last_checkpoint(tiny, tmp_path):
    import torch

    data, out = write(tmp_path / "train.jsonl", rows(8)), tmp_path / "run"
    first = train_adapter(tiny, data, out, RECIPE, max_steps=1)
    assert first["step"] == 1 and first["rows"] == 2
    saved = torch.load(out / "checkpoint" / "adapter.pt", weights_only=True)
    # a kill between the save's two renames leaves the new checkpoint under its temporary name
    (out / "checkpoint").rename(out / "checkpoint.new")
    second = train_adapter(tiny, data, out, RECIPE, max_steps=3)
    assert (second["step"], second["rows"]) == (3, 6)
    steps = ledger(out)
    assert [s["step"] for s in steps] == [1, 2, 3]
    assert [s["sources"] for s in steps] == [["doc-0", "doc-1"], ["doc-2", "doc-3"], ["doc-4", "doc-5"]]
    assert all(s["loss"] > 0 and s["tokens"] > 0 for s in steps)
    resumed = torch.load(out / "checkpoint" / "adapter.pt", weights_only=True)
    assert saved.keys() == resumed.keys()
    assert any(not torch.equal(saved[k], resumed[k]) for k in saved)  # it went on learning from there
    assert not (out / "checkpoint.new").exists() and not (out / "checkpoint.old").exists()


def test_milestones_keep_the_adapter_and_a_run_stops_at_a_document(tiny, tmp_path):
    data, out = write(tmp_path / "train.jsonl", rows(8)), tmp_path / "run"
    summary = train_adapter(tiny, data, out, RECIPE, milestones=(4,), until_document=6)
    assert summary["rows"] == 6
    assert (out / "adapter-doc4" / "adapter_config.json").is_file()
    assert ledger(out)[-1]["document"] == 6


def test_a_milestone_or_the_last_checkpoint_exports_as_a_llama_cpp_adapter(tiny, tmp_path):
    import gguf

    from graphwright.train.gguf_adapter import convert

    data, out = write(tmp_path / "train.jsonl", rows(8)), tmp_path / "run"
    train_adapter(tiny, data, out, RECIPE, milestones=(2,), until_document=4)
    convert(out, out / "adapter-doc4.gguf")  # an export beside the milestones: the run still resumes
    assert train_adapter(tiny, data, out, RECIPE, milestones=(2, 6), until_document=6)["rows"] == 6
    names = []
    for source in (out / "adapter-doc2", out):
        written = convert(source, tmp_path / f"{source.name}.gguf")
        assert (written["rank"], written["alpha"], written["tensors"]) == (4, 8.0, 14)  # 1 layer, 7 linear, A and B
        reader = gguf.GGUFReader(str(tmp_path / f"{source.name}.gguf"))
        names.append(sorted(t.name for t in reader.tensors))
    assert names[0] == names[1] and "blk.0.attn_q.weight.lora_a" in names[0]


def test_a_run_goes_on_from_its_exported_adapter_file_on_another_machine(tiny, tmp_path):
    from dataclasses import replace

    import torch

    from graphwright.train.gguf_adapter import convert, read_gguf_adapter

    data, recipe = write(tmp_path / "train.jsonl", rows(8)), replace(RECIPE, warmup_steps=2)
    first, second = tmp_path / "run", tmp_path / "elsewhere"
    train_adapter(tiny, data, first, recipe, milestones=(2,), max_steps=2)
    convert(first, tmp_path / "shipped.gguf")
    tensors, alpha, training = read_gguf_adapter(tmp_path / "shipped.gguf")
    saved = torch.load(first / "checkpoint" / "adapter.pt", weights_only=True)
    assert tensors.keys() == saved.keys() and alpha == 8.0
    assert all(torch.allclose(tensors[k], saved[k].float(), atol=1e-3) for k in saved)  # stored in f16
    assert training["position"]["row"] == 4 and training["recipe"]["rank"] == 4

    summary = train_adapter(tiny, data, second, recipe, milestones=(2, 6), start_from=tmp_path / "shipped.gguf")
    assert (summary["step"], summary["rows"]) == (4, 8)
    steps = ledger(second)
    assert [s["step"] for s in steps] == [3, 4] and steps[0]["sources"] == ["doc-4", "doc-5"]
    # the optimiser starts afresh, so the learning rate warms up again
    assert [s["lr"] for s in steps] == [recipe.learning_rate / 2, recipe.learning_rate]
    assert not (second / "adapter-doc2").exists()  # passed before this run: not kept from later weights
    assert (second / "adapter-doc6").is_dir()

    with pytest.raises(UserError, match="rank"):
        train_adapter(
            tiny,
            data,
            tmp_path / "third",
            replace(recipe, rank=8),
            start_from=tmp_path / "shipped.gguf",
        )


def test_a_changed_training_file_or_recipe_is_refused(tiny, tmp_path):
    data, out = write(tmp_path / "train.jsonl", rows(6)), tmp_path / "run"
    train_adapter(tiny, data, out, RECIPE, max_steps=1)
    changed = rows(6)
    changed[0]["source"] = "another"
    write(data, changed)
    with pytest.raises(UserError, match="first 2 rows differ"):
        train_adapter(tiny, data, out, RECIPE, max_steps=2)
    answered = rows(6)
    answered[1]["messages"][-1]["content"] += " "  # the same sources with another answer: another file
    write(data, answered)
    with pytest.raises(UserError, match="first 2 rows differ"):
        train_adapter(tiny, data, out, RECIPE, max_steps=2)
    write(data, rows(6))
    with pytest.raises(UserError, match="learning_rate"):
        train_adapter(
            tiny,
            data,
            out,
            AdapterRecipe(rank=4, alpha=8, accumulation=2, warmup_steps=1, learning_rate=1e-3),
            max_steps=2,
        )


def test_a_run_may_change_its_threads_and_precision_between_pieces(tiny, tmp_path, monkeypatch):
    from dataclasses import replace

    import torch

    from graphwright.train import adapter

    data, out = write(tmp_path / "train.jsonl", rows(6)), tmp_path / "run"
    train_adapter(tiny, data, out, replace(RECIPE, bf16=False), max_steps=1)
    native = bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())  # a CPU without the kernel may die of SIGILL
    monkeypatch.setattr(adapter, "bf16_is_faster", lambda torch: native)  # as on a CPU where it is faster
    assert train_adapter(tiny, data, out, replace(RECIPE, threads=2, bf16=True), max_steps=2)["step"] == 2
    monkeypatch.setattr(adapter, "bf16_is_faster", lambda torch: False)  # and where it is slower
    assert train_adapter(tiny, data, out, replace(RECIPE, bf16=True), max_steps=3)["step"] == 3
    assert [s["bf16"] for s in ledger(out)] == [False, native, False]
    assert isinstance(adapter.bf16_is_faster(torch), bool)
    assert all(s["loss"] > 0 for s in ledger(out))


def test_the_loss_is_the_answer_only(tiny):
    from transformers import AutoTokenizer

    from graphwright.train.adapter import encode

    tokenizer = AutoTokenizer.from_pretrained(tiny)
    messages = rows(1)[0]["messages"]
    ids, labels = encode(tokenizer, messages, 512)
    answer = [i for i, label in zip(ids, labels) if label != -100]
    assert tokenizer.decode(answer).replace(" ", "").startswith('{"triples"')
    assert answer[-1] == tokenizer.convert_tokens_to_ids("<|im_end|>")  # it learns to stop
