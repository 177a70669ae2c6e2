"""Control flow of cie.baseline, cie.ssa, cie.sssa and cie.react with a scripted model on the real
default KB: each architecture's route, what each agent reads, error incorporation, the step
limit, and the tools' answers reaching the agents."""

from __future__ import annotations

import asyncio

import pytest

from graphwright.errors import ContextOverflowError, UserError
from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.systems.base import make_system, system_names
from tests.support.cie_script import (
    ALL_SEARCHES,
    ENTITIES,
    PROPERTIES,
    TEXT,
    TRIPLES,
    TURTLE,
    AgentScript,
    judge,
    planner,
    react,
    ssa_script,
    supervisor,
)

EXPECTED = {("Q2685", "P19", "Q571822"), ("Q2685", "P102", "Q29468")}


def run(name, script, kb, **config):
    system = make_system(name, ScriptedLLM(script), kb, config)
    return asyncio.run(system.run(Document(text=TEXT)))


def keys(result):
    return {tuple(t.value.rsplit("/", 1)[1] for t in (x.subject, x.predicate, x.object)) for x in result.triples}


def routes(schema):
    return sorted(v["properties"]["goto"]["const"] for v in schema["anyOf"])


def test_all_cie_architectures_are_registered():
    assert {"cie.baseline", "cie.ssa", "cie.sssa", "cie.react", "cie.network", "cie.single"} <= set(system_names())


def test_cie_baseline_supervisor_delegates_then_writes_turtle(default_kb):
    script = AgentScript(
        supervisor=[
            supervisor("entity_extractor", "list the entities"),
            supervisor("triple_extractor", "use the entities"),
            supervisor("uri_retrieval_tool", tool_input=ALL_SEARCHES),
            supervisor("finish", turtle=TURTLE),
        ],
        entities=[ENTITIES],
        triples=[{"triples": TRIPLES}],
        judge=[judge()],
    )
    result = run("cie.baseline", script, default_kb)
    assert result.status == "ok" and keys(result) == EXPECTED
    assert [s.node for s in result.trace] == [
        "supervisor",
        "entity_extractor",
        "supervisor",
        "triple_extractor",
        "supervisor",
        "uri_retrieval_tool",
        "supervisor",
        "finish",
    ]
    assert result.usage.llm_calls == 7  # 4 supervisor turns, 2 extractors, 1 compact-URI judgement
    # the supervisor must delegate first: no search and no finish before triples exist
    assert routes(script.schemas["supervisor"][0]) == ["entity_extractor", "triple_extractor"]
    # after a search it acts on the answer (finish or extract again) rather than search again
    assert routes(script.schemas["supervisor"][3]) == ["entity_extractor", "finish", "triple_extractor"]
    assert "Draft Turtle from the triples and the IRIs found" in script.prompts["supervisor"][3]
    assert "Instruction: use the entities" in script.prompts["triples"][0]
    # the judge saw the candidates; the supervisor saw only its compact verdicts
    assert "wd:Q2685" in script.prompts["judge"][0]
    assert '"Arnold Schwarzenegger" (entity) -> wd:Q2685 (Arnold Schwarzenegger)' in script.prompts["supervisor"][3]
    birth = next(t for t in result.triples if t.predicate.value.endswith("P19"))
    assert birth.subject.surface == "Arnold Schwarzenegger" and birth.provenance.agent == "supervisor"
    assert birth.provenance.evidence.text == "Arnold Schwarzenegger was born in Thal."


def test_cie_baseline_rejected_turtle_goes_back_with_the_problem(default_kb):
    bad = "wd:Q2685 wdt:P19 wd:Q987654321987 ."
    script = AgentScript(
        supervisor=[
            "not an answer",
            supervisor("triple_extractor"),
            supervisor("uri_retrieval_tool", tool_input=ALL_SEARCHES),
            supervisor("finish", turtle=bad),
            supervisor("finish", turtle=TURTLE),
        ],
        triples=[{"triples": TRIPLES}],
        judge=[judge()],
    )
    result = run("cie.baseline", script, default_kb)
    assert keys(result) == EXPECTED
    assert "the final Turtle was rejected" in script.prompts["supervisor"][-1]
    assert "Q987654321987" in script.prompts["supervisor"][-1]


def test_cie_sssa_planner_fills_the_structured_state(default_kb):
    steps = [planner(goto) for goto in ("entity_extractor", "property_extractor", "triple_extractor")]
    steps += [planner("uri_retrieval_tool", ALL_SEARCHES), planner("turtle_formatter")]
    script = AgentScript(
        planner=steps,
        entities=[ENTITIES],
        properties=[PROPERTIES],
        triples=[{"triples": TRIPLES}],
        judge=[judge()],
        formatter=[{"turtle": TURTLE}],
    )
    result = run("cie.sssa", script, default_kb)
    assert result.status == "ok" and keys(result) == EXPECTED
    assert [s.node for s in result.trace][-2:] == ["turtle_formatter", "finish"]
    # the planner may not search before triples exist
    assert routes(script.schemas["planner"][0]) == ["entity_extractor", "property_extractor", "triple_extractor"]
    # Table 4.3: each output in its own field; the triple extractor reads entities and properties
    assert "properties: place of birth; member of political party" in script.prompts["triples"][0]
    assert "agent_response (the last answer):\nproperty_extractor:" in script.prompts["planner"][2]
    assert "Thal -> wd:Q571822 (Thal)" in script.prompts["formatter"][0]
    assert result.extra["entities"] == ENTITIES["entities"]


def test_cie_sssa_falls_back_to_the_mapping_when_the_formatter_fails(default_kb):
    steps = [planner("triple_extractor"), planner("uri_retrieval_tool", ALL_SEARCHES), planner("turtle_formatter")]
    script = AgentScript(planner=steps, triples=[{"triples": TRIPLES}], judge=[judge()], formatter=["broken"] * 3)
    result = run("cie.sssa", script, default_kb)
    assert keys(result) == EXPECTED
    assert {t.provenance.agent for t in result.triples} == {"fallback"}


def test_cie_ssa_planner_instructor_checker_loop(default_kb):
    script = ssa_script()
    result = run("cie.ssa", script, default_kb, property_extractor=False)
    assert result.status == "ok" and keys(result) == EXPECTED
    nodes = [s.node for s in result.trace]
    assert nodes[:4] == ["planner", "agent_instructor", "entity_extractor", "result_checker"]
    assert nodes[-2:] == ["result_formatter", "finish"]
    # the instructor read the planner's step; without PropEx and before triples it has only the extractors
    assert "The planner's next step: extract entities" in script.prompts["instructor"][0]
    assert routes(script.schemas["instructor"][0]) == ["entity_extractor", "triple_extractor"]
    assert routes(script.schemas["planner"][0]) == ["agent_instructor"]  # nothing to format yet
    assert "result_checker: entities complete" in script.prompts["planner"][1]
    assert "Instruction: please triple_extractor" in script.prompts["triples"][0]


def test_cie_react_uses_every_tool_and_prunes_its_messages(default_kb):
    traverse = [{"property": "wdt:P102", "subject": "wd:Q2685", "object": "wd:Q29468"}]
    script = AgentScript(
        react=[
            react("uri_retrieval_tool", searches=ALL_SEARCHES),
            react("network_traversal_tool", traverse=traverse),
            react("turtle_to_label_tool", turtle=TURTLE),
            react("semantic_validation_tool", turtle=TURTLE),
            react("message_deletion_tool", delete_ids=[2, 4], summary="IRIs: Arnold wd:Q2685, Thal wd:Q571822"),
            react("finish", turtle=TURTLE),
        ]
    )
    result = run("cie.react", script, default_kb)
    assert result.status == "ok" and keys(result) == EXPECTED
    prompts = script.prompts["react"]
    assert routes(script.schemas["react"][0]) == [
        "network_traversal_tool",
        "semantic_validation_tool",
        "turtle_to_label_tool",
        "uri_retrieval_tool",
    ]  # search before finish
    assert "[2] uri_retrieval_tool:" in prompts[1] and "wd:Q2685" in prompts[1]
    assert "broader (super-property): wdt:P463 member of" in prompts[2]
    assert "(Arnold Schwarzenegger; member of political party; Republican Party)" in prompts[3]
    assert "Q2685 P19 Q571822: valid" in prompts[4]  # type-checked with the default KB's derived types
    last = prompts[5]  # after deletion: the search and traversal answers are gone, the summary stays
    assert "[2] uri_retrieval_tool:" not in last and "[4] network_traversal_tool:" not in last
    assert "summary: IRIs: Arnold wd:Q2685" in last and "deleted messages [2, 4]" in last


def test_cie_react_bad_tool_input_is_fed_back(default_kb):
    script = AgentScript(
        react=[
            react("uri_retrieval_tool", searches=ALL_SEARCHES),
            react("network_traversal_tool", traverse=[{"property": "wdt:P999999999", "subject": "", "object": ""}]),
            react("message_deletion_tool", delete_ids=[0]),
            react("finish", turtle=TURTLE),
        ]
    )
    result = run("cie.react", script, default_kb)
    assert keys(result) == EXPECTED
    assert "ERROR: network traversal: 'wdt:P999999999' is not a known property" in script.prompts["react"][2]
    assert "cannot be deleted" in script.prompts["react"][3]


def test_cie_react_step_limit_keeps_the_last_checked_turtle(default_kb):
    script = AgentScript(
        react=[
            react("uri_retrieval_tool", searches=ALL_SEARCHES),
            react("semantic_validation_tool", turtle=TURTLE),
            react("uri_retrieval_tool", searches=ALL_SEARCHES),
        ]
    )
    result = run("cie.react", script, default_kb, max_steps=3)
    assert keys(result) == EXPECTED
    assert {t.provenance.agent for t in result.triples} == {"fallback"}


def test_cie_react_step_limit_keeps_the_good_lines_of_a_broken_turtle(default_kb):
    broken = TURTLE + "\nwd:Q2685 wdt:P26 Maria Shriver ."  # an unquoted name: the parser rejects the whole
    script = AgentScript(
        react=[
            react("uri_retrieval_tool", searches=ALL_SEARCHES),
            react("semantic_validation_tool", turtle=broken),
            react("uri_retrieval_tool", searches=ALL_SEARCHES),
        ]
    )
    result = run("cie.react", script, default_kb, max_steps=3)
    assert keys(result) == EXPECTED
    assert any("Maria Shriver" in w for w in result.warnings)


def test_cie_react_closes_a_tool_called_twice_with_the_same_input(default_kb):
    traverse = [{"property": "wdt:P19", "subject": "wd:Q2685", "object": "wd:Q571822"}]
    script = AgentScript(
        react=[
            react("uri_retrieval_tool", searches=ALL_SEARCHES),
            react("network_traversal_tool", traverse=traverse),
            react("uri_retrieval_tool", searches=ALL_SEARCHES),  # the same search again
            react("network_traversal_tool", traverse=traverse),
            react("finish", turtle=TURTLE),
        ]
    )
    result = run("cie.react", script, default_kb)
    assert keys(result) == EXPECTED
    assert "uri_retrieval_tool is now closed" in script.prompts["react"][3]
    assert "network_traversal_tool is now closed" in script.prompts["react"][4]
    assert set(routes(script.schemas["react"][4])) == {
        "semantic_validation_tool",
        "turtle_to_label_tool",
        "message_deletion_tool",
        "finish",
    }


def test_cie_react_caps_the_requests_of_one_action(default_kb):
    script = AgentScript(react=[react("uri_retrieval_tool", searches=ALL_SEARCHES), react("finish", turtle=TURTLE)])
    run("cie.react", script, default_kb)
    variants = {v["properties"]["goto"]["const"]: v["properties"] for v in script.schemas["react"][0]["anyOf"]}
    assert variants["network_traversal_tool"]["traverse"]["maxItems"] == 5
    assert variants["uri_retrieval_tool"]["searches"]["maxItems"] == 15


def test_cie_react_step_limit_ends_the_run(default_kb):
    script = AgentScript(react=[react("uri_retrieval_tool", searches=ALL_SEARCHES)] * 3)
    result = run("cie.react", script, default_kb, max_steps=2)
    assert result.status == "ok" and result.triples == []
    assert any("step limit of 2" in w for w in result.warnings)
    assert result.usage.llm_calls == 2


def test_cie_react_tools_can_be_left_out(default_kb):
    script = AgentScript(react=[react("uri_retrieval_tool", searches=ALL_SEARCHES), react("finish", turtle=TURTLE)])
    result = run("cie.react", script, default_kb, tools=["uri_retrieval_tool"])
    assert keys(result) == EXPECTED
    assert routes(script.schemas["react"][1]) == ["finish"]  # the search just answered: act on it
    assert "network_traversal_tool" not in script.prompts["react"][0]


@pytest.mark.parametrize("name", ["cie.baseline", "cie.ssa", "cie.sssa", "cie.react"])
def test_cie_architecture_settings_are_checked(name, default_kb):
    with pytest.raises(UserError, match="valid settings:.*max_steps"):
        make_system(name, ScriptedLLM([]), default_kb, {"max_stpes": 3})


def test_searches_are_completed_with_the_forgotten_parts_of_the_triples():
    from graphwright.papers.cie.common.uri import complete_searches

    asked = [{"term": "Arnold Schwarzenegger", "mode": "label", "kind": "entity"}]
    mapped = [{"surface": "thal", "iri": "wd:Q571822"}]
    out = complete_searches(asked, TRIPLES, mapped)
    assert out[0] == asked[0]
    assert {(r["term"], r["kind"]) for r in out[1:]} == {
        ("place of birth", "property"),
        ("member of political party", "property"),
        ("Republican Party", "entity"),
    }


def test_a_context_overflow_wraps_up_the_run_instead_of_failing_it(default_kb):
    def overflow(schema):
        raise ContextOverflowError("request (4165 tokens) exceeds the available context size (4096 tokens)")

    script = AgentScript(
        supervisor=[
            supervisor("triple_extractor"),
            supervisor("uri_retrieval_tool", tool_input=ALL_SEARCHES),
            overflow,
        ],
        triples=[{"triples": TRIPLES}],
        judge=[judge()],
    )
    result = run("cie.baseline", script, default_kb)
    assert result.status == "ok" and keys(result) == EXPECTED  # the draft from triples and mapping
    assert any("exceeds the available context" in w for w in result.warnings)


def test_entity_and_property_lists_keep_each_phrase_once():
    from graphwright.papers.cie.common.outputs import EntityList, PropertyList

    looped = PropertyList.model_validate_json(
        '{"properties": ["instance of", "occupation", "instance of", " ", "occupation "]}'
    )
    assert looped.properties == ["instance of", "occupation"]
    assert EntityList(entities=["Kue cubit", "Indonesia", "Kue cubit"]).entities == ["Kue cubit", "Indonesia"]


def test_the_react_view_cuts_a_tool_answer_larger_than_its_budget():
    from graphwright.papers.cie.react.system import render_view

    huge = "wd:Q42 Douglas Adams (English writer). " * 2000  # 80,000 characters of search results
    state = {
        "messages": [
            {"id": 0, "author": "react_agent", "content": "search"},
            {"id": 1, "author": "uri_retrieval_tool", "content": huge},
        ],
        "steps": 1,
    }
    view = render_view(state, limit=4000, max_steps=10)
    assert len(view) < 4500 and "cut at 4000 characters" in view
    assert "[0] react_agent" not in view, "older messages give way to the newest"
