"""One agent turn inside a LangGraph node, with CIExMAS error incorporation (section 4.4).

The prompt is rendered from the agent's template and a view of the state; the answer is
schema-constrained JSON (or XML tags) whose ``goto`` may only name the routes open now. A
malformed answer comes back as ``Turn.error`` for the node to feed to the agent; the step
limit and the token budget come back as ``Turn.stop`` for the node to wrap up the run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from graphwright.agents.call import call_agent, format_instructions
from graphwright.agents.prompts import PromptTemplate
from graphwright.agents.routing import routed_schema
from graphwright.errors import BudgetExceededError, ContextOverflowError, ModelOutputError
from graphwright.kb.protocol import KnowledgeBase
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM


@dataclass
class CieContext:
    """LangGraph runtime context of every cie architecture."""

    llm: LLM
    kb: KnowledgeBase
    config: Any  # a CieConfig subclass
    prompts: dict[str, PromptTemplate]


@dataclass
class Turn:
    output: Any = None  # the validated output model
    error: str | None = None  # feed back to the agent
    stop: str | None = None  # end the run (step limit, token budget)


def trace_step(
    state: Mapping[str, Any],
    node: str,
    kind: str,
    *,
    goto: str | None = None,
    input: str | None = None,
    output: str | None = None,
    error: str | None = None,
) -> list[dict[str, Any]]:
    """One call_trace entry (the state field is append-only)."""
    step = len(state.get("call_trace") or []) + 1
    return [{"step": step, "node": node, "kind": kind, "goto": goto, "input": input, "output": output, "error": error}]


async def agent_turn(
    state: Mapping[str, Any],
    ctx: CieContext,
    prompt: str,
    output_type: type[BaseModel],
    *,
    view: str,
    routes: list[str] | None = None,
    max_tokens: int | None = None,
    shape: Callable[[dict], dict] | None = None,
    shared: str | None = None,
    agent: str | None = None,
    salvage: bool | None = None,
    **values: Any,
) -> Turn:
    """Ask agent ``prompt``; ``routes`` limits ``goto`` (for output models that have one).

    ``shared`` names a template whose static part, the same for every agent of a run, is the system
    message; the agent's own template then becomes the user message. The prompt cache then holds the
    document once for all agents instead of once per agent. ``agent`` names the agent in the cost
    ledger (default: the prompt's name). ``salvage`` overrides the config's ``salvage_cut_off``."""
    if state.get("steps", 0) >= ctx.config.max_steps:
        return Turn(stop=f"step limit of {ctx.config.max_steps} agent calls reached at {prompt}")
    if routes is not None:
        view += f"\nChoose goto from: {', '.join(routes)}."
    fill = {
        "text": state["text"],
        "state": view,
        "format": format_instructions(output_type, ctx.config.output_format),
        **values,
    }
    system, user = ctx.prompts[prompt].render(**fill)
    if shared is not None:
        system, user = ctx.prompts[shared].render(**fill)[0], "\n\n".join(p for p in (system, user) if p)
    schema = output_type.model_json_schema()
    if routes is not None:
        schema = routed_schema(
            schema, getattr(output_type, "ROUTE_NEEDS", {}), routes, getattr(output_type, "ROUTE_EMPTIES", {})
        )
    if shape is not None:
        schema = shape(schema)
    try:
        with for_agent(agent or prompt):
            reply = await call_agent(
                ctx.llm,
                system,
                user,
                output_type,
                fmt=ctx.config.output_format,
                max_retries=ctx.config.parse_retries,
                max_tokens=max_tokens or ctx.config.max_tokens,
                schema=schema,
                salvage_cut_off=ctx.config.salvage_cut_off if salvage is None else salvage,
            )
        goto = getattr(reply.output, "goto", None)
        if routes is not None and goto not in routes:
            raise ModelOutputError(f"goto {goto!r} is not open now; choose one of: {', '.join(routes)}")
    except ModelOutputError as exc:
        return Turn(error=f"ERROR: your last answer could not be used: {exc}")
    except (BudgetExceededError, ContextOverflowError) as exc:  # wrap up with what there is
        return Turn(stop=f"{prompt}: {exc}")
    return Turn(output=reply.output)
