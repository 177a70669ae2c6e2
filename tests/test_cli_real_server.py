"""The CLI against a real OpenAI-compatible server on 127.0.0.1: llama.cpp's own HTTP server (through
xllamacpp) serving the embedded 0.5B model, as a vLLM, Ollama or llama.cpp user has one. Keep-alive
connections, real completions, real JSON-Schema-constrained decoding. Quality is not asserted; what
must hold is that every command ends with exit 0 and its outputs written (issue 22 found every
server run ending in "RuntimeError: Event loop is closed")."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.llm.embedded import start_http_server

runner = CliRunner()
TEXT = "Arnold Schwarzenegger was born in Thal."


@pytest.fixture(scope="module")
def llama_server():
    with start_http_server("qwen2.5-coder-0.5b", progress=False) as server:
        yield server.base_url


@pytest.mark.slow
def test_extract_and_eval_run_through_llama_cpp_server(llama_server, tmp_path, default_kb):
    served = ["--model", "qwen", "--base-url", llama_server, "--no-cache"]
    doc = tmp_path / "doc.txt"
    doc.write_text(TEXT, encoding="utf-8")
    extracted = runner.invoke(
        app,
        [
            "extract",
            str(doc),
            "--system",
            "cie.single",
            *served,
            "--store",
            str(tmp_path / "store"),
            "--out",
            str(tmp_path / "out"),
        ],
    )
    assert extracted.exit_code == 0, extracted.output
    (row,) = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert row["usage"]["llm_calls"] >= 1 and row["usage"]["prompt_tokens"] > 0  # a real completion, counted

    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        json.dumps(
            {
                "id": "a",
                "text": TEXT,
                "triples": [{"subject": {"iri": "Q2685"}, "predicate": {"iri": "P19"}, "object": {"iri": "Q571822"}}],
            }
        )
        + "\n"
    )
    evaluated = runner.invoke(
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
            *served,
            "--out",
            str(tmp_path / "run"),
        ],
    )
    assert evaluated.exit_code == 0, evaluated.output
    assert (tmp_path / "run" / "report.md").is_file() and (tmp_path / "run" / "report.html").is_file()
