"""Agentic-KGR (issue 25, paper 004): one policy model with six knowledge-graph tools, writing into a graph
that grows over documents; ``agentic-kgr.single`` is its same-model single-call baseline and
``agentic-kgr.agent`` the policy choosing every action itself (what GRPO training trains)."""

from __future__ import annotations

from typing import Any

from graphwright.systems.agentic_kgr.config import AgenticKGRConfig
from graphwright.systems.agentic_kgr.system import AgenticKGRSystem
from graphwright.systems.base import SYSTEMS
from graphwright.systems.settings import parse_settings


def _factory(name: str, **fixed: Any):
    def make(llm, kb, config: dict[str, Any] | None = None) -> AgenticKGRSystem:
        return AgenticKGRSystem(llm, kb, parse_settings(AgenticKGRConfig, name, config, **fixed), name=name)

    make.takes_dataset = True  # `eval run` passes the RE dataset, whose schema it extracts with
    make.uses_grown_graph = AgenticKGRSystem.uses_grown_graph  # known before a system is built (the Ray engine asks)
    return make


SYSTEMS.register("agentic-kgr")(_factory("agentic-kgr"))
SYSTEMS.register("agentic-kgr.single")(_factory("agentic-kgr.single", mode="single"))
SYSTEMS.register("agentic-kgr.agent")(_factory("agentic-kgr.agent", mode="agent"))

__all__ = ["AgenticKGRConfig", "AgenticKGRSystem"]
