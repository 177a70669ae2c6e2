"""agenticner through the CLI against a scripted OpenAI-compatible server on 127.0.0.1: a user's domain
file (`--config`) with examples and a grounding KB beside it, into the graph store; and `eval run` on a
NER dataset, whose rows keep the predicted and gold mentions."""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.paths import data_dir
from tests.support.openai_server import ScriptedOpenAIServer

runner = CliRunner()
SCHEMA = "https://graphwright.dev/schema/"


def served(server):
    return ["--base-url", server.base_url, "--model", "scripted", "--no-cache"]


def write_config(folder):
    """A domain file naming its examples and KB relative to itself, as a user would keep them together."""
    (folder / "cfg").mkdir()
    (folder / "cfg" / "examples.jsonl").write_text(
        json.dumps({"text": "<Chemical>NaCl</Chemical> was measured on the <Instrument>Bruker 400</Instrument> ."})
        + "\n"
    )
    (folder / "cfg" / "kb.tsv").write_text("sodium chloride\tChemical\n")
    config = folder / "cfg" / "lab.yaml"
    config.write_text(
        "name: lab notes\ndomain: Lab notebook entries of a chemistry group.\ntypes:\n"
        "  Chemical: Substances and compounds.\n  Instrument: Devices used to measure.\n"
        "examples_file: examples.jsonl\nkb_file: kb.tsv\nmetaprompt: false\nresearcher: false\n"
    )
    return config


def test_extract_with_a_domain_config_into_the_store(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))
    config = write_config(tmp_path)
    doc = tmp_path / "note.txt"
    doc.write_text("We dissolved sodium chloride & water, then used the <NMR> spectrometer.", encoding="utf-8")
    seen = []

    def reply(messages, response_format):
        seen.append(messages[0]["content"])
        if "You review" in messages[0]["content"]:
            return "APPROVED!"
        # the model rewrites the text a little ("and" for "&"); alignment still finds the spans
        return (
            "<output>We dissolved <Chemical>sodium chloride</Chemical> and water, then used the &lt;NMR&gt; "
            "<Instrument>spectrometer</Instrument>.</output>"
        )

    with ScriptedOpenAIServer(reply) as server:
        result = runner.invoke(
            app,
            [
                "extract",
                str(doc),
                "--system",
                "agenticner",
                "--config",
                str(config),
                "--kb",
                "none",
                *served(server),
                "--store",
                str(tmp_path / "store"),
                "--out",
                str(tmp_path / "out"),
            ],
        )
    assert result.exit_code == 0, result.output
    assert "Bruker 400" in seen[0], "the examples file beside the config reached the tagger prompt"
    ttl = tmp_path / "g.ttl"
    assert runner.invoke(app, ["graph", "export", str(ttl), "--store", str(tmp_path / "store")]).exit_code == 0
    graph = {
        (t.subject.value, t.predicate.value, t.object.value)
        for t in ox.parse(ttl.read_bytes(), format=ox.RdfFormat.TURTLE)
    }
    rdf_type = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
    assert ("https://graphwright.dev/entity/sodium%20chloride", rdf_type, SCHEMA + "lab%20notes/Chemical") in graph
    assert ("https://graphwright.dev/entity/spectrometer", rdf_type, SCHEMA + "lab%20notes/Instrument") in graph


def test_a_bad_config_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("- just\n- a list\n")
    where = ["--store", str(tmp_path / "store"), "--out", str(tmp_path / "out")]
    result = runner.invoke(
        app, ["extract", str(bad), "--system", "agenticner", "--config", str(bad), "--kb", "none", *where]
    )
    assert result.exit_code != 0 and "a configuration is a mapping of settings" in " ".join(result.output.split())
    assert not (tmp_path / "store").exists(), "no store for a run that could not start"
    typo = tmp_path / "typo.yaml"
    typo.write_text("domain: x\ntypes: {A: a}\nreviewr: false\n")
    result = runner.invoke(
        app, ["extract", str(bad), "--system", "agenticner", "--config", str(typo), "--kb", "none", *where]
    )
    assert result.exit_code != 0 and "reviewr" in result.output


@pytest.mark.skipif(not (data_dir() / "conll2003").is_dir(), reason=f"conll2003 not found under {data_dir()}")
def test_eval_run_on_conll2003_keeps_predicted_and_gold_mentions(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))

    def reply(messages, response_format):
        user = messages[-1]["content"]
        if "JAPAN" in user:
            return "<output>SOCCER - <location>JAPAN</location> GET LUCKY WIN , <location>CHINA</location> IN SURPRISE DEFEAT .</output>"
        return "<output><person>Nadim Ladki</person></output>"

    out = tmp_path / "run"
    with ScriptedOpenAIServer(reply) as server:
        result = runner.invoke(
            app,
            [
                "eval",
                "run",
                "--system",
                "agenticner.single",
                "--dataset",
                "conll2003",
                "-n",
                "2",
                *served(server),
                "--out",
                str(out),
                "--set",
                "metaprompt=false",
            ],
        )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (out / "documents.jsonl").read_text().splitlines()]
    assert rows[0]["entities"] == [
        {"start": 9, "end": 14, "type": "location", "surface": "JAPAN"},
        {"start": 31, "end": 36, "type": "location", "surface": "CHINA"},
    ]
    assert {"start": 31, "end": 36, "type": "person", "surface": "CHINA"} in rows[0][
        "gold_entities"
    ]  # CoNLL's own label
    assert rows[0]["counts"]["mentions"] == {"matched_pred": 1, "predicted": 2, "matched_gold": 1, "gold": 2}
    assert rows[1]["counts"]["mentions"]["matched_pred"] == 1
    aggregate = json.loads((out / "aggregate.json").read_text())
    assert aggregate["micro"]["mentions"]["precision"] == pytest.approx(2 / 3, abs=1e-4)
