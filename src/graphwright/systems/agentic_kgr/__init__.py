"""Agentic-KGR (issue 25, paper 004): one policy model with six knowledge-graph tools, writing into a graph
that grows over documents; ``agentic-kgr.single`` is its same-model single-call baseline and
``agentic-kgr.agent`` the policy choosing every action itself (what GRPO training trains)."""

from __future__ import annotations

from typing import Any

from graphwright.systems.agentic_kgr.config import AgenticKGRConfig
from graphwright.systems.agentic_kgr.system import AgenticKGRSystem
from graphwright.systems.base import register_system
from graphwright.systems.settings import parse_settings


def _factory(name: str, **fixed: Any):
    def make(llm, kb, config: dict[str, Any] | None = None) -> AgenticKGRSystem:
        return AgenticKGRSystem(llm, kb, parse_settings(AgenticKGRConfig, name, config, **fixed), name=name)

    return make


register_system("agentic-kgr", takes_dataset=True, uses_grown_graph=True)(_factory("agentic-kgr"))
register_system("agentic-kgr.single", takes_dataset=True, uses_grown_graph=True)(_factory("agentic-kgr.single", mode="single"))
register_system("agentic-kgr.agent", takes_dataset=True, uses_grown_graph=True)(_factory("agentic-kgr.agent", mode="agent"))

__all__ = ["AgenticKGRConfig", "AgenticKGRSystem"]
