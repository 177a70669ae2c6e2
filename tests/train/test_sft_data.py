"""Distillation data from a real agentre eval run (scripted model): rationale examples, plain examples,
and resuming."""

from __future__ import annotations

import json

import pytest

from graphwright.bench.data.re_data import REDataset, gold_documents
from graphwright.bench.eval.datasets import EvalDataset
from graphwright.bench.eval.runner import RunInfo, run_eval
from graphwright.errors import UserError
from graphwright.llm.fake import ScriptedLLM
from graphwright.model.labelled import RESample, RETriple
from graphwright.model.schema import load_schema
from graphwright.systems.base import make_system
from graphwright.train.sft_data import export_sft, read_run
from tests.support.agentre_script import SENTENCE, RoleScript, step, triple, write_inputs

GOLD = [RETriple("John Smith", "Work_For", "Acme Corp"), RETriple("John Smith", "Live_In", "Oslo")]


@pytest.fixture()
async def run_dir(tmp_path):
    schema_file, pool_file = write_inputs(tmp_path)
    schema = load_schema(schema_file)
    data = REDataset("news", schema, [RESample(id="s1", text=SENTENCE, triples=GOLD)], [])
    dataset = EvalDataset("news", gold_documents(data), task="re", kb="none")
    script = RoleScript(
        agent=[
            step("SearchGuidelines", "Live_In", thought="is Oslo a home?"),
            step("Finish", triples=[triple("John Smith", "Work_For", "Acme Corp")]),
        ]
    )
    settings = {"schema_file": str(schema_file), "pool_file": str(pool_file), "retriever": "bm25"}
    system = make_system("agentre.paper", ScriptedLLM(script), None, settings)
    out = tmp_path / "run"
    await run_eval(system, dataset, None, RunInfo("agentre", "news", "scripted", "none", settings=settings), out)
    return out


async def test_rationale_examples_carry_the_gold_triples(run_dir, tmp_path):
    _, sentences = read_run(run_dir)
    assert [s.id for s in sentences] == ["s1"] and [s["action"] for s in sentences[0].steps] == [
        "SearchSamples",
        "SearchKG",
        "SearchKG",
        "SearchGuidelines",
        "Finish",
    ]
    summariser = ScriptedLLM([json.dumps({"rationale": "John Smith speaks for Acme Corp and lives in Oslo."})])
    out = tmp_path / "sft.jsonl"
    counts = await export_sft(run_dir, out, "- Work_For\n- Live_In", summariser)
    assert counts == {"written": 1, "skipped": 0}
    prompt = summariser.calls[0]["messages"][-1]["content"]
    assert "Thought: is Oslo a home?" in prompt and 'Action: SearchGuidelines("Live_In")' in prompt
    assert '["John Smith", "Live_In", "Oslo"]' in prompt, "the summary explains the correct triples, not the agent's"
    row = json.loads(out.read_text())
    roles = [m["role"] for m in row["messages"]]
    assert roles == ["system", "user", "assistant"] and row["messages"][1]["content"] == f"Sentence: {SENTENCE}"
    answer = row["messages"][2]["content"]
    assert answer.startswith("Rationale: John Smith speaks for Acme Corp")
    assert json.loads(answer.split("Triples: ", 1)[1]) == [list(t) for t in GOLD]

    again = await export_sft(run_dir, out, "- Work_For\n- Live_In", ScriptedLLM([]))
    assert again == {"written": 0, "skipped": 1}, "an export resumes"


async def test_plain_examples_need_no_model(run_dir, tmp_path):
    out = tmp_path / "plain.jsonl"
    await export_sft(run_dir, out, "- Work_For", None)
    answer = json.loads(out.read_text())["messages"][2]["content"]
    assert answer.startswith("Triples: ") and "Rationale" not in answer


def test_a_folder_that_is_not_a_run_is_refused(tmp_path):
    with pytest.raises(UserError, match="not an eval run folder"):
        read_run(tmp_path)


def test_agentic_kgr_conversations_that_finished_exactly_right_become_examples(tmp_path):
    from graphwright.train.sft_data import export_agentic_kgr

    conversation = [
        {"role": "system", "content": "policy"},
        {"role": "user", "content": "Text: t"},
        {"role": "assistant", "content": '{"action": "finish"}'},
        {"role": "user", "content": "Finished."},
    ]
    docs, traces = [], []
    for i, (stopped, matched) in enumerate([("finished", 2), ("finished", 1), ("step limit", 2)]):
        docs.append(
            {
                "id": f"s{i}",
                "trace_id": f"s{i}",
                "counts": {"triples": {"matched_pred": matched, "predicted": 2, "matched_gold": matched, "gold": 2}},
            }
        )
        traces.append({"trace_id": f"s{i}", "extra": {"trajectory": {"stopped": stopped, "messages": conversation}}})
    for name, rows in (("documents.jsonl", docs), ("traces.jsonl", traces)):
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "sft.jsonl"
    assert export_agentic_kgr(tmp_path, out) == {"written": 1, "skipped": 0, "left_out": 2}
    [row] = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["id"] == "s0" and row["messages"] == conversation[:-1]
    assert export_agentic_kgr(tmp_path, out)["skipped"] == 1
