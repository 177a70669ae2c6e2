"""AgentRE (issue 5, paper 001): schema-constrained relation extraction by a ReAct agent with sample,
guideline and KG retrieval and a memory; ``agentre.zeroshot`` and ``agentre.fewshot`` are its
same-model single-call baselines, ``agentre.lean`` the agent without memory and with one action."""

from __future__ import annotations

from typing import Any

from graphwright.systems.agentre.config import AgentREConfig
from graphwright.systems.agentre.system import AgentRESystem
from graphwright.systems.base import SYSTEMS
from graphwright.systems.settings import parse_settings


def _factory(name: str, **fixed: Any):
    def make(llm, kb, config: dict[str, Any] | None = None) -> AgentRESystem:
        return AgentRESystem(llm, kb, parse_settings(AgentREConfig, name, config, **fixed), name=name)

    make.takes_dataset = True  # `eval run` passes the dataset, whose schema and pool it needs
    return make


SYSTEMS.register("agentre")(_factory("agentre"))
# One call, the schema's guidelines and nothing retrieved.
SYSTEMS.register("agentre.zeroshot")(_factory("agentre.zeroshot", mode="direct", tools=["guidelines"]))
# One call with the k most similar labelled samples as examples (retrieval-based in-context learning).
SYSTEMS.register("agentre.fewshot")(_factory("agentre.fewshot", mode="direct", tools=["guidelines", "samples"]))
# The agent at under twice the few-shot call's cost (issue 23): no memory, and it finishes at once from the
# prefetched samples, guidelines and KG facts (one action before Finish cost 2.2 times few-shot's seconds).
SYSTEMS.register("agentre.lean")(_factory("agentre.lean", tools=["samples", "guidelines", "kg"], max_iterations=0))

__all__ = ["AgentREConfig", "AgentRESystem"]
