"""Scripted replies for the cie.network agents, shared by system and CLI tests."""

from __future__ import annotations

import json

TEXT = "Arnold Schwarzenegger was born in Thal. He is a member of the Republican Party."
TRIPLES = [
    {"subject": "Arnold Schwarzenegger", "predicate": "place of birth", "object": "Thal"},
    {"subject": "Arnold Schwarzenegger", "predicate": "member of political party", "object": "Republican Party"},
]
MAPPING = [
    {"surface": "Arnold Schwarzenegger", "iri": "wd:Q2685"},
    {"surface": "place of birth", "iri": "wdt:P19"},
    {"surface": "Thal", "iri": "wd:Q571822"},
    {"surface": "member of political party", "iri": "wdt:P102"},
    {"surface": "Republican Party", "iri": "wd:Q29468"},
]
TURTLE = "wd:Q2685 wdt:P19 wd:Q571822 .\nwd:Q2685 wdt:P102 wd:Q29468 ."
SEARCHES = [
    {"term": t, "mode": "label", "kind": k}
    for t, k in [("Arnold Schwarzenegger", "entity"), ("place of birth", "property"), ("Thal", "entity")]
]
ALL_SEARCHES = [
    {"term": m["surface"], "mode": "label", "kind": "property" if m["iri"].startswith("wdt:") else "entity"}
    for m in MAPPING
]


def judge(expected=None):
    """A compact-URI judge reply that picks the expected IRI of each term when the search offered it."""
    iri_of = expected or {m["surface"]: m["iri"] for m in MAPPING}

    def reply(schema):
        schema = (schema or {}).get("json_schema", {}).get("schema", schema)  # OpenAI response_format wrapper
        out = {}
        for term, prop in schema["properties"].items():
            options = prop["properties"]["iri"]["enum"]
            out[term] = {"iri": iri_of.get(term) if iri_of.get(term) in options else "none", "reason": "fits the text"}
        return out

    return reply


def extractor(goto="uri_mapping_and_refinement", triples=TRIPLES):
    return {"thought": "two facts", "triples": triples, "goto": goto, "instruction": "map them"}


def uri_agent(goto, tool_input=(), mapping=()):
    return {
        "thought": "t",
        "goto": goto,
        "tool_input": list(tool_input),
        "uri_mapping": list(mapping),
        "instruction": "",
    }


def validator(goto, turtle=TURTLE):
    return {"thought": "t", "goto": goto, "turtle": turtle, "instruction": ""}


def lean_extractor(triples=TRIPLES, goto="uri_mapping_and_refinement", instruction=""):
    """cie.network with lean=true (the default): triples as [subject, predicate, object] lists."""
    return {
        "triples": [[t["subject"], t["predicate"], t["object"]] for t in triples],
        "goto": goto,
        "instruction": instruction,
    }


def lean_uri_agent(goto="validation_and_output", mapping=MAPPING, tool_input=(), instruction=""):
    """The URI agent's answer in the candidate-constrained shape {surface: iri}."""
    return {
        "goto": goto,
        "uri_mapping": {m["surface"]: m["iri"] for m in mapping},
        "tool_input": list(tool_input),
        "instruction": instruction,
    }


def lean_validator(goto="finish", remove=(), instruction=""):
    return {"goto": goto, "remove": list(remove), "instruction": instruction}


def lean_script(triples=TRIPLES, mapping=MAPPING, remove=()) -> AgentScript:
    """A complete lean cie.network run: extract, (searches), map, (checks), validate."""
    return AgentScript(
        extractor=[lean_extractor(triples)],
        uri=[lean_uri_agent(mapping=mapping)],
        validation=[lean_validator(remove=remove)],
    )


class AgentScript:
    """Replies per agent, in order; records every prompt and JSON Schema each agent saw.
    An agent is recognised by the start of its role in the system prompt (``ROLES``), or for the
    lean cie.network, whose system prompt all agents share, in the user prompt (``LEAN_ROLES``)."""

    def __init__(self, **replies):
        self.replies = {agent: list(r) for agent, r in replies.items()}
        self.prompts: dict[str, list[str]] = {agent: [] for agent in replies}
        self.schemas: dict[str, list[dict | None]] = {agent: [] for agent in replies}

    def __call__(self, messages, json_schema=None):
        system, user = messages[0]["content"], messages[1]["content"]
        agent = next((a for a in self.replies if ROLES[a] in system or user.startswith(LEAN_ROLES.get(a, "\0"))), None)
        if agent is None:
            raise AssertionError(f"no scripted agent for the prompt starting {system[:60]!r}")
        self.prompts[agent].append(messages[-1]["content"])
        self.schemas[agent].append(json_schema)
        if not self.replies[agent]:
            raise AssertionError(f"no scripted reply left for {agent}")
        reply = self.replies[agent].pop(0)
        if callable(reply):  # computed from the schema of this call (e.g. the candidates on offer)
            reply = reply(json_schema)
        return reply if isinstance(reply, str) else json.dumps(reply)


ROLES = {
    "extractor": "You are the Extractor agent",
    "uri": "You are the URI Mapping",
    "validation": "You are the Validation",
    # the other cie architectures
    "supervisor": "You are the Supervisor",
    "planner": "You are the Planner",
    "instructor": "You are the Agent Instructor",
    "checker": "You are the Result Checker",
    "entities": "You are the Entity Extractor",
    "properties": "You are the Property Extractor",
    "triples": "You are the Triple Extractor",
    "formatter": "You are the Turtle Formatter",
    "judge": "You judge search results",
    "react": "You are an agent that turns",
}

LEAN_ROLES = {
    "extractor": "You are the extractor.",
    "uri": "You are uri_mapping_and_refinement.",
    "validation": "You are validation_and_output.",
}


# --- the other cie architectures ------------------------------------------------------------

ENTITIES = {"entities": ["Arnold Schwarzenegger", "Thal", "Republican Party"]}
PROPERTIES = {"properties": ["place of birth", "member of political party"]}


def supervisor(goto, instruction="", tool_input=(), turtle=""):
    return {
        "thought": f"next: {goto}",
        "goto": goto,
        "instruction": instruction,
        "tool_input": list(tool_input),
        "turtle": turtle,
    }


def planner(goto, tool_input=()):
    """The SSSA planner."""
    return {"thought": "t", "goto": goto, "instruction": f"do {goto}", "tool_input": list(tool_input)}


def react(goto, **fields):
    base = {
        "thought": f"I use {goto}",
        "goto": goto,
        "searches": [],
        "traverse": [],
        "turtle": "",
        "delete_ids": [],
        "summary": "",
    }
    return {**base, **fields}


def ssa_script(property_extractor=False):
    """A complete cie.ssa run: planner -> instructor -> worker -> checker, three times, then the formatter."""
    plan = [
        {"thought": "t", "next_step": step, "goto": goto}
        for goto, step in [
            ("agent_instructor", "extract entities"),
            ("agent_instructor", "extract triples"),
            ("agent_instructor", "find IRIs"),
            ("result_formatter", "complete"),
        ]
    ]
    instruct = [
        {"goto": goto, "instruction": f"please {goto}", "tool_input": list(tool_input)}
        for goto, tool_input in [
            ("entity_extractor", ()),
            ("triple_extractor", ()),
            ("uri_retrieval_tool", ALL_SEARCHES),
        ]
    ]
    return AgentScript(
        planner=plan,
        instructor=instruct,
        checker=[{"comment": "entities complete"}, {"comment": "triples fine"}, {"comment": "IRIs fit"}],
        entities=[ENTITIES],
        triples=[{"triples": TRIPLES}],
        judge=[judge()],
        formatter=[{"turtle": TURTLE}],
    )


def architecture_script(system: str) -> AgentScript:
    """A short successful run of each supervisor or ReAct architecture."""
    if system == "cie.baseline":
        return AgentScript(
            supervisor=[
                supervisor("triple_extractor"),
                supervisor("uri_retrieval_tool", tool_input=ALL_SEARCHES),
                supervisor("finish", turtle=TURTLE),
            ],
            triples=[{"triples": TRIPLES}],
            judge=[judge()],
        )
    if system == "cie.sssa":
        return AgentScript(
            planner=[
                planner("triple_extractor"),
                planner("uri_retrieval_tool", ALL_SEARCHES),
                planner("turtle_formatter"),
            ],
            triples=[{"triples": TRIPLES}],
            judge=[judge()],
            formatter=[{"turtle": TURTLE}],
        )
    if system == "cie.ssa":
        return ssa_script()
    return AgentScript(react=[react("uri_retrieval_tool", searches=ALL_SEARCHES), react("finish", turtle=TURTLE)])
