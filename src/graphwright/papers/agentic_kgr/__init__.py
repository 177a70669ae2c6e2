"""Agentic-KGR (issue 25, paper 004): one policy model with six knowledge-graph tools, writing into a graph
that grows over documents; ``agentic-kgr.single`` is its same-model single-call baseline and
``agentic-kgr.agent`` the policy choosing every action itself (what GRPO training trains)."""

from __future__ import annotations

from graphwright.papers.agentic_kgr.config import AgenticKGRConfig
from graphwright.papers.agentic_kgr.system import AgenticKGRSystem
from graphwright.systems.family import Preset, register_family

register_family(
    "agentic-kgr",
    AgenticKGRConfig,
    AgenticKGRSystem,
    takes_dataset=True,
    uses_grown_graph=True,
    presets={
        "": Preset(
            "paper", "KG construction with the graph's tools (density, coverage, disambiguation, storage), guided"
        ),
        "single": Preset("baseline", "Agentic-KGR's single extraction call", fixed={"mode": "single"}),
        "agent": Preset(
            "paper",
            "Agentic-KGR with the model choosing every tool call (what `train grpo` trains)",
            fixed={"mode": "agent"},
        ),
    },
)

__all__ = ["AgenticKGRConfig", "AgenticKGRSystem"]
