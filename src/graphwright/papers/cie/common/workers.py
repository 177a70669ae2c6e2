"""LangGraph nodes for the workers of the supervisor architectures: a specialist agent, or the URI
retrieval tool, that reports back to a fixed agent. Each architecture says what a worker reads
(``context``) and where its answer goes in the state (``store``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langgraph.types import Command

from graphwright.agents.call import dump_output
from graphwright.errors import BudgetExceededError, ContextOverflowError, ModelOutputError
from graphwright.papers.cie.common.finish import FINISH
from graphwright.papers.cie.common.specialists import specialist_turn
from graphwright.papers.cie.common.turn import trace_step
from graphwright.papers.cie.common.uri import complete_searches, merge_choices, search_uris

State = Mapping[str, Any]  # a state TypedDict of any architecture; nodes only read it


def detour(state: State, node: str, turn) -> Command | None:
    """Where a turn that gave no usable output goes: finish (step limit, budget) or the same agent
    again with the error (error incorporation); None when the turn has an output."""
    if turn.stop:
        return stop_run(state, node, turn.stop)
    if turn.error:
        return retry_turn(state, node, turn.error)
    return None


def retry_turn(state: State, node: str, error: str) -> Command:
    """Error incorporation: the agent's unusable answer costs a step, and it sees the error next turn."""
    return Command(
        goto=node,
        update={
            "feedback": error,
            "steps": state.get("steps", 0) + 1,
            "call_trace": trace_step(state, node, "agent", goto=node, error=error),
        },
    )


def with_calls_left(state: State, agents: list[str] | tuple[str, ...], limit: int) -> list[str]:
    """The agents that have answered fewer than ``limit`` times."""
    trace = state.get("call_trace") or []
    return [a for a in agents if sum(1 for s in trace if s["node"] == a and not s.get("error")) < limit]


def last_worker(state: State, agents: tuple[str, ...]) -> str | None:
    """The node that ran last, skipping the given (controlling) agents' own turns."""
    for step in reversed(state.get("call_trace") or []):
        if step["node"] not in agents:
            return step["node"]
    return None


def stop_run(state: State, node: str, note: str) -> Command:
    """The step limit or token budget ends the run: finish with what there is."""
    return Command(
        goto=FINISH,
        update={
            "forced": True,
            "warnings": [note],
            "call_trace": trace_step(state, node, "system", goto=FINISH, error=note),
        },
    )


def make_specialist_node(
    agent: str,
    *,
    return_to: str,
    context: Callable[[State], str],
    store: Callable[[State, Any, str | None], dict[str, Any]],
    name: str | None = None,
):
    """``store(state, output, error)`` gives the state update; a failed call reports its error.
    ``name``: the graph node's name when it differs from the agent's (SSA's result formatter)."""
    node_name = name or agent

    async def node(state: State, runtime) -> Command:
        turn = await specialist_turn(state, runtime.context, agent, state.get("instruction", ""), context(state))
        if turn.stop:
            return stop_run(state, node_name, turn.stop)
        update = {
            "steps": state.get("steps", 0) + 1,
            **store(state, turn.output, turn.error),
            "call_trace": trace_step(
                state,
                node_name,
                "agent",
                goto=return_to,
                error=turn.error,
                output=dump_output(turn.output) if turn.output is not None else None,
            ),
        }
        return Command(goto=return_to, update=update)

    return node


def make_uri_node(name: str, *, return_to: str, store: Callable[[State, str], dict[str, Any]]):
    """URI retrieval on ``state["tool_input"]``; compact (LLM-judged) when ``config.compact_uri``.
    The chosen IRIs also go into ``uri_mapping``; ``store(state, answer)`` places the answer text."""

    async def node(state: State, runtime) -> Command:
        ctx = runtime.context
        requests = complete_searches(
            state.get("tool_input") or [], state.get("triples") or [], state.get("uri_mapping") or []
        )
        try:
            answer, choices = await search_uris(ctx, requests, state["text"], ctx.config.compact_uri)
        except ModelOutputError as exc:
            answer, choices = f"ERROR: {exc}", []
        except (BudgetExceededError, ContextOverflowError) as exc:  # the compact judge's call could not be made
            return stop_run(state, name, str(exc))
        update = {
            **store(state, answer),
            "uri_mapping": merge_choices(state.get("uri_mapping") or [], choices),
            "call_trace": trace_step(
                state, name, "tool", goto=return_to, input=str(requests)[:2000], output=answer[:2000]
            ),
        }
        return Command(goto=return_to, update=update)

    return node
