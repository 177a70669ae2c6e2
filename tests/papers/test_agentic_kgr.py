"""agentic-kgr's rollouts with a scripted model: the guided loop (density feedback until adequate, then
disambiguation and storage), the agent's free choice under the workflow rules, the single call, and the
graph that grows over the documents of a run."""

from __future__ import annotations

import asyncio
import json

import pytest

from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.systems.base import make_system

TEXT = "Lena Vogt works for Nordwind Logistik. Nordwind Logistik is based in Kiel."
SPARSE = {"entities": {"Person": ["Lena Vogt"]}, "relations": {}}
FULL = {
    "entities": {"Person": ["Lena Vogt"], "Organization": ["Nordwind Logistik"], "Place": ["Kiel"]},
    "relations": {
        "works_for": [{"subject": "Lena Vogt", "object": "Nordwind Logistik"}],
        "based_in": [{"subject": "Nordwind Logistik", "object": "Kiel"}],
    },
}
SCHEMA = (
    "name: company\nrelations:\n"
    "  works_for: {description: a person employed by an organisation, head: [Person], tail: [Organization]}\n"
    "  based_in: {description: an organisation seated in a place, head: [Organization], tail: [Place]}\n"
)


@pytest.fixture
def schema_file(tmp_path):
    path = tmp_path / "company.yaml"
    path.write_text(SCHEMA)
    return str(path)


def system(name, replies, schema_file, **settings):
    llm = ScriptedLLM(replies)
    return make_system(name, llm, None, {"schema_file": schema_file, **settings}), llm


def actions(result):
    return [(s["action"], s["success"], s["by_model"]) for s in result.extra["trajectory"]["steps"]]


def test_guided_extracts_again_with_the_density_feedback_until_adequate(schema_file):
    kgr, llm = system("agentic-kgr", [json.dumps(SPARSE), json.dumps(FULL)], schema_file)
    result = asyncio.run(kgr.run(Document(text=TEXT)))
    assert result.status == "ok" and result.extra["tools"]["stopped"] == "density adequate"
    assert [a for a, _, _ in actions(result)] == [
        "extract",
        "query_extraction_density",
        "query_quality_metrics",
        "query_iterative_feedback",
        "extract",
        "query_extraction_density",
        "query_entity_disambiguation",
        "query_kg_storage",
        "finish",
    ]
    refine = llm.calls[1]["messages"][-1]["content"]
    assert json.dumps(SPARSE["entities"]) in refine and "needs_more_extraction" in refine and "Kiel" in refine
    assert llm.calls[0]["json_schema"]["properties"]["relations"]["properties"].keys() == {"works_for", "based_in"}
    assert {t.object.surface for t in result.triples} == {"Nordwind Logistik", "Kiel"}
    works = next(t for t in result.triples if t.predicate.label == "works_for")
    assert works.provenance.evidence.text == "Lena Vogt works for Nordwind Logistik."
    assert {e.label for e in result.entities} == {"Lena Vogt", "Nordwind Logistik", "Kiel"}
    assert result.extra["tools"]["calls"]["query_extraction_density"] == 2 and result.usage.llm_calls == 2


def test_guided_stops_when_the_model_changes_nothing(schema_file):
    kgr, llm = system("agentic-kgr", [json.dumps(SPARSE), json.dumps(SPARSE)], schema_file)
    result = asyncio.run(kgr.run(Document(text=TEXT)))
    assert result.extra["tools"]["stopped"] == "extraction unchanged" and len(llm.calls) == 2
    assert actions(result)[-3:] == [
        ("query_entity_disambiguation", True, False),
        ("query_kg_storage", True, False),
        ("finish", True, False),
    ]
    assert [e.label for e in result.entities] == ["Lena Vogt"]


def test_guided_respects_the_step_limit(schema_file):
    kgr, llm = system("agentic-kgr", [json.dumps(SPARSE)] * 5, schema_file, max_steps=5, loop_tools=[])
    result = asyncio.run(kgr.run(Document(text=TEXT)))
    assert len(result.extra["trajectory"]["steps"]) <= 5 and result.extra["tools"]["stopped"] == "step limit"
    assert len(llm.calls) == 1


def test_single_is_one_call(schema_file):
    kgr, llm = system("agentic-kgr.single", [json.dumps(FULL)], schema_file)
    result = asyncio.run(kgr.run(Document(text=TEXT)))
    assert len(llm.calls) == 1 and actions(result) == [("extract", True, True)] and len(result.triples) == 2


def act(action, **fields):
    return json.dumps({"thought": "", "action": action, **fields})


def test_the_agent_is_told_when_it_breaks_the_workflow(schema_file):
    script = [
        act("query_kg_storage"),
        act("extract", kg=FULL),
        act("query_entity_disambiguation"),
        act("query_extraction_density", arguments={"domain": "news"}),
        act("query_quality_metrics", arguments={"bogus": 1}),
        act("query_entity_disambiguation"),
        act("finish"),
        act("query_kg_storage"),
        act("finish"),
    ]
    kgr, llm = system("agentic-kgr.agent", script, schema_file)
    result = asyncio.run(kgr.run(Document(text=TEXT)))
    assert [(a, ok) for a, ok, _ in actions(result)] == [
        ("query_kg_storage", False),
        ("extract", True),
        ("query_entity_disambiguation", False),
        ("query_extraction_density", True),
        ("query_quality_metrics", False),
        ("query_entity_disambiguation", True),
        ("finish", False),
        ("query_kg_storage", True),
        ("finish", True),
    ]
    steps = result.extra["trajectory"]["steps"]
    assert steps[0]["error"].startswith("extract first") and "bogus" in steps[4]["error"]
    assert "query_extraction_density first" in steps[2]["error"]
    # each turn shows the history so far, errors included
    assert "ERROR: extract first" in llm.calls[1]["messages"][-1]["content"]
    assert (
        result.extra["tools"]["stopped"] == "finished"
        and result.extra["tools"]["failed"] == 3
        and len(result.triples) == 2
    )


def test_an_agent_out_of_steps_still_stores_its_last_extraction(schema_file):
    kgr, _ = system(
        "agentic-kgr.agent", [act("extract", kg=FULL), act("query_coverage_feedback")], schema_file, max_steps=2
    )
    result = asyncio.run(kgr.run(Document(text=TEXT)))
    assert result.extra["tools"]["stopped"] == "step limit" and len(result.triples) == 2
    assert [a for a, _, by_model in actions(result) if not by_model] == [
        "query_extraction_density",
        "query_entity_disambiguation",
        "query_kg_storage",
        "finish",
    ]


def test_a_model_that_never_answers_is_a_recorded_failure(schema_file):
    kgr, _ = system("agentic-kgr", ["not json"] * 4, schema_file, parse_retries=1)
    result = asyncio.run(kgr.run(Document(text=TEXT)))
    assert result.status == "failed" and "usable extraction" in result.reason


def test_the_graph_grows_over_the_documents_of_a_run(schema_file):
    kgr, llm = system("agentic-kgr", [json.dumps(FULL)] * 2, schema_file)
    asyncio.run(kgr.run(Document(text=TEXT)))
    second = asyncio.run(kgr.run(Document(text=TEXT + " It hired more staff.")))
    steps = second.extra["trajectory"]["steps"]
    found = next(s for s in steps if s["action"] == "query_entity_disambiguation")["observation"]
    assert found["summary"]["disambiguated"] == 3
    stored = next(s for s in steps if s["action"] == "query_kg_storage")["observation"]
    assert stored["storage_status"]["relations"]["skipped"] == 2 and stored["storage_status"]["entities"]["stored"] == 0
    assert kgr.memory.counts()["votes"] == 4 and kgr.memory.counts()["edges"] == 2


def test_settings_are_checked(schema_file):
    from graphwright.errors import UserError

    with pytest.raises(UserError, match="needs a relation schema"):
        make_system("agentic-kgr", ScriptedLLM([]), None, {})
    with pytest.raises(UserError, match="fixes mode"):
        make_system("agentic-kgr.single", ScriptedLLM([]), None, {"schema_file": schema_file, "mode": "agent"})


def test_what_the_text_does_not_support_is_never_stored(schema_file, tmp_path):
    noisy = {
        "entities": {
            "Person": ["Lena Vogt", "Person", "Jonas Berg"],
            "Organization": ["Nordwind Logistik"],
            "Place": ["Kiel", "Nordwind Logistik"],
        },
        "relations": {
            "works_for": [
                {"subject": "Lena Vogt", "object": "Nordwind Logistik"},
                {"subject": "Lena Vogt", "object": "Lena Vogt"},
                {"subject": "Kiel", "object": "Nordwind Logistik"},
            ],
            "based_in": [{"subject": "Nordwind Logistik", "object": "Kiel"}],
        },
    }
    cued = tmp_path / "cued.yaml"
    cued.write_text(
        SCHEMA.replace(
            "head: [Organization], tail: [Place]}", "head: [Organization], tail: [Place], cues: [headquarter]}"
        )
    )
    kgr, _ = system("agentic-kgr", [json.dumps(noisy)], str(cued), loop_tools=[], max_steps=4)
    result = asyncio.run(kgr.run(Document(text=TEXT)))
    assert [(t.subject.surface, t.predicate.label, t.object.surface) for t in result.triples] == [
        ("Lena Vogt", "works_for", "Nordwind Logistik")
    ]
    reasons = "\n".join(result.warnings)
    assert "'Person' (Person): not in the text" in reasons and "'Jonas Berg' (Person): not in the text" in reasons
    assert "(Lena Vogt, works_for, Lena Vogt): subject and object are the same" in reasons
    assert "(Kiel, works_for, Nordwind Logistik): the arguments' types do not fit works_for" in reasons
    assert "(Nordwind Logistik, based_in, Kiel): no sentence naming them states it" in reasons
    assert {n.label for n in kgr.memory.nodes.values()} == {"Lena Vogt", "Nordwind Logistik", "Kiel"}


def test_labelled_examples_come_before_the_text_in_the_extraction_format(schema_file, tmp_path):
    pool = tmp_path / "pool.jsonl"
    pool.write_text(
        json.dumps(
            {"text": "Ana Ruiz works for Kessler Werke.", "triples": [["Ana Ruiz", "works_for", "Kessler Werke"]]}
        )
        + "\n"
        + json.dumps({"text": "The weather in Oslo was cold.", "triples": []})
        + "\n"
    )
    kgr, llm = system("agentic-kgr.single", [json.dumps(FULL)], schema_file, demos=1, pool_file=str(pool))
    asyncio.run(kgr.run(Document(text=TEXT)))
    user = llm.calls[0]["messages"][-1]["content"]
    example = (
        'Examples:\nText: Ana Ruiz works for Kessler Werke.\nAnswer: {"relations": {"works_for": [{"subject": '
        '"Ana Ruiz", "object": "Kessler Werke"}]}, "entities": {"Person": ["Ana Ruiz"], "Organization": '
        '["Kessler Werke"]}}\n\nText: ' + TEXT
    )
    assert user.endswith(example)
    assert list(llm.calls[0]["json_schema"]["properties"]) == ["relations", "entities"]
