"""Extracting a stored document again from the text the store keeps: with other settings the system's
result is replaced; with another system and --replace the other systems' runs go and its text stays.
Against a scripted OpenAI-compatible server on 127.0.0.1, through the command line."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import graphwright
from graphwright.cli import app
from graphwright.curation import stored_documents
from tests.support.openai_server import ScriptedOpenAIServer
from tests.support.web_server import job_settings  # a user schema: no benchmark data needed

TEXT = "Maren Solberg founded Tidewater Instruments in Stavanger in 2016. Tidewater Instruments makes tide gauges."


def reply(messages, schema) -> str:
    return json.dumps({"triples": [["Tidewater Instruments", "founded by", "Maren Solberg"]]})


def test_a_stored_document_is_extracted_again_from_its_stored_text(tmp_path):
    store_path = tmp_path / "store"
    with ScriptedOpenAIServer(reply) as server:
        model = ["--model", "scripted", "--base-url", server.base_url, "--no-cache", "--kb", "none"]
        with graphwright.open_store(store_path) as store:
            first = graphwright.extract(
                TEXT, system="openie", model="scripted", base_url=server.base_url, kb="none", store=store, cache=False
            )
            document_id = first.results[0].document_id
            assert [d.text for d in stored_documents(store, [document_id])] == [TEXT]
        asked = len(server.requests)

        again = CliRunner().invoke(
            app, ["graph", "reextract", document_id, "--system", "openie", "--store", str(store_path), *model]
        )
        assert again.exit_code == 0, again.output
        assert len(server.requests) > asked, "run again, not skipped as `extract` would"
        assert f"{document_id}: ok" in again.output

        schema = [item for key, value in job_settings(tmp_path).items() for item in ("--set", f"{key}={value}")]
        other = CliRunner().invoke(
            app,
            [
                "graph",
                "reextract",
                document_id,
                "--system",
                "agentre.zeroshot",
                *schema,
                "--replace",
                "--store",
                str(store_path),
                *model,
            ],
        )
        assert other.exit_code == 0, other.output
        assert "1 other systems' runs removed" in other.output
    with graphwright.open_store(store_path) as store:
        assert [r["system"] for r in store.documents()] == ["agentre.zeroshot"]
        assert store.document_texts() == {document_id: TEXT}, "the text stays for the next re-extraction"

    missing = CliRunner().invoke(
        app,
        [
            "graph",
            "reextract",
            "doc-nope",
            "--store",
            str(store_path),
            "--kb",
            "none",
            "--model",
            "scripted",
            "--base-url",
            "http://127.0.0.1:9/v1",
        ],
    )
    assert missing.exit_code == 1 and "keeps no text of doc-nope" in missing.output
