"""graphwright.bench.qa on a made-up corpus with a scripted model: the index and the questions resume
from the ledger (a second run calls the model for nothing), and a new machine rebuilds the graph from
the recorded answers."""

from __future__ import annotations

import json
import shutil

import pytest

from graphwright.bench import qa as bench_qa
from graphwright.bench.data.qa_data import Passage, QADataset, Question
from graphwright.llm.fake import ScriptedLLM

PASSAGES = [
    Passage("Kestrel Ferries", "Kestrel Ferries", "Kestrel Ferries was founded by Idris Penhallow."),
    Passage("Idris Penhallow", "Idris Penhallow", "Idris Penhallow was born in Holyhead."),
]
TRIPLES = {
    "Kestrel Ferries was": [["Kestrel Ferries", "founded by", "Idris Penhallow"]],
    "Idris Penhallow was": [["Idris Penhallow", "born in", "Holyhead"]],
}


def dataset() -> QADataset:
    return QADataset(
        "toy",
        PASSAGES,
        [
            Question(
                "q1",
                "Where was the founder of Kestrel Ferries born?",
                ["Holyhead"],
                ["Kestrel Ferries", "Idris Penhallow"],
            )
        ],
    )


def model(name: str = "scripted") -> ScriptedLLM:
    def reply(messages, schema):
        text = messages[-1]["content"]
        if "Passage:" in text:
            return json.dumps({"triples": next(t for k, t in TRIPLES.items() if k in text)})
        cited = [line[1:3] for line in text.splitlines() if "Holyhead" in line][:1]
        return json.dumps({"answer": "Holyhead" if cited else "Cardiff", "citations": cited})

    return ScriptedLLM(reply, name=name)


async def run(bench, llm):
    store, runs = await bench.index("toy", dataset(), llm, "openie")
    try:
        results = {
            c: await bench.ask(c, "toy", dataset(), llm, store, "openie") for c in ("graph", "walk", "bm25", "none")
        }
        return runs, results, bench.table("toy", dataset(), runs, results, llm.name, "cmd", "openie")
    finally:
        store.close()


async def test_bench_qa_resumes_and_rebuilds_from_the_ledger(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))
    bench = bench_qa
    monkeypatch.setattr(bench, "LEDGER", tmp_path / "ledger")
    monkeypatch.setattr(bench, "QA_RUNS", tmp_path / "runs")
    first = model()
    runs, results, table = await run(bench, first)
    assert len(runs) == 2 and sum(r["triples"] for r in runs) == 2
    assert results["graph"][0]["em"] == 1.0 and results["graph"][0]["support_recall"] == 1.0
    assert results["none"][0]["em"] == 0.0 and results["none"][0]["support_recall"] == 0.0
    walk = results["walk"][0]
    assert walk["em"] == 1.0 and walk["support_recall"] == 1.0 and walk["passages"] == 2, "recall counts passages"
    assert "| graph | 1.000 |" in table and "Index: 2 passages by openie, 2 facts; 2 calls" in table
    calls = len(first.calls)
    assert calls == 2 + 4

    # retrieval alone finds, with no model call, the passages each configuration's ask handed the reader
    store = bench.GraphStore.open(tmp_path / "runs" / "toy" / "store")
    try:
        found = bench.retrieval("toy", dataset(), store, "openie", ["graph", "walk", "bm25", "none"], "test")
    finally:
        store.close()
    assert set(found) == {"graph", "walk", "bm25"} and len(first.calls) == calls
    for config, rows in found.items():
        assert [(r["support_recall"], r["passages"]) for r in rows] == [
            (r["support_recall"], r["passages"]) for r in results[config]
        ], config
    assert (
        json.loads((tmp_path / "ledger" / "qa--retrieval-toy-test.json").read_text())["configs"]["walk"][0]["passages"]
        == 2
    )
    table = bench.retrieval_table("toy", dataset(), found, "cmd", "test")
    assert "| walk | 2.0 | 1.000 | [1.000, 1.000] | +0.000 (+0.000 to +0.000) |" in table

    again = model()
    await run(bench, again)
    assert again.calls == []  # the index is in the store, the answers in the ledger

    shutil.rmtree(tmp_path / "runs")  # a new machine: no store
    fresh = model()
    runs, results, _ = await run(bench, fresh)
    assert fresh.calls == [] and sum(r["triples"] for r in runs) == 2  # rebuilt from the recorded answers


async def test_another_reader_reads_the_same_graph_into_its_own_ledger(tmp_path, monkeypatch):
    """A larger reader (--model) over the graphs indexed here (--index-model): no index call, its answers
    apart from the default reader's, and a ledger never resumed with another model's answers."""
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))
    bench = bench_qa
    monkeypatch.setattr(bench, "LEDGER", tmp_path / "ledger")
    monkeypatch.setattr(bench, "QA_RUNS", tmp_path / "runs")
    await run(bench, model())
    shutil.rmtree(tmp_path / "runs")  # the other reader's machine: the recorded answers only

    indexer, reader = model(), model("big-server-model")
    store, _ = await bench.index("toy", dataset(), indexer, "openie")
    try:
        [row] = await bench.ask("walk", "toy", dataset(), reader, store, "openie")
        assert indexer.calls == [] and len(reader.calls) == 1 and row["em"] == 1.0
        mine = tmp_path / "ledger" / "qa--walk-toy--big-server-model.json"
        assert json.loads(mine.read_text())["model"] == "big-server-model"
        assert json.loads((tmp_path / "ledger" / "qa--walk-toy--scripted.json").read_text())["model"] == "scripted"

        shutil.copy(
            tmp_path / "ledger" / "qa--bm25-toy--scripted.json",
            tmp_path / "ledger" / "qa--bm25-toy--big-server-model.json",
        )
        with pytest.raises(SystemExit, match="holds the answers of scripted"):
            await bench.ask("bm25", "toy", dataset(), reader, store, "openie")
    finally:
        store.close()
    assert bench.model_tag(bench.DEFAULT_MODEL) == "", "the committed ledgers keep their names"


def test_the_first_30_questions_are_dev_and_the_rest_test():
    bench = bench_qa
    questions = list(range(100))
    dev, test = bench.split_questions(questions, "dev"), bench.split_questions(questions, "test")
    assert (
        dev == list(range(30)) and test == list(range(30, 100)) and bench.split_questions(questions, "all") == questions
    )
