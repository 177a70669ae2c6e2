"""Control flow of cie.network with a scripted model on the real default KB:
routing, the step limit and error incorporation."""

from __future__ import annotations

import asyncio
import json

from graphwright.errors import LLMUnavailableError
from graphwright.llm.base import LLM
from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document
from graphwright.systems.base import make_system
from tests.support.cie_script import (
    MAPPING,
    SEARCHES,
    TEXT,
    TURTLE,
    AgentScript,
    extractor,
    uri_agent,
    validator,
)


def run(script, kb, llm=None, **config):
    """The paper's design (lean=false) on TEXT; strict routing is off unless a test is about it, so
    scripts can take any route. The lean path has its tests in test_cie_network_lean.py."""
    llm = llm or ScriptedLLM(script)
    system = make_system("cie.network", llm, kb, {"strict_routing": False, "lean": False, **config})
    return asyncio.run(system.run(Document(text=TEXT)))


def test_cie_network_routes_through_agents_and_tools(default_kb):
    script = AgentScript(
        extractor=[extractor()],
        uri=[uri_agent("uri_retrieval_tool", SEARCHES), uri_agent("validation_and_output", mapping=MAPPING)],
        validation=[validator("turtle_to_label_tool"), validator("finish")],
    )
    result = run(script, default_kb)
    assert result.status == "ok"
    keys = {
        (t.subject.value.rsplit("/", 1)[1], t.predicate.value.rsplit("/", 1)[1], t.object.value.rsplit("/", 1)[1])
        for t in result.triples
    }
    assert keys == {("Q2685", "P19", "Q571822"), ("Q2685", "P102", "Q29468")}
    nodes = [s.node for s in result.trace]
    assert nodes == [
        "extractor",
        "uri_mapping_and_refinement",
        "uri_retrieval_tool",
        "uri_mapping_and_refinement",
        "validation_and_output",
        "turtle_to_label_tool",
        "validation_and_output",
        "finish",
    ]
    assert result.usage.llm_calls == 5
    # the tool's candidates reached the URI agent, and the labels reached the validator
    assert "wd:Q2685" in script.prompts["uri"][1]
    assert (
        "place of birth" in script.prompts["validation"][1] and "All IRIs are known" in script.prompts["validation"][1]
    )
    birth = next(t for t in result.triples if t.predicate.value.endswith("P19"))
    assert birth.provenance.evidence.text == "Arnold Schwarzenegger was born in Thal."
    assert birth.subject.surface == "Arnold Schwarzenegger" and birth.subject.label == "Arnold Schwarzenegger"


def _routes(schema):
    return [variant["properties"]["goto"]["const"] for variant in schema["anyOf"]]


def test_cie_network_strict_routing_schema_follows_the_state(default_kb):
    script = AgentScript(
        extractor=[extractor()],
        uri=[
            uri_agent("uri_retrieval_tool", SEARCHES),
            uri_agent("uri_retrieval_tool", SEARCHES),
            uri_agent("validation_and_output", mapping=MAPPING),
        ],
        validation=[validator("turtle_to_label_tool"), validator("finish")],
    )
    llm = ScriptedLLM(script)
    result = run(script, default_kb, llm=llm, strict_routing=True)
    schemas = [call["json_schema"] for call in llm.calls]
    uri_first, uri_after_tool = schemas[1], schemas[2]
    assert _routes(uri_first) == ["uri_retrieval_tool", "extractor"]  # must search before mapping
    assert "uri_retrieval_tool" not in _routes(uri_after_tool)  # must use the answer
    tool_variant = uri_first["anyOf"][0]["properties"]
    assert tool_variant["tool_input"]["minItems"] == 1 and tool_variant["uri_mapping"]["maxItems"] == 0
    assert tool_variant["instruction"]["const"] == ""  # forward routes carry data, not instructions
    # the scripted model ignored the schema and repeated the tool call: fed back, then it mapped
    assert "not open now" in script.prompts["uri"][2]
    # searches the agent forgot, or asked under the wrong kind, were made for it
    searched = json.loads(result.trace[2].input)
    assert {"term": "member of political party", "mode": "fused", "kind": "property"} in searched
    assert {"term": "Republican Party", "mode": "fused", "kind": "entity"} in searched
    # after the search, each surface form may only map to its candidates or "none"
    handover = next(v for v in uri_after_tool["anyOf"] if v["properties"]["goto"]["const"] == "validation_and_output")
    choices = handover["properties"]["uri_mapping"]["properties"]
    assert set(choices) == {
        "Arnold Schwarzenegger",
        "place of birth",
        "Thal",
        "member of political party",
        "Republican Party",
    }
    assert choices["Arnold Schwarzenegger"]["enum"][0] == "wd:Q2685" and choices["Thal"]["enum"][-1] == "none"
    assert "wdt:P19" in choices["place of birth"]["enum"] and not any(
        i.startswith("wd:") for i in choices["place of birth"]["enum"][:-1]
    )
    assert "turtle_to_label_tool" not in _routes(schemas[-1])  # the label tool just answered
    # the URI agent's hand-over carries a draft Turtle built from the mapping
    assert "wd:Q2685 wdt:P19 wd:Q571822 ." in script.prompts["validation"][0]
    assert result.status == "ok" and len(result.triples) == 2


def test_cie_network_step_limit_finishes_with_mapped_triples(default_kb):
    bounce = [validator("extractor", turtle="")] * 10
    script = AgentScript(
        extractor=[extractor()] * 10,
        uri=[uri_agent("validation_and_output", mapping=MAPPING)] * 10,
        validation=bounce,
    )
    result = run(script, default_kb, max_steps=4)
    assert result.status == "ok"
    assert any("step limit" in w for w in result.warnings)
    assert result.usage.llm_calls == 4
    assert {t.provenance.agent for t in result.triples} == {"fallback"}
    assert len(result.triples) == 2


def test_cie_network_feeds_malformed_output_back(default_kb):
    script = AgentScript(
        extractor=["this is not json", extractor()],
        uri=[uri_agent("validation_and_output", mapping=MAPPING)],
        validation=[validator("finish")],
    )
    result = run(script, default_kb, parse_retries=0)
    assert result.status == "ok" and len(result.triples) == 2
    assert "ERROR" in script.prompts["extractor"][1]
    assert result.trace[0].error and "could not be used" in result.trace[0].error


def test_cie_network_rejects_unknown_iri_and_missing_tool_input(default_kb):
    bad = [*MAPPING[:-1], {"surface": "Republican Party", "iri": "wd:Q999999999"}]
    script = AgentScript(
        extractor=[extractor()],
        uri=[
            uri_agent("uri_retrieval_tool"),
            uri_agent("validation_and_output", mapping=bad),
            uri_agent("validation_and_output", mapping=MAPPING),
        ],
        validation=[validator("finish")],
    )
    result = run(script, default_kb)
    assert "needs at least one request" in script.prompts["uri"][1]
    assert "Q999999999" in script.prompts["uri"][2] and "not in the knowledge base" in script.prompts["uri"][2]
    assert len(result.triples) == 2


def test_cie_network_final_turtle_is_parsed_and_checked(default_kb):
    script = AgentScript(
        extractor=[extractor()],
        uri=[uri_agent("validation_and_output", mapping=MAPPING)],
        validation=[
            validator("finish", turtle="wd:Q2685 wdt:P19 wd:Q571822"),  # missing final dot
            validator("finish", turtle="wd:Q2685 wd:P19 wd:Q571822 .\nwd:Q2685 wdt:P102 wd:Q29468 ."),
            validator("finish", turtle=TURTLE),
        ],
    )
    result = run(script, default_kb)
    assert "Invalid Turtle" in script.prompts["validation"][1]
    assert "wrong namespace" in script.prompts["validation"][2]
    assert len(result.triples) == 2


def test_cie_network_drops_unfixable_triples_after_finish_retries(default_kb):
    made_up = TURTLE + "\nwd:Q2685 wdt:P26 wd:Q987654321 ."
    script = AgentScript(
        extractor=[extractor()],
        uri=[uri_agent("validation_and_output", mapping=MAPPING)],
        validation=[validator("finish", turtle=made_up)] * 3,
    )
    result = run(script, default_kb, finish_retries=2)
    assert result.status == "ok" and len(result.triples) == 2
    assert any("Q987654321" in w for w in result.warnings)


def test_cie_network_xml_protocol(default_kb):
    def tags(d):
        return "".join(f"<{k}>{json.dumps(v) if isinstance(v, list) else v}</{k}>" for k, v in d.items())

    script = AgentScript(
        extractor=["I will tag. " + tags(extractor())],
        uri=[tags(uri_agent("validation_and_output", mapping=MAPPING))],
        validation=["<thought>ok</thought><turtle>x</turtle>", tags(validator("finish"))],
    )
    result = run(script, default_kb, output_format="xml", parse_retries=1)
    assert len(result.triples) == 2
    assert "no <goto>" in script.prompts["validation"][1]  # fed back inside the same agent call
    assert result.usage.llm_calls == 4


class Unreachable(LLM):
    name = "openai:unreachable"

    async def chat(self, messages, **kw):
        raise LLMUnavailableError("cannot reach http://127.0.0.1:9/v1 after 3 attempts")


def test_cie_network_unreachable_model_is_a_recorded_failure(default_kb):
    system = make_system("cie.network", Unreachable(), default_kb)
    result = asyncio.run(system.run(Document(text=TEXT)))
    assert result.status == "failed" and "127.0.0.1:9" in result.reason


def test_uri_agent_answer_in_the_constrained_shape_is_a_mapping():
    from graphwright.papers.cie.network.outputs import UriMappingOutput

    out = UriMappingOutput.model_validate(
        {
            "thought": "t",
            "goto": "validation_and_output",
            "tool_input": [],
            "uri_mapping": {"Thal": "wd:Q571822", "spouse": "none"},
        }
    )
    assert [(m.surface, m.iri) for m in out.uri_mapping] == [("Thal", "wd:Q571822")]


def test_requests_get_the_kind_of_their_role_and_missing_terms_are_added():
    from graphwright.papers.cie.common.uri import complete_requests

    triples = [{"subject": "Maria Shriver", "predicate": "daughter of", "object": "Eunice Kennedy Shriver"}]
    asked = [
        {"term": "maria shriver", "mode": "label", "kind": "property"},
        {"term": "Maria Shriver is the daughter of Eunice", "mode": "example", "kind": "property"},
    ]
    done = {"eunice kennedy shriver": {"term": "Eunice Kennedy Shriver", "kind": "entity", "options": []}}
    requests = complete_requests(asked, triples, done)
    assert requests == [
        {"term": "maria shriver", "mode": "label", "kind": "entity"},
        asked[1],
        {"term": "daughter of", "mode": "fused", "kind": "property"},
    ]


def test_strict_routes_make_validation_check_first_and_repair_once():
    from graphwright.papers.cie.network.routes import open_routes

    handover = [{"node": "uri_mapping_and_refinement", "goto": "validation_and_output"}]
    state = {"turtle": TURTLE, "uri_mapping": MAPPING, "call_trace": handover}
    assert open_routes("validation_and_output", state, strict=True) == [
        "turtle_to_label_tool",
        "semantic_validation_tool",
    ]
    checked = {
        **state,
        "last_call": "turtle_to_label_tool",
        "check_problems": 1,
        "call_trace": handover
        + [
            {"node": "validation_and_output", "goto": "turtle_to_label_tool"},
            {"node": "turtle_to_label_tool", "goto": "validation_and_output"},
        ],
    }
    assert open_routes("validation_and_output", checked, strict=True) == [
        "semantic_validation_tool",
        "finish",
        "extractor",
        "uri_mapping_and_refinement",
    ]
    clean = {**checked, "check_problems": 0}  # send-backs only answer a problem a check found
    assert open_routes("validation_and_output", clean, strict=True) == ["semantic_validation_tool", "finish"]
    repaired = {
        **checked,
        "call_trace": [{"node": "validation_and_output", "goto": "extractor"}] + checked["call_trace"],
    }
    assert open_routes("validation_and_output", repaired, strict=True) == ["semantic_validation_tool", "finish"]
    assert "extractor" in open_routes("validation_and_output", repaired, strict=False)
