"""The single-call baseline cie.single with a scripted model on the real default KB:
candidate retrieval, the candidate-constrained schema, error feedback and failures."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.errors import GraphwrightError, LLMUnavailableError, UserError
from graphwright.kb.namespaces import WD, WDT
from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.papers.cie.single import retrieve_candidates
from graphwright.systems.base import make_system, system_names
from tests.support.openai_server import ScriptedOpenAIServer

TEXT = "Arnold Schwarzenegger was born in Thal. He is a member of the Republican Party."
BIRTH = {"subject": "wd:Q2685", "predicate": "wdt:P19", "object": "wd:Q571822"}
PARTY = {"subject": "wd:Q2685", "predicate": "wdt:P102", "object": "wd:Q29468"}


def answer(*triples) -> str:
    return json.dumps({"triples": list(triples)})


def run(llm, kb, text=TEXT, **config):
    system = make_system("cie.single", llm, kb, config)
    return asyncio.run(system.run(Document(text=text)))


def test_cie_single_candidates_for_a_short_text(default_kb):
    found = retrieve_candidates(default_kb, TEXT)
    entities = {c.id: c for c in found.entities}
    assert {"Q2685", "Q571822", "Q29468"} <= set(entities)
    assert entities["Q2685"].surface == "Arnold Schwarzenegger" and entities["Q2685"].label == "Arnold Schwarzenegger"
    assert entities["Q29468"].description  # the model sees what each candidate is
    properties = {c.id for c in found.properties}
    assert {"P19", "P102"} <= properties
    assert "P569" not in properties  # date of birth takes a literal: out of scope here
    assert all(c.kind == "property" for c in found.properties) and all(c.kind == "entity" for c in found.entities)


def test_cie_single_caps_and_misspelt_names(default_kb):
    found = retrieve_candidates(
        default_kb, "Arnold Schwarzeneger married Maria Shriver in July.", max_entities=3, max_properties=2
    )
    ids = [c.id for c in found.entities]
    assert len(ids) <= 3 and len(found.properties) <= 2
    assert "Q2685" in ids and "Q230654" in ids  # a misspelt name is searched, not only looked up
    assert not any(c.surface == "July" for c in found.entities)  # dates are literals, not searched
    # the cap keeps each mention's best record before second readings of a name (Paris, Kentucky)
    found = retrieve_candidates(default_kb, "He flew from Paris to Hawaii.", max_entities=2)
    assert [c.id for c in found.entities] == ["Q90", "Q782"]


def test_cie_single_schema_allows_only_candidate_ids(default_kb):
    llm = ScriptedLLM([answer(BIRTH)])
    result = run(llm, default_kb)
    schema = llm.calls[0]["json_schema"]
    triple = schema["$defs"]["CandidateTriple"]["properties"]
    entities, properties = result.extra["candidates"]["entities"], result.extra["candidates"]["properties"]
    assert triple["subject"]["enum"] == entities and triple["object"]["enum"] == entities
    assert triple["predicate"]["enum"] == properties
    assert all(i.startswith("wd:Q") for i in entities) and all(i.startswith("wdt:P") for i in properties)
    prompt = llm.calls[0]["messages"][-1]["content"]
    assert "wd:Q2685 Arnold Schwarzenegger" in prompt and "wdt:P19 place of birth" in prompt


def test_cie_single_valid_reply_becomes_triples(default_kb):
    llm = ScriptedLLM([answer(BIRTH, PARTY, BIRTH)], name="scripted-model")
    result = run(llm, default_kb)
    assert result.status == "ok" and result.system == "cie.single"
    assert [t.key() for t in result.triples] == [
        (WD + "Q2685", WDT + "P19", WD + "Q571822"),
        (WD + "Q2685", WDT + "P102", WD + "Q29468"),
    ]  # duplicate dropped
    birth = result.triples[0]
    assert birth.subject.label == "Arnold Schwarzenegger" and birth.subject.surface == "Arnold Schwarzenegger"
    assert birth.predicate.label == "place of birth" and birth.object.surface == "Thal"
    assert birth.provenance.evidence.text == "Arnold Schwarzenegger was born in Thal."
    prov = birth.provenance
    assert (prov.system, prov.agent, prov.model, prov.prompt_version) == (
        "cie.single.v1",
        "single",
        "scripted-model",
        "single.v1",
    )
    assert [(s.node, s.kind) for s in result.trace] == [("candidate_retrieval", "tool"), ("single", "agent")]
    assert result.usage.llm_calls == 1 and result.usage.total_tokens > 0
    assert result.output.splitlines()[0] == "wd:Q2685 wdt:P19 wd:Q571822 ."


def test_cie_single_feeds_malformed_output_back(default_kb):
    unknown = {**PARTY, "object": "wd:Q42"}  # Douglas Adams: not a candidate for this text
    llm = ScriptedLLM(["this is not json", answer(unknown), answer(BIRTH)])
    result = run(llm, default_kb)
    assert result.status == "ok" and len(result.triples) == 1
    assert "not valid JSON" in llm.calls[1]["messages"][-1]["content"]
    fed_back = llm.calls[2]["messages"][-1]["content"]
    assert "'wd:Q42' is not one of the entity candidates" in fed_back
    assert [s.error is not None for s in result.trace if s.kind == "agent"] == [True, True, False]
    assert result.usage.llm_calls == 3 and result.extra["attempts"] == 3


def test_cie_single_garbage_every_time_is_a_failed_result(default_kb):
    llm = ScriptedLLM(lambda messages, schema: "%%% garbage %%%")
    result = run(llm, default_kb, max_retries=1)
    assert result.status == "failed" and not result.triples
    assert "never gave a usable answer in 2 attempt(s)" in result.reason and "not valid JSON" in result.reason
    assert len(llm.calls) == 2 and result.usage.llm_calls == 2


def test_cie_single_backend_errors_and_budget_are_failed_results(default_kb):
    down = run(ScriptedLLM([LLMUnavailableError("server down")]), default_kb)
    assert down.status == "failed" and down.reason == "LLMUnavailableError: server down"
    # the first answer spends the whole budget, so the correction cannot be asked for
    spent = run(ScriptedLLM(["not json", answer(BIRTH)]), default_kb, token_budget=10)
    assert spent.status == "failed" and spent.reason.startswith("BudgetExceededError")
    assert spent.usage.llm_calls == 1


def test_cie_single_without_candidates_makes_no_call(default_kb):
    llm = ScriptedLLM([])  # any call would raise ScriptExhaustedError
    result = run(llm, default_kb, text="It was so, and then it was not.")
    assert result.status == "ok" and not result.triples and not llm.calls
    assert "no entity candidates" in result.warnings[0]


def test_cie_single_kb_failure_is_a_failed_result():
    class BrokenKB:
        def find_label(self, label, kind=None):
            raise GraphwrightError("KB offline")

    result = run(ScriptedLLM([]), BrokenKB())
    assert result.status == "failed" and "candidate retrieval failed" in result.reason and "KB offline" in result.reason


def test_cie_single_bad_settings_are_user_errors(default_kb):
    with pytest.raises(UserError, match="max_entitiez.*valid settings: .*max_entities"):
        make_system("cie.single", ScriptedLLM([]), default_kb, {"max_entitiez": 3})
    with pytest.raises(UserError, match="not property ids: Q5"):
        make_system("cie.single", ScriptedLLM([]), default_kb, {"always_properties": ["P31", "Q5"]})


def test_cie_single_from_the_cli(tmp_path: Path, default_kb):
    assert "cie.single" in system_names()
    doc = tmp_path / "doc.txt"
    doc.write_text(TEXT, encoding="utf-8")
    with ScriptedOpenAIServer(lambda messages, fmt: answer(BIRTH, PARTY)) as server:
        result = CliRunner().invoke(
            app,
            [
                "extract",
                str(doc),
                "--system",
                "cie.single",
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
                "--store",
                str(tmp_path / "store"),
                "--out",
                str(tmp_path / "out"),
                "--no-cache",
                "--set",
                "max_entities=20",
            ],
        )
        assert result.exit_code == 0, result.output
        assert len(server.requests) == 1
        assert "enum" in json.dumps(server.requests[0]["response_format"])
    row = json.loads((tmp_path / "out" / "results.jsonl").read_text().splitlines()[0])
    assert row["status"] == "ok" and row["system"] == "cie.single"
    assert "1 / 0 / 0" in result.output


def test_cie_single_caps_its_answer_at_the_texts_length(default_kb):
    from graphwright.papers.cie.single.config import SingleConfig

    capped = SingleConfig()  # the default since issue 23
    assert capped.completion_cap(TEXT) == 128 and capped.completion_cap("x" * 2000) == 500
    assert capped.completion_cap("x" * 100_000) == 1024
    assert SingleConfig(cap_to_input=False).completion_cap("word " * 10) == 1024  # the fixed budget
    llm = ScriptedLLM([answer(BIRTH)])
    assert run(llm, default_kb).status == "ok"
    assert llm.calls[0]["max_tokens"] == 128  # what the model was asked for
