"""`graphwright ask` through the CLI: a graph built by `extract --system openie` from two texts, a
question answered from it with citations to its facts and files, against a scripted OpenAI-compatible
server on 127.0.0.1."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from graphwright.cli import app
from tests.support.openai_server import ScriptedOpenAIServer

runner = CliRunner()
TEXTS = {
    "ferries.txt": "Kestrel Ferries was founded by Idris Penhallow. Its flagship is the MV Corra Lynn.",
    "ship.txt": "The MV Corra Lynn was built by Arnvik Verft in Bergen.",
}
TRIPLES = {
    "Kestrel": [["Kestrel Ferries", "founded by", "Idris Penhallow"], ["Kestrel Ferries", "flagship", "MV Corra Lynn"]],
    "Arnvik": [["The MV Corra Lynn", "built by", "Arnvik Verft"], ["Arnvik Verft", "located in", "Bergen"]],
}


def served(server):
    return ["--base-url", server.base_url, "--model", "scripted", "--no-cache"]


def build(tmp_path):
    folder = tmp_path / "texts"
    folder.mkdir()
    for name, text in TEXTS.items():
        (folder / name).write_text(text, encoding="utf-8")

    def reply(messages, response_format):
        passage = messages[-1]["content"]
        return json.dumps(
            {"triples": next(t for key, t in TRIPLES.items() if key in passage.split("Passage:")[-1][:40])}
        )

    store = tmp_path / "store"
    with ScriptedOpenAIServer(reply) as server:
        result = runner.invoke(
            app,
            [
                "extract",
                str(folder),
                "--system",
                "openie",
                *served(server),
                "--store",
                str(store),
                "--out",
                str(tmp_path / "out"),
            ],
        )
    assert result.exit_code == 0, result.output
    return store


def test_ask_answers_with_citations_to_facts_and_files(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))
    store = build(tmp_path)
    asked = []

    def answer(messages, response_format):
        asked.append(messages[-1]["content"])
        cited = next(line[1:3] for line in messages[-1]["content"].splitlines() if "built by | Arnvik Verft" in line)
        return json.dumps({"answer": "Arnvik Verft", "citations": [cited]})

    question = "Which shipyard built the flagship of Kestrel Ferries?"
    with ScriptedOpenAIServer(answer) as server:
        result = runner.invoke(
            app, ["ask", question, "--store", str(store), "--kb", "none", *served(server), "--show-subgraph"]
        )
        as_json = runner.invoke(
            app, ["ask", question, "--store", str(store), "--kb", "none", *served(server), "--json"]
        )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    answer_at = lines.index("Arnvik Verft")
    assert "The MV Corra Lynn | built by | Arnvik Verft" in lines[answer_at + 1] and "ship.txt" in lines[answer_at + 1]
    assert "Kestrel Ferries" in result.output.split("where the question enters the graph")[1]  # the seed table
    assert "Question: " + question in asked[0]
    data = json.loads(as_json.output)
    assert data["supported"] and data["citations"][0]["text"].startswith("The MV Corra Lynn | built by | Arnvik Verft")
    assert data["usage"]["llm_calls"] == 1 and data["seeds"][0]["label"] == "Kestrel Ferries"


def test_nothing_retrieved_is_said_and_a_guess_only_on_request_labelled_as_one(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))
    store = build(tmp_path)
    unknown = runner.invoke(app, ["ask", "Who?", "--store", str(store), "--doc", "nope.txt"])
    assert unknown.exit_code == 1 and "no document 'nope.txt'" in unknown.output
    with ScriptedOpenAIServer(lambda messages, fmt: json.dumps({"answer": "Oslo", "citations": []})) as server:
        honest = runner.invoke(
            app, ["ask", "What is the capital of Norway?", "--store", str(store), "--kb", "none", *served(server)]
        )
        asked = len(server.requests)
        result = runner.invoke(
            app,
            [
                "ask",
                "What is the capital of Norway?",
                "--store",
                str(store),
                "--kb",
                "none",
                "--guess",
                *served(server),
            ],
        )
    assert honest.exit_code == 0 and asked == 0, honest.output
    assert "The graph holds nothing about Norway" in honest.output and "Oslo" not in honest.output
    assert result.exit_code == 0, result.output
    assert "Oslo" in result.output and "model's guess" in result.output


def test_ask_without_a_store_or_with_a_bad_mode_says_what_to_do(tmp_path):
    missing = runner.invoke(app, ["ask", "Who?", "--store", str(tmp_path / "nothing")])
    assert missing.exit_code == 1 and "graphwright extract" in missing.output
    bad = runner.invoke(app, ["ask", "Who?", "--store", str(tmp_path), "--mode", "everything"])
    assert bad.exit_code == 1 and "local, passages or global" in bad.output


def test_the_notes_reader_shows_the_models_notes_and_the_default_short_one_none(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))
    store = build(tmp_path)
    formats = []

    def answer(messages, response_format):
        formats.append(response_format)
        wrote = {"answer": "Arnvik Verft", "citations": ["P1"]}
        notes = "notes" in response_format["json_schema"]["schema"]["properties"]
        return json.dumps({"notes": "MV Corra Lynn: built by Arnvik Verft", **wrote} if notes else wrote)

    question = "Which shipyard built the MV Corra Lynn?"
    ask = ["ask", question, "--store", str(store), "--kb", "none", "--mode", "passages"]
    with ScriptedOpenAIServer(answer) as server:
        notes = runner.invoke(app, [*ask, "--reader", "notes", *served(server)])
        short = runner.invoke(app, [*ask, *served(server)])
    assert notes.exit_code == 0 and short.exit_code == 0, notes.output + short.output
    assert "the model's notes: MV Corra Lynn: built by Arnvik Verft" in notes.output
    assert "Arnvik Verft" in short.output and "the model's notes" not in short.output
    assert "notes" not in formats[1]["json_schema"]["schema"]["properties"]
    bad = runner.invoke(app, [*ask, "--reader", "long"])
    assert bad.exit_code == 1 and "notes or short" in bad.output
