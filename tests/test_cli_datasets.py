"""`eval run` of agentre and agenticner on every relation-extraction and NER dataset, through the CLI
against a scripted OpenAI-compatible server on 127.0.0.1 that answers each sentence with its gold
labels: loading, the schema or domain, the agent's output format, alignment and scoring must agree, so
every dataset scores a perfect F1. Skipped per dataset when ../shared/data lacks it."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from graphwright.bench.data.ner_data import NER_DATASETS, load_ner_dataset
from graphwright.bench.data.re_data import RE_DATASETS, load_re_dataset
from graphwright.cli import app
from graphwright.papers.agenticner.examples import tagged_text
from graphwright.paths import data_dir
from tests.support.openai_server import ScriptedOpenAIServer

SENTENCES = 2
runner = CliRunner()


def folder_of(name: str) -> str:
    return "crossner" if name.startswith("crossner-") else name


def skip_without(name: str):
    return pytest.mark.skipif(
        not (data_dir() / folder_of(name)).is_dir(), reason=f"{folder_of(name)} not found under {data_dir()}"
    )


def run_eval(tmp_path, system: str, dataset: str, reply, *settings: str) -> dict:
    out = tmp_path / "run"
    with ScriptedOpenAIServer(reply) as server:
        result = runner.invoke(
            app,
            [
                "eval",
                "run",
                "--system",
                system,
                "--dataset",
                dataset,
                "-n",
                str(SENTENCES),
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
                "--no-cache",
                "--out",
                str(out),
                *settings,
            ],
        )
    assert result.exit_code == 0, result.output
    return json.loads((out / "aggregate.json").read_text())


def gold_for(samples, messages) -> object:
    """The sample whose sentence the request is about (its text is in the last message)."""
    user = messages[-1]["content"]
    found = [s for s in samples if s.text in user]
    assert found, f"no test sentence in {user[:200]!r}"
    return max(found, key=lambda s: len(s.text))


@pytest.mark.parametrize("dataset", [pytest.param(n, marks=skip_without(n)) for n in RE_DATASETS.names()])
def test_agentre_scores_gold_answers_perfectly_on_every_dataset(tmp_path, dataset):
    samples = load_re_dataset(dataset).test[:SENTENCES]
    assert any(s.triples for s in samples), "pick sentences with triples"

    def reply(messages, response_format):
        gold = gold_for(samples, messages)
        triples = [{"head": t.head, "relation": t.relation, "tail": t.tail} for t in gold.triples]
        return json.dumps({"thought": "done", "action": "Finish", "action_input": "", "triples": triples})

    aggregate = run_eval(tmp_path, "agentre", dataset, reply, "--set", "retriever=bm25")
    assert aggregate["documents"] == SENTENCES and aggregate["error_rate"] == 0
    assert aggregate["micro"]["triples"]["f1"] == 1.0


@pytest.mark.parametrize("dataset", [pytest.param(n, marks=skip_without(n)) for n in NER_DATASETS.names()])
def test_agenticner_scores_gold_answers_perfectly_on_every_dataset(tmp_path, monkeypatch, dataset):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))
    samples = load_ner_dataset(dataset).test[:SENTENCES]

    def reply(messages, response_format):
        return f"<output>{tagged_text(gold_for(samples, messages))}</output>"

    assert any(s.entities for s in samples), "pick sentences with entities"
    aggregate = run_eval(tmp_path, "agenticner.single", dataset, reply, "--set", "metaprompt=false")
    assert aggregate["documents"] == SENTENCES and aggregate["error_rate"] == 0
    assert aggregate["micro"]["mentions"]["f1"] == 1.0
