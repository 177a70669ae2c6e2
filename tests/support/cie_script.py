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
SEARCHES = [{"term": t, "mode": "label", "kind": k} for t, k in
            [("Arnold Schwarzenegger", "entity"), ("place of birth", "property"), ("Thal", "entity")]]


def extractor(goto="uri_mapping_and_refinement", triples=TRIPLES):
    return {"thought": "two facts", "triples": triples, "goto": goto, "instruction": "map them"}


def uri_agent(goto, tool_input=(), mapping=()):
    return {"thought": "t", "goto": goto, "tool_input": list(tool_input), "uri_mapping": list(mapping), "instruction": ""}


def validator(goto, turtle=TURTLE):
    return {"thought": "t", "goto": goto, "turtle": turtle, "instruction": ""}


class AgentScript:
    """Replies per agent, in order; records every prompt each agent saw."""

    def __init__(self, **replies):
        self.replies = {agent: list(r) for agent, r in replies.items()}
        self.prompts: dict[str, list[str]] = {agent: [] for agent in replies}

    def __call__(self, messages, json_schema=None):
        system = messages[0]["content"]
        agent = next(a for a in self.replies if _ROLE[a] in system)
        self.prompts[agent].append(messages[-1]["content"])
        if not self.replies[agent]:
            raise AssertionError(f"no scripted reply left for {agent}")
        reply = self.replies[agent].pop(0)
        return reply if isinstance(reply, str) else json.dumps(reply)


_ROLE = {"extractor": "You are the Extractor agent", "uri": "You are the URI Mapping", "validation": "You are the Validation"}


