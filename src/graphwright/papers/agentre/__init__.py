"""AgentRE (issue 5, paper 001): schema-constrained relation extraction with retrieval, memory and a
ReAct agent. ``agentre`` is set up for small models by default (issue 27): the few-shot call, escalated
to voting calls where its answer copied the examples, and the labelled pool's entity types;
``agentre.paper`` is the paper's agent (ReAct, four tools, memory). ``agentre.zeroshot`` and
``agentre.fewshot`` are its same-model single-call baselines, ``agentre.lean`` the agent without memory
that finishes at once (issue 23)."""

from __future__ import annotations

from typing import Any

from graphwright.papers.agentre.config import AgentREConfig
from graphwright.papers.agentre.system import AgentRESystem
from graphwright.systems.family import Preset, register_family

# The best configuration measured with the embedded 1.5B model (docs/BENCHMARKS.md, issue 27); each
# setting can still be changed, and agentre.paper is the paper's configuration.
SMALL_MODEL: dict[str, Any] = {
    "mode": "direct",
    "tools": ["samples", "guidelines"],
    "escalate": 3,
    "escalate_when": "any_dropped",
    "pool_types": True,
}


register_family(
    "agentre",
    AgentREConfig,
    AgentRESystem,
    takes_dataset=True,
    presets={
        "": Preset(
            "recommended",
            "Relations of a fixed schema: few-shot call, escalated to voting calls where it copied the examples",
            defaults=SMALL_MODEL,
        ),
        "paper": Preset("paper", "AgentRE's ReAct agent with samples, guidelines, KG and memory tools"),
        # One call, the schema's guidelines and nothing retrieved.
        "zeroshot": Preset(
            "baseline",
            "AgentRE's single call with the schema's guidelines only",
            fixed={"mode": "direct", "tools": ["guidelines"]},
        ),
        # One call with the k most similar labelled samples as examples (retrieval-based in-context learning).
        "fewshot": Preset(
            "baseline",
            "AgentRE's single call with retrieved labelled examples",
            fixed={"mode": "direct", "tools": ["guidelines", "samples"]},
        ),
        # The agent at under twice the few-shot call's cost: no memory, and it finishes at once from the prefetched
        # samples, guidelines and KG facts (one action before Finish cost 2.2 times few-shot's seconds).
        "lean": Preset(
            "variant",
            "AgentRE's agent without memory, finishing at once (one call)",
            fixed={"tools": ["samples", "guidelines", "kg"], "max_iterations": 0},
        ),
    },
)

__all__ = ["AgentREConfig", "AgentRESystem"]
