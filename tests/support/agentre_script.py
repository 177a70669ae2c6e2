"""A small relation schema, labelled pool and scripted agents for the agentre tests (no shared data)."""

from __future__ import annotations

import json
from pathlib import Path

SCHEMA = """
name: news
note: Copy names exactly.
relations:
  Work_For: {description: the head person works for the tail organisation, head: [Person], tail: [Org]}
  Live_In: {description: the head person lives in the tail place, head: [Person], tail: [Loc]}
types: {Person: a person, Org: an organisation, Loc: a place}
"""
POOL = [
    {
        "id": "p1",
        "text": "Anna Berg , a spokeswoman for Acme Corp , spoke .",
        "triples": [["Anna Berg", "Work_For", "Acme Corp"]],
        "entities": [["Anna Berg", "Person"], ["Acme Corp", "Org"]],
    },
    {
        "id": "p2",
        "text": "Carl Dahl lives in Oslo and works for Nordbank .",
        "triples": [["Carl Dahl", "Live_In", "Oslo"], ["Carl Dahl", "Work_For", "Nordbank"]],
    },
    {"id": "p3", "text": "The weather in Oslo was cold .", "triples": []},
]
SENTENCE = "John Smith , a spokesman for Acme Corp , lives in Oslo ."

ROLES = {
    "agent": "You are a relation extraction agent",
    "extract": "You extract relation triples",
    "types": "You decide which relations",
    "reflection": "You review a relation extraction",
    "summary": "You keep a short summary",
    "typer": "You give the type of each",
    "checker": "You check, pair by pair",
}


def write_inputs(folder: Path) -> tuple[Path, Path]:
    schema, pool = folder / "schema.yaml", folder / "pool.jsonl"
    schema.write_text(SCHEMA, encoding="utf-8")
    pool.write_text("".join(json.dumps(row) + "\n" for row in POOL), encoding="utf-8")
    return schema, pool


def triple(head: str, relation: str, tail: str) -> dict:
    return {"head": head, "relation": relation, "tail": tail}


def step(action: str, action_input: str = "", triples=(), thought: str = "t") -> dict:
    return {"thought": thought, "action": action, "action_input": action_input, "triples": list(triples)}


class RoleScript:
    """Replies per role, in order; records each role's prompts (system, user) and JSON Schemas."""

    def __init__(self, **replies):
        self.replies = {role: list(r) for role, r in replies.items()}
        self.prompts: dict[str, list[tuple[str, str]]] = {role: [] for role in ROLES}
        self.schemas: dict[str, list[dict | None]] = {role: [] for role in ROLES}

    def __call__(self, messages, json_schema=None):
        system = messages[0]["content"]
        role = next((r for r, start in ROLES.items() if system.startswith(start)), None)
        if role is None:
            raise AssertionError(f"unknown prompt {system[:60]!r}")
        self.prompts[role].append((system, messages[-1]["content"]))
        self.schemas[role].append(json_schema)
        if not self.replies.get(role):
            raise AssertionError(f"no scripted reply left for {role}")
        reply = self.replies[role].pop(0)
        return reply if isinstance(reply, str) else json.dumps(reply)
