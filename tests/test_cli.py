"""The CLI end to end against a scripted OpenAI-compatible server on 127.0.0.1:
extract, resume, export, view, and bad inputs ending as recorded failures."""

from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.kb.namespaces import UNLINKED_RELATION, WDT
from graphwright.store import GraphStore
from tests.support.cie_script import (
    MAPPING,
    TEXT,
    TRIPLES,
    architecture_script,
    lean_script,
)
from tests.support.openai_server import ScriptedOpenAIServer
from tests.support.site import site

runner = CliRunner()


def happy_script():
    return lean_script()


def extract(tmp_path: Path, server, *paths: str, extra=()):
    return runner.invoke(
        app,
        [
            "extract",
            *paths,
            "--system",
            "cie.network",
            "--base-url",
            server.base_url,
            "--model",
            "scripted",
            "--store",
            str(tmp_path / "store"),
            "--out",
            str(tmp_path / "out"),
            *extra,
        ],
    )


@pytest.fixture()
def doc(tmp_path: Path) -> Path:
    path = tmp_path / "doc.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def test_cli_extract_export_view_and_resume(tmp_path, doc, default_kb):
    with ScriptedOpenAIServer(happy_script()) as server:
        first = extract(tmp_path, server, str(doc), extra=["--no-cache"])
        assert first.exit_code == 0, first.output
        assert len(server.requests) == 2  # extractor and URI agent; the checks decide (validator=false)
        again = extract(tmp_path, server, str(doc), extra=["--no-cache"])
        assert again.exit_code == 0, again.output
        assert len(server.requests) == 2, "a rerun must skip the finished document"
    assert "1 / 0 / 0" in first.output and "0 / 1 / 0" in again.output

    ttl = tmp_path / "g.ttl"
    assert runner.invoke(app, ["graph", "export", str(ttl), "--store", str(tmp_path / "store")]).exit_code == 0
    triples = {
        (t.subject.value, t.predicate.value, t.object.value)
        for t in ox.parse(ttl.read_bytes(), format=ox.RdfFormat.TURTLE)
    }
    assert (
        "http://www.wikidata.org/entity/Q2685",
        "http://www.wikidata.org/prop/direct/P102",
        "http://www.wikidata.org/entity/Q29468",
    ) in triples

    html = tmp_path / "g.html"
    assert runner.invoke(app, ["graph", "view", str(html), "--store", str(tmp_path / "store")]).exit_code == 0
    page = html.read_text(encoding="utf-8")
    assert "Republican Party" in page and "born in Thal" in page

    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert rows[0]["status"] == "ok" and rows[0]["usage"]["llm_calls"] == 2


@pytest.mark.parametrize("system", ["cie.baseline", "cie.ssa", "cie.sssa", "cie.react"])
def test_cli_extract_with_each_cie_architecture(tmp_path, doc, default_kb, system):
    settings = ["--set", 'tools=["uri_retrieval_tool"]'] if system == "cie.react" else []
    with ScriptedOpenAIServer(architecture_script(system)) as server:
        result = extract(tmp_path, server, str(doc), extra=["--system", system, "--no-cache", *settings])
        assert result.exit_code == 0, result.output
    ttl = tmp_path / "g.ttl"
    assert runner.invoke(app, ["graph", "export", str(ttl), "--store", str(tmp_path / "store")]).exit_code == 0
    triples = {
        (t.subject.value, t.predicate.value, t.object.value)
        for t in ox.parse(ttl.read_bytes(), format=ox.RdfFormat.TURTLE)
    }
    assert (
        "http://www.wikidata.org/entity/Q2685",
        "http://www.wikidata.org/prop/direct/P102",
        "http://www.wikidata.org/entity/Q29468",
    ) in triples
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert rows[0]["system"] == system and rows[0]["status"] == "ok"


def test_cli_bad_inputs_are_recorded_not_fatal(tmp_path, doc, default_kb):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.txt").write_bytes(b"")
    (bad / "binary.txt").write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00\x00")
    (bad / "latin1.txt").write_bytes("Müller wohnt in Graz.".encode("latin-1"))
    (bad / "huge.txt").write_text("Graz is a city. " * 330_000, encoding="utf-8")  # about 5 MB
    with ScriptedOpenAIServer(happy_script()) as server:
        result = extract(tmp_path, server, str(bad), str(doc), extra=["--no-cache"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "1 / 0 / 4" in out
    for expected in (
        "is empty",
        "looks binary",
        "not valid utf-8",
        "bytes, so it has more than the limit of 200,000 characters",
    ):
        assert expected in " ".join(out.split())


def test_cli_extracts_a_web_page_by_url_and_records_one_that_fails(tmp_path, default_kb):
    page = (200, {"Content-Type": "text/plain; charset=utf-8"}, TEXT.encode("utf-8"))
    with site({"/profile": page}) as web, ScriptedOpenAIServer(happy_script()) as server:
        result = extract(tmp_path, server, f"{web}/profile", f"{web}/gone", extra=["--no-cache"])
    assert result.exit_code == 0, result.output
    assert "1 / 0 / 1" in result.output and "HTTP 404" in " ".join(result.output.split())
    with GraphStore.open(tmp_path / "store") as store:
        runs = {run["source"]: run for run in store.documents()}
    assert runs[f"{web}/profile"]["status"] == "ok" and runs[f"{web}/profile"]["triples"]
    assert runs[f"{web}/gone"]["status"] == "failed" and "HTTP 404" in runs[f"{web}/gone"]["reason"]


def test_cli_garbage_model_is_a_recorded_failure(tmp_path, doc, default_kb):
    with ScriptedOpenAIServer(lambda messages, fmt: "%%% garbage %%%") as server:
        result = extract(tmp_path, server, str(doc), extra=["--no-cache"])
    assert result.exit_code == 2
    assert "never gave a usable answer" in " ".join(result.output.split())
    row = json.loads((tmp_path / "out" / "results.jsonl").read_text().splitlines()[0])
    assert row["status"] == "failed" and row["usage"]["llm_calls"] > 0


def test_cli_unreachable_server_is_a_clear_failure(tmp_path, doc, default_kb):
    result = runner.invoke(
        app,
        [
            "extract",
            str(doc),
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--store",
            str(tmp_path / "store"),
            "--out",
            str(tmp_path / "out"),
            "--no-cache",
        ],
    )
    assert result.exit_code == 2
    assert "127.0.0.1:9" in "".join(result.output.split())


def test_cli_unknown_system_lists_valid_names(tmp_path, doc):
    result = runner.invoke(
        app,
        [
            "extract",
            str(doc),
            "--system",
            "cie.nope",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--store",
            str(tmp_path / "store"),
            "--out",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 1
    assert "cie.network" in result.output


def test_cli_systems_lists_cie_network():
    result = runner.invoke(app, ["systems"])
    assert result.exit_code == 0 and "cie.network" in result.output


def test_cli_misspelt_setting_is_an_error(tmp_path, doc, default_kb):
    result = runner.invoke(
        app,
        [
            "extract",
            str(doc),
            "--system",
            "cie.network",
            "--set",
            "max_stepz=3",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--store",
            str(tmp_path / "store"),
            "--out",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 1
    assert "max_stepz" in result.output and "max_steps" in result.output


VOGEL_TEXT = "Katrin Vogel was born in Thal. She is a member of the Republican Party."
VOGEL = "https://graphwright.dev/entity/Katrin%20Vogel"


def look_alike_script():
    """The model maps a person the KB lacks onto a look-alike, as small models do."""
    triples = [{**t, "subject": "Katrin Vogel"} for t in TRIPLES]
    mapping = [{"surface": "Katrin Vogel", "iri": "wd:Q467464"}, *MAPPING[1:]]
    return lean_script(triples=triples, mapping=mapping)


LOOK_ALIKE = "http://www.wikidata.org/entity/Q467464"  # Katrín Jakobsdóttir


# open: her own node; closed: the name check leaves the fact out; closed without it: the look-alike
@pytest.mark.parametrize(
    "linking,subjects", [("open", {VOGEL}), ("closed", set()), ("closed --set name_check=false", {LOOK_ALIKE})]
)
def test_cli_extract_keeps_a_person_the_kb_lacks_unlinked(tmp_path, default_kb, linking, subjects):
    doc = tmp_path / "vogel.txt"
    doc.write_text(VOGEL_TEXT, encoding="utf-8")
    with ScriptedOpenAIServer(look_alike_script()) as server:
        done = extract(tmp_path, server, str(doc), extra=["--no-cache", "--set", *f"linking={linking}".split()])
    assert done.exit_code == 0, done.output
    assert f"kept unlinked) │ {1 if linking == 'open' else 0}" in done.output.replace("  ", " ").replace("  ", " ")
    ttl = tmp_path / "g.ttl"
    assert runner.invoke(app, ["graph", "export", str(ttl), "--store", str(tmp_path / "store")]).exit_code == 0
    found = {
        t.subject.value
        for t in ox.parse(ttl.read_bytes(), format=ox.RdfFormat.TURTLE)
        if t.predicate.value == "http://www.wikidata.org/prop/direct/P102"
    }
    assert found == subjects


def test_extract_runs_facts_by_default_and_keeps_what_no_property_fits(tmp_path, default_kb):
    doc = tmp_path / "tidewater.txt"
    doc.write_text(
        "Maren Solberg founded Tidewater Instruments in Stavanger in 2016. The company sponsors the fishing festival.",
        encoding="utf-8",
    )
    answer = {
        "triples": [
            ["Tidewater Instruments", "founded by", "Maren Solberg"],
            ["Tidewater Instruments", "founded on", "2016"],
            ["Tidewater Instruments", "sponsors", "fishing festival"],
        ]
    }
    with ScriptedOpenAIServer(lambda messages, fmt: json.dumps(answer)) as server:
        done = runner.invoke(
            app,
            [
                "extract",
                str(doc),
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
                "--no-cache",
                "--store",
                str(tmp_path / "store"),
                "--out",
                str(tmp_path / "out"),
            ],
        )
        assert done.exit_code == 0, done.output
        assert len(server.requests) == 1
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert rows[0]["system"] == "facts"
    with GraphStore.open_for_reading(tmp_path / "store") as store:
        predicates = {t.predicate.value for t in store.triples()}
    assert {WDT + "P112", WDT + "P571", UNLINKED_RELATION + "sponsors"} == predicates
