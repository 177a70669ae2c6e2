"""agentre through the CLI against a scripted OpenAI-compatible server on 127.0.0.1: extraction into
the graph store with a user schema, memory warm-up, and `eval run` on a relation-extraction dataset."""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.paths import data_dir
from tests.support.agentre_script import SENTENCE, RoleScript, triple, write_inputs
from tests.support.openai_server import ScriptedOpenAIServer

runner = CliRunner()


def served(server):
    return ["--base-url", server.base_url, "--model", "scripted", "--no-cache"]


def test_extract_with_a_user_schema_into_the_store(tmp_path):
    schema, pool = write_inputs(tmp_path)
    doc = tmp_path / "news.txt"
    doc.write_text(SENTENCE, encoding="utf-8")
    script = RoleScript(extract=[{"triples": [triple("John Smith", "Work_For", "Acme Corp")]}])  # agentre's default:
    with ScriptedOpenAIServer(script) as server:  # one few-shot call
        result = runner.invoke(
            app,
            [
                "extract",
                str(doc),
                "--system",
                "agentre",
                "--kb",
                "none",
                *served(server),
                "--store",
                str(tmp_path / "store"),
                "--out",
                str(tmp_path / "out"),
                "--set",
                f"schema_file={schema}",
                "--set",
                f"pool_file={pool}",
                "--set",
                "retriever=bm25",
            ],
        )
    assert result.exit_code == 0, result.output
    ttl = tmp_path / "g.ttl"
    assert runner.invoke(app, ["graph", "export", str(ttl), "--store", str(tmp_path / "store")]).exit_code == 0
    graph = {
        (t.subject.value, t.predicate.value, t.object.value)
        for t in ox.parse(ttl.read_bytes(), format=ox.RdfFormat.TURTLE)
    }
    assert (
        "https://graphwright.dev/entity/John%20Smith",
        "https://graphwright.dev/schema/news/Work_For",
        "https://graphwright.dev/entity/Acme%20Corp",
    ) in graph


def test_warm_up_fills_memory_and_resumes(tmp_path):
    schema, pool = write_inputs(tmp_path)
    memory = tmp_path / "memory"
    args = [
        "agentre",
        "warm-up",
        "--memory-dir",
        str(memory),
        "--samples",
        "1",
        "--set",
        f"schema_file={schema}",
        "--set",
        f"pool_file={pool}",
        "--set",
        "retriever=bm25",
        "--set",
        "mode=direct",
    ]
    script = RoleScript(
        extract=[{"triples": [triple("Anna Berg", "Work_For", "Acme Corp")]}],
        summary=[{"summary": "Anna Berg speaks for Acme Corp."}],
    )
    with ScriptedOpenAIServer(script) as server:
        first = runner.invoke(app, [*args, *served(server)])
        assert first.exit_code == 0, first.output
        assert "learnt 1 samples (0 already in memory): 1 right, 0 wrong and 0 missed" in first.output
        again = runner.invoke(app, [*args, *served(server)])
        assert again.exit_code == 0 and "learnt 0 samples (1 already in memory)" in again.output
    assert json.loads((memory / "deep.json").read_text()) == {"Anna Berg": "Anna Berg speaks for Acme Corp."}


@pytest.mark.skipif(not (data_dir() / "conll04").is_dir(), reason=f"conll04 not found under {data_dir()}")
def test_eval_run_on_conll04_scores_strict_triples(tmp_path):
    def reply(messages, response_format):
        user = messages[-1]["content"]
        if "Hakawati Theatre" in user:
            return json.dumps({"triples": [triple("Hakawati Theatre", "OrgBased_In", "Jerusalem")]})
        return json.dumps({"triples": [triple("Italy", "Located_In", "PERUGIA")]})  # reversed: wrong

    out = tmp_path / "run"
    with ScriptedOpenAIServer(reply) as server:
        result = runner.invoke(
            app,
            [
                "eval",
                "run",
                "--system",
                "agentre.zeroshot",
                "--dataset",
                "conll04",
                "-n",
                "2",
                *served(server),
                "--out",
                str(out),
            ],
        )
    assert result.exit_code == 0, result.output
    aggregate = json.loads((out / "aggregate.json").read_text())
    assert aggregate["categories"] == ["triples", "boundaries"]
    assert aggregate["run"]["settings"] == {"dataset": "conll04"} and aggregate["run"]["kb"] == "none"
    rows = [json.loads(line) for line in (out / "documents.jsonl").read_text().splitlines()]
    assert rows[0]["counts"]["triples"] == {"matched_pred": 1, "predicted": 1, "matched_gold": 1, "gold": 1}
    assert rows[1]["counts"]["triples"]["matched_pred"] == 0
    assert aggregate["micro"]["triples"]["precision"] == 0.5
    assert "Argument pairs" in (out / "report.md").read_text()
