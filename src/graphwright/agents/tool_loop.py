"""The runtime of a single agent that acts until it finishes: AgentRE's ReAct steps and Agentic-KGR's policy.

Each turn the agent decides (one model call), and what it decided is carried out: a tool answers, or the
agent finishes. An answer that cannot be used (``ModelOutputError``) is shown to the agent in its next turn
instead of ending the run (error incorporation). The loop ends when the agent finishes or has no steps left;
the agent itself says how many remain, since what counts as a step differs (AgentRE counts model turns,
Agentic-KGR's environment counts tool calls too).

Networks of agents that route to each other run on LangGraph instead (docs/decisions.md, "agent runtimes");
this loop stays a few lines of our own because GRPO rolls the policy out through it and must own each turn.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from graphwright.errors import ModelOutputError

A = TypeVar("A")


class ToolAgent(Protocol, Generic[A]):
    def steps_left(self) -> int:
        """Turns the agent may still take."""
        ...

    async def decide(self) -> A:
        """One model turn: what the agent wants done next (raises ModelOutputError for an unusable answer)."""
        ...

    def unusable(self, error: ModelOutputError) -> None:
        """Record an answer that could not be used, for the agent to see; raise to end the run instead."""
        ...

    def carry_out(self, action: A) -> bool:
        """Do what the agent decided and record what it observes; True when that finished the run."""
        ...


async def run_tool_loop(agent: ToolAgent[A]) -> bool:
    """Decide and carry out until the agent finishes (True) or its steps run out (False)."""
    while agent.steps_left() > 0:
        try:
            action = await agent.decide()
        except ModelOutputError as exc:
            agent.unusable(exc)
            continue
        if agent.carry_out(action):
            return True
    return False
