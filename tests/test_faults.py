"""Batches through a misbehaving OpenAI-compatible server: every document ends ok or recorded as failed
with its reason, and a rerun completes the failed ones, for `extract` and for `eval run`."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphwright.bench.eval.runner import read_documents
from graphwright.cli import app
from graphwright.jsonl import read_jsonl
from graphwright.store import GraphStore
from tests.support.openai_server import FAULTS, FaultPlan, ScriptedOpenAIServer

runner = CliRunner()
BIRTH = {"subject": "wd:Q2685", "predicate": "wdt:P19", "object": "wd:Q571822"}
#: about one request in three misbehaves; every kind of fault is drawn many times in 200 documents
RATES = {
    "error500": 0.05,
    "rate_limit": 0.03,
    "hang": 0.02,
    "drop": 0.04,
    "slow": 0.04,
    "truncated": 0.04,
    "invalid_json": 0.04,
    "huge": 0.01,
    "garbage": 0.04,
}


def birth_answer(messages, response_format) -> str:
    return json.dumps({"triples": [BIRTH]})


def text(i: int) -> str:
    return f"Arnold Schwarzenegger was born in Thal. This is note {i}."


@pytest.fixture()
def fast_retries(monkeypatch):
    """Short timeouts and backoff, so that 200 documents with hangs and 429s take seconds, not minutes
    (not shorter: KB searches hold the event loop for a while at --concurrency 8)."""
    monkeypatch.setenv("GRAPHWRIGHT_TIMEOUT", "2")
    monkeypatch.setenv("GRAPHWRIGHT_RETRIES", "2")
    monkeypatch.setenv("GRAPHWRIGHT_RETRY_DELAY", "0.01")


def faulty(seed: int) -> FaultPlan:
    return FaultPlan(RATES, seed=seed, retry_after="1", hang_seconds=2.5, slow_seconds=0.2, huge_bytes=9 * 2**20)


def extract(server, inputs: Path, tmp_path: Path):
    return runner.invoke(
        app,
        [
            "extract",
            str(inputs),
            "--system",
            "cie.single",
            "--model",
            "scripted",
            "--base-url",
            server.base_url,
            "--no-cache",
            "--concurrency",
            "8",
            "--store",
            str(tmp_path / "store"),
            "--out",
            str(tmp_path / "out"),
        ],
    )


def stored_runs(store_path: Path) -> dict[str, dict]:
    with GraphStore.open(store_path) as store:
        runs = store.documents()
        triples = {(t.subject.value, t.predicate.value, t.object.value) for t in store.triples()}
    assert len(runs) == len({r["document_id"] for r in runs}), "a document stored twice"
    return {r["document_id"]: r | {"triples_seen": triples} for r in runs}


def report(command: str, documents: int, plan: FaultPlan, failed: int) -> None:
    """One line for docs/RELIABILITY.md (shown with pytest -rP)."""
    faults = sum(n for fault, n in plan.served.items() if fault != "ok")
    print(
        f"{command}: {documents} documents, {sum(plan.served.values())} requests, {faults} faults "
        f"({', '.join(f'{k} {v}' for k, v in sorted(plan.served.items()) if k != 'ok')}); {failed} documents failed "
        f"and were recorded, all completed on rerun; lost 0"
    )


@pytest.mark.parametrize("documents", [200, pytest.param(2000, marks=pytest.mark.soak)])
def test_extract_through_a_faulty_server_loses_no_document_and_a_rerun_completes(
    tmp_path, default_kb, fast_retries, documents
):
    inputs = tmp_path / "in"
    inputs.mkdir()
    for i in range(documents):
        (inputs / f"note{i:03}.txt").write_text(text(i), encoding="utf-8")
    plan = faulty(seed=7)
    with ScriptedOpenAIServer(birth_answer, plan) as server:
        first = extract(server, inputs, tmp_path)
    assert first.exit_code == 0, first.output
    assert set(plan.served) >= set(FAULTS) - {"huge"} and plan.served["ok"] > documents / 2, plan.served

    rows = read_jsonl(tmp_path / "out" / "results.jsonl")
    runs = stored_runs(tmp_path / "store")
    assert len(rows) == len(runs) == documents, "every document is ok or recorded as failed"
    assert {r["document_id"]: r["status"] for r in rows} == {d: r["status"] for d, r in runs.items()}
    failed = [r for r in rows if r["status"] == "failed"]
    assert all(r["reason"] for r in failed)
    assert all("failed 3 time(s)" in r["reason"] and r["retryable"] for r in failed), [r["reason"] for r in failed]
    assert f"{documents - len(failed)} / 0 / {len(failed)}" in first.output
    report("extract", documents, plan, len(failed))

    with ScriptedOpenAIServer(birth_answer) as server:
        again = extract(server, inputs, tmp_path)
        assert again.exit_code == 0, again.output
        assert len(server.requests) == len(failed), "the rerun redoes the failed documents only"
    assert f"{len(failed)} / {documents - len(failed)} / 0" in again.output
    rows = read_jsonl(tmp_path / "out" / "results.jsonl")
    runs = stored_runs(tmp_path / "store")
    assert len(rows) == documents and Counter(r["status"] for r in rows) == {"ok": documents}
    assert all(r["status"] == "ok" for r in runs.values()) and len(runs) == documents
    assert next(iter(runs.values()))["triples_seen"] == {
        (
            "http://www.wikidata.org/entity/Q2685",
            "http://www.wikidata.org/prop/direct/P19",
            "http://www.wikidata.org/entity/Q571822",
        )
    }


@pytest.mark.parametrize("documents", [200, pytest.param(1000, marks=pytest.mark.soak)])
def test_eval_run_through_a_faulty_server_completes_on_rerun(tmp_path, default_kb, fast_retries, documents):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        "".join(
            json.dumps(
                {
                    "id": f"d{i:03}",
                    "text": text(i),
                    "triples": [
                        {"subject": {"iri": "Q2685"}, "predicate": {"iri": "P19"}, "object": {"iri": "Q571822"}}
                    ],
                }
            )
            + "\n"
            for i in range(documents)
        ),
        encoding="utf-8",
    )

    def evaluate(server, out: Path):
        return runner.invoke(
            app,
            [
                "eval",
                "run",
                "--system",
                "cie.single",
                "--dataset",
                str(gold),
                "--kb",
                "default",
                "--model",
                "scripted",
                "--base-url",
                server.base_url,
                "--no-cache",
                "--out",
                str(out),
            ],
        )

    plan = faulty(seed=11)
    with ScriptedOpenAIServer(birth_answer, plan) as server:
        first = evaluate(server, tmp_path / "run")
    assert first.exit_code == 0, first.output
    rows = read_documents(tmp_path / "run")
    unreached = [r for r in rows if r.get("retryable")]
    assert len(rows) == documents and all(r["status"] == "ok" or r["reason"] for r in rows)
    assert unreached and f"{len(unreached)} document(s) failed because the model could not be reached" in first.output
    report("eval run", documents, plan, len(unreached))

    with ScriptedOpenAIServer(birth_answer) as server:
        again = evaluate(server, tmp_path / "run")
        assert again.exit_code == 0, again.output
        assert len(server.requests) == len(unreached), "the rerun redoes the unreached documents only"
    rows = read_documents(tmp_path / "run")
    assert all(
        r["status"] == "ok"
        and r["counts"]["triples"] == {"matched_pred": 1, "predicted": 1, "matched_gold": 1, "gold": 1}
        for r in rows
    ), "as a clean run scores"
    lines = (tmp_path / "run" / "documents.jsonl").read_text(encoding="utf-8").splitlines()
    traces = read_jsonl(tmp_path / "run" / "traces.jsonl")
    assert len(lines) == len(traces) == documents, "one row and one trace per document, no duplicates"
