"""The eval harness: scoring per document, resume, reports, comparison, the generic gold format,
and `graphwright eval run` end to end against a scripted OpenAI-compatible server."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphwright.bench.data.gold import GoldDocument, read_gold_jsonl
from graphwright.bench.eval.datasets import EvalDataset, load_dataset
from graphwright.bench.eval.metrics import PropertyHierarchy
from graphwright.bench.eval.report import html_report, markdown_report
from graphwright.bench.eval.runner import RunInfo, read_documents, run_eval
from graphwright.cli import app
from graphwright.errors import UserError
from graphwright.llm.base import ChatResponse
from graphwright.llm.fake import ScriptedLLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, ExtractionResult, Provenance, Term, Triple, Usage
from tests.support.cie_script import TEXT, lean_script
from tests.support.openai_server import ScriptedOpenAIServer


def bench_module(name: str):
    """A benchmark module (graphwright.bench.<name>)."""
    return importlib.import_module(f"graphwright.bench.{name}")


WD, WDT = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
ARNOLD, THAL, GOP = "Q2685", "Q571822", "Q29468"


def gold_line(doc_id: str, text: str, triples: list[tuple[str, str, str]]) -> dict:
    return {
        "id": doc_id,
        "text": text,
        "triples": [{"subject": {"iri": s}, "predicate": {"iri": p}, "object": {"iri": o}} for s, p, o in triples],
    }


class FixedSystem:
    """Answers each document with the triples it is given; counts calls; fails where told."""

    name = "fixed"

    def __init__(self, answers: dict[str, list[tuple[str, str, str]]], failing: set[str] = frozenset()):
        self.answers, self.failing, self.calls = answers, failing, []

    async def run(self, document):
        self.calls.append(document.id)
        usage = Usage(
            llm_calls=2,
            prompt_tokens=100,
            completion_tokens=10,
            cached_prompt_tokens=60,
            prompt_seconds=1.5,
            generation_seconds=0.5,
        )
        if document.id in self.failing:
            return ExtractionResult.failed(document.id, self.name, "model output was garbage", usage=usage)
        prov = Provenance(system="fixed")
        triples = [
            Triple(
                subject=Term.iri(WD + s, label="<b>x</b>"),
                predicate=Term.iri(WDT + p),
                object=Term.iri(WD + o),
                provenance=prov,
            )
            for s, p, o in self.answers.get(document.id, [])
        ]
        return ExtractionResult(document_id=document.id, system=self.name, triples=triples, usage=usage)


class NoKB:
    def super_properties(self, pid):
        return []


def dataset() -> EvalDataset:
    docs = [
        GoldDocument.model_validate(gold_line("a", TEXT, [(ARNOLD, "P19", THAL), (ARNOLD, "P102", GOP)])),
        GoldDocument.model_validate(gold_line("b", "Some text.", [("Q1", "P31", "Q5")])),
        GoldDocument.model_validate(gold_line("c", "More text.", [("Q2", "P31", "Q5")])),
    ]
    return EvalDataset("toy", docs)


def run(system, out: Path, data=None, info=None):
    info = info or RunInfo(system="fixed", dataset="toy", model="m", kb="none")
    return asyncio.run(run_eval(system, data or dataset(), NoKB(), info, out))


def test_scores_each_document_and_aggregates(tmp_path):
    system = FixedSystem({"a": [(ARNOLD, "P19", THAL)], "b": [("Q1", "P31", "Q5")]}, failing={"c"})
    agg = run(system, tmp_path)
    rows = {r["id"]: r for r in read_documents(tmp_path)}
    assert rows["a"]["counts"]["triples"] == {"matched_pred": 1, "predicted": 1, "matched_gold": 1, "gold": 2}
    assert rows["c"]["status"] == "failed" and rows["c"]["reason"] == "model output was garbage"
    assert agg["error_rate"] == pytest.approx(1 / 3, abs=1e-4)
    # macro triple recall: a 0.5, b 1.0, c 0 (failed)
    assert agg["macro"]["triples"]["recall"] == pytest.approx(0.5, abs=1e-4)
    assert agg["micro"]["triples"]["recall"] == pytest.approx(2 / 4, abs=1e-4)
    assert agg["per_document"]["llm_calls"] == 2
    cost = agg["per_document"]  # the prompt cache and the server's time split, per document
    assert (cost["cached_prompt_tokens"], cost["prompt_seconds"], cost["generation_seconds"]) == (60, 1.5, 0.5)
    assert "60 prompt tokens from the cache" in markdown_report(
        agg
    ) and "1.5 seconds reading prompts" in markdown_report(agg)
    traces = [json.loads(x) for x in (tmp_path / "traces.jsonl").read_text().splitlines()]
    assert [t["trace_id"] for t in traces] == ["a", "b", "c"]


def test_time_outside_the_model_counts_documents_whose_server_reported_its_time():
    from graphwright.bench.eval.runner import outside_model_seconds

    rows = [
        {"usage": {"wall_seconds": 10.0, "prompt_seconds": 6.0, "generation_seconds": 3.5}},
        {"usage": {"wall_seconds": 4.0, "prompt_seconds": 1.0, "generation_seconds": 2.0}},
        {"usage": {"wall_seconds": 7.0}},
    ]  # a server without timings (or all cached): not counted
    assert outside_model_seconds(rows) == 0.75 and outside_model_seconds(rows[2:]) == 0.0


def test_a_rerun_resumes_and_rescores_a_line_cut_by_an_interruption(tmp_path):
    first = FixedSystem({"a": [(ARNOLD, "P19", THAL)]})
    run(first, tmp_path)
    lines = (tmp_path / "documents.jsonl").read_text().splitlines()
    (tmp_path / "documents.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # killed mid-write
    second = FixedSystem({"a": [(ARNOLD, "P19", THAL)]})
    agg = run(second, tmp_path)
    assert second.calls == ["c"]
    assert agg["documents"] == 3


def test_a_resumed_run_reports_only_the_documents_it_scored(tmp_path):
    # the bench ledger stamps each reported document with the commit at hand: one scored by an earlier
    # commit and skipped now must not be reported as this commit's
    run(FixedSystem({}), tmp_path)
    lines = (tmp_path / "documents.jsonl").read_text().splitlines()
    (tmp_path / "documents.jsonl").write_text("\n".join(lines[:2]) + "\n")
    reported: list[str] = []
    info = RunInfo(system="fixed", dataset="toy", model="m", kb="none")
    asyncio.run(run_eval(FixedSystem({}), dataset(), NoKB(), info, tmp_path, on_progress=reported.append))
    assert reported == ["c"]


def test_a_folder_of_another_run_is_refused(tmp_path):
    run(FixedSystem({}), tmp_path)
    with pytest.raises(UserError, match="holds another run"):
        run(FixedSystem({}), tmp_path, info=RunInfo(system="other", dataset="toy", model="m", kb="none"))


def test_html_report_escapes_document_text_and_draws_charts(tmp_path):
    data = dataset()
    data.documents[2].id = '<script>alert("x")</script>'
    agg = run(FixedSystem({}, failing={data.documents[2].id}), tmp_path, data=data)
    page = html_report(agg, read_documents(tmp_path))
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert page.count("<svg") == 2 and "Triples (parental)" in page


def test_generic_gold_format_errors_name_the_line(tmp_path):
    path = tmp_path / "gold.jsonl"
    path.write_text(
        json.dumps(gold_line("a", "t", [("Q1", "P1", "Q2")]))
        + "\n"
        + json.dumps(
            {"id": "b", "text": "t", "triples": [{"subject": {"iri": "Q1"}, "predicate": {}, "object": {"iri": "Q2"}}]}
        )
        + "\n"
    )
    with pytest.raises(UserError, match=r"gold.jsonl:2: .*predicate"):
        read_gold_jsonl(path)


def test_missing_benchmark_data_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_DATA_DIR", str(tmp_path))
    with pytest.raises(UserError, match="GRAPHWRIGHT_DATA_DIR"):
        load_dataset("rebel-sample", 5)


def test_property_hierarchy_from_the_real_kb(default_kb):
    hierarchy = PropertyHierarchy.from_kb(default_kb)
    assert "P463" in hierarchy.parents("P102")  # member of political party -> member of


runner = CliRunner()


def test_cli_eval_run_on_a_user_gold_file_resumes_and_compares(tmp_path, default_kb):
    gold = tmp_path / "mine.jsonl"
    gold.write_text(
        json.dumps(gold_line("arnold", TEXT, [(ARNOLD, "P19", THAL), (ARNOLD, "P102", GOP), (ARNOLD, "P27", "Q40")]))
        + "\n"
    )
    script = lean_script()
    out = tmp_path / "run1"
    args = [
        "eval",
        "run",
        "--system",
        "cie.network",
        "--dataset",
        str(gold),
        "--kb",
        "default",
        "--base-url",
        "",
        "--model",
        "scripted",
        "--no-cache",
        "--out",
        str(out),
    ]
    with ScriptedOpenAIServer(script) as server:
        args[args.index("--base-url") + 1] = server.base_url
        first = runner.invoke(app, args)
        assert first.exit_code == 0, first.output
        calls = len(server.requests)
        again = runner.invoke(app, args)
        assert again.exit_code == 0, again.output
        assert len(server.requests) == calls, "a rerun must not redo scored documents"
    row = read_documents(out)[0]
    assert row["counts"]["triples"] == {"matched_pred": 2, "predicted": 2, "matched_gold": 2, "gold": 3}
    agg = json.loads((out / "aggregate.json").read_text())
    calls = {agent: cost["llm_calls"] for agent, cost in agg["per_agent"].items()}
    assert calls == {"extractor": 1, "uri_mapping": 1}  # the 2 calls, by agent (the checks decide: validator=false)
    assert "| uri_mapping | 1 | 100 | 0% |" in (out / "report.md").read_text()
    assert agg["macro"]["triples"]["precision"] == 1.0
    assert agg["macro"]["triples"]["recall"] == pytest.approx(2 / 3, abs=1e-4)
    assert (out / "report.md").is_file() and (out / "report.html").is_file()

    compared = runner.invoke(app, ["eval", "compare", str(out), str(out), "--markdown"])
    assert compared.exit_code == 0, compared.output
    assert "| Triples F1 | 0.800 | 0.800 |" in compared.output
    # one document: no doubt left about its F1, and a run against itself differs by nothing
    assert "| Triples F1 (micro) 95% CI | 0.800–0.800 | 0.800–0.800 |" in compared.output
    assert "| Triples ΔF1 (micro) vs run1, paired 95% CI | – | +0.000 (+0.000 to +0.000) |" in compared.output
    missing = runner.invoke(app, ["eval", "compare", str(tmp_path / "nothing")])
    assert missing.exit_code == 1 and "not a finished eval run" in missing.output


def test_the_bench_ledger_restores_a_lost_run_folder_without_dataset_text(tmp_path, monkeypatch):
    import shutil

    ledger = bench_module("ledger")
    monkeypatch.setattr(ledger, "RUNS", tmp_path / "runs")
    monkeypatch.setattr(ledger, "LEDGER", tmp_path / "ledger")
    folder = tmp_path / "runs" / "re" / "fixed-toy"
    first = run(FixedSystem({"a": [(ARNOLD, "P19", THAL)]}, failing={"c"}), folder)
    ledger.save(folder)
    saved = (tmp_path / "ledger" / "re--fixed-toy.json").read_text()
    assert TEXT[:30] not in saved and "<b>x</b>" not in saved  # neither dataset text nor predictions

    shutil.rmtree(folder)  # a new machine
    assert ledger.restore(folder) == 3
    again = FixedSystem({})
    resumed = run(again, folder)
    assert again.calls == []
    assert resumed["macro"] == first["macro"] and resumed["error_rate"] == first["error_rate"]
    assert ledger.restore(folder) == 0  # a folder that exists is never overwritten


def test_a_benchmark_in_rounds_scores_the_same_as_one_run(tmp_path):
    bench = bench_module("harness")
    assert bench.rounds(12, 5) == [5, 10, 12] and bench.rounds(3, 5) == [3] and bench.rounds(3, 0) == [3]

    answers = {"a": [(ARNOLD, "P19", THAL)], "b": [("Q1", "P31", "Q5")]}
    whole = run(FixedSystem(answers, failing={"c"}), tmp_path / "whole")
    system = FixedSystem(answers, failing={"c"})
    for limit in bench.rounds(3, 2):
        docs = dataset().documents[:limit]
        info = RunInfo(system="fixed", dataset="toy", model="m", kb="none", limit=limit)
        part = run(system, tmp_path / "rounds", EvalDataset("toy", docs), info)
        assert part["documents"] == limit
    assert sorted(system.calls) == ["a", "b", "c"], "each round runs only the sentences it adds"
    assert part["macro"] == whole["macro"] and part["error_rate"] == whole["error_rate"]


async def test_the_ledger_replays_recorded_answers_on_a_new_machine(tmp_path):
    ledger = bench_module("ledger")
    prompt = [{"role": "user", "content": "a train sentence the ledger must not keep"}]
    first = ScriptedLLM(["the answer"])
    path = tmp_path / "ledger" / "warm-up.jsonl"
    assert (await ledger.ReplayLLM(first, path).chat(prompt, max_tokens=8)).text == "the answer"
    recorded = path.read_text()
    assert "the answer" in recorded and "train sentence" not in recorded

    later = ScriptedLLM([])  # a new machine: the model is never asked
    replayed = await ledger.ReplayLLM(later, path).chat(prompt, max_tokens=8)
    assert replayed.text == "the answer" and replayed.cached and not later.calls
    with pytest.raises(AssertionError):  # another request is not in the ledger: the model is asked
        await ledger.ReplayLLM(later, path).chat(prompt, max_tokens=9)


async def test_configurations_sharing_answers_count_the_replayed_model_time(tmp_path):
    ledger = bench_module("ledger")

    class SlowModel:  # every answer took 2.5 s of model time
        name, calls = "slow", 0

        async def chat(self, messages, **kwargs):
            self.calls += 1
            return ChatResponse(
                text=f"tags of {messages[-1]['content']}",
                model=self.name,
                usage=Usage(llm_calls=1, prompt_tokens=50, completion_tokens=5, seconds=2.5),
            )

    class OneCall:  # like a system: its documents' seconds are wall time
        name = "one-call"

        def __init__(self, llm):
            self.llm = llm

        async def run(self, document):
            meter = MeteredLLM(self.llm)
            reply = await meter.chat([{"role": "user", "content": document.text}])
            return ExtractionResult(document_id=document.id, system=self.name, output=reply.text, usage=meter.usage)

    model = SlowModel()
    shared = ledger.ReplayLLM(model, tmp_path / "answers.jsonl")
    first = await ledger.ReplayedTime(OneCall(shared), shared).run(Document(id="s1", text="a sentence"))
    second = await ledger.ReplayedTime(OneCall(shared), shared).run(Document(id="s1", text="a sentence"))
    assert model.calls == 1 and second.output == first.output  # the second configuration got the answer
    assert second.usage.llm_calls == 1 and second.usage.cached_calls == 1 and second.usage.prompt_tokens == 50
    assert 2.5 <= second.usage.seconds < 3.0  # the recorded model time, not the instant replay
    other = await ledger.ReplayedTime(OneCall(shared), shared).run(Document(id="s2", text="another sentence"))
    assert model.calls == 2 and other.usage.cached_calls == 0  # a new request is asked of the model


@pytest.mark.parametrize("script", ["relations", "ner"])
def test_bench_configurations_parse_by_default_and_by_name(script, monkeypatch):
    bench, shared = bench_module(script), bench_module("harness")
    parse, names = shared.config_args, list(bench.CONFIGS)
    assert not any("," in name for name in names)  # --configs separates names by commas
    monkeypatch.setattr("sys.argv", [script])
    args, _ = parse(argparse.ArgumentParser(), bench.CONFIGS, script)
    assert args.configs == names  # no name is split apart, whatever it holds
    monkeypatch.setattr("sys.argv", [script, "--configs", f"{names[-1]},{names[0]}"])
    args, command = parse(argparse.ArgumentParser(), bench.CONFIGS, script)
    assert args.configs == [names[-1], names[0]] and names[0] in command
    assert len({shared.slug(name) for name in names}) == len(names)  # one run folder each


@pytest.mark.parametrize("script,category", [("relations", "triples"), ("ner", "mentions")])
def test_bench_tables_compare_each_configuration_with_the_reference(script, category):
    bench = bench_module(script)
    assert bench.REFERENCE in bench.CONFIGS

    def result(name, hits):  # ten sentences of two gold items each; `hits` of them found on each
        rows = [
            {
                "id": f"s{i}",
                "counts": {
                    category: {"matched_pred": hits, "predicted": 2, "matched_gold": hits, "gold": 2},
                    "boundaries": {},
                },
                "usage": {"seconds": 3.0},
            }
            for i in range(10)
        ]
        f1 = hits / 2
        agg = {
            "micro": {category: {"precision": f1, "recall": f1, "f1": f1}, "boundaries": {"f1": f1}},
            "error_rate": 0.0,
            "per_document": {"llm_calls": 1, "prompt_tokens": 10, "completion_tokens": 5, "seconds": 1.0},
        }
        return name, agg, rows

    other = next(n for n in bench.CONFIGS if n != bench.REFERENCE)
    extra = {"warmed": 50} if script == "relations" else {}
    table = bench.table("conll04", [result(bench.REFERENCE, 1), result(other, 2)], "m", "cmd", "the first 10 ", **extra)
    rows = {line.split(" | ")[0].lstrip("| "): line for line in table.splitlines() if line.startswith("| ")}
    assert "| 0.500–0.500 | – |" in rows[bench.REFERENCE]
    assert "| 1.000–1.000 | +0.500 (+0.500 to +0.500) |" in rows[other]
    assert "bootstrap" in table
    if script == "ner":  # model time, with replayed answers at their recorded time; wall time skips them
        assert rows[other].endswith("| 3.0 |")


def test_a_closed_ie_run_without_a_kb_scores_exact_properties():
    """`--kb none`: no property hierarchy, so only exact properties count, and no crash."""
    from graphwright.bench.eval.runner import make_scorer

    gold = GoldDocument.model_validate(
        {
            "id": "d",
            "text": "...",
            "triples": [
                {
                    "subject": {"surface": "Katrin Vogel"},
                    "predicate": {"iri": "P102"},
                    "object": {"surface": "Green Party"},
                }
            ],
        }
    )
    pred = ExtractionResult(
        document_id="d",
        system="t",
        triples=[
            Triple(
                subject=Term.iri("https://graphwright.dev/entity/Katrin%20Vogel", surface="Katrin Vogel"),
                predicate=Term.iri("http://www.wikidata.org/prop/direct/P102"),
                object=Term.iri("https://graphwright.dev/entity/Green%20Party", surface="Green Party"),
                provenance=Provenance(system="t"),
            )
        ],
    )
    scorer = make_scorer(EvalDataset("mine", [gold]), None)
    assert scorer.score_document(pred, gold)["triples"].f1 == 1.0
