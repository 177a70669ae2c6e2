"""``cie.sssa``: a planner over a structured state, the three extractors, URI retrieval with an
LLM-judged summary, and a Turtle formatter (CIExMAS 4.1.3).

The planner plans, instructs and checks (the SSA's planner, agent instructor and result checker
merged); the structured state of Table 4.3 replaces the SSA's free-form results, so the planner
reads each output in its own field and never writes Turtle.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, ClassVar, Literal

from langgraph.graph import START, StateGraph
from langgraph.types import Command
from pydantic import BaseModel, Field

from graphwright.agents.call import dump_output
from graphwright.papers.cie.common.config import CieConfig
from graphwright.papers.cie.common.finish import FINISH, make_finish, mapping_fallback
from graphwright.papers.cie.common.outputs import render_triples
from graphwright.papers.cie.common.specialists import (
    ENTITY_EXTRACTOR,
    PROPERTY_EXTRACTOR,
    TRIPLE_EXTRACTOR,
    TURTLE_FORMATTER,
    summarize_output,
)
from graphwright.papers.cie.common.state import RunState
from graphwright.papers.cie.common.system import CieGraphSystem
from graphwright.papers.cie.common.turn import CieContext, agent_turn, trace_step
from graphwright.papers.cie.common.workers import (
    detour,
    last_worker,
    make_specialist_node,
    make_uri_node,
    with_calls_left,
)
from graphwright.tools.uri_retrieval import SearchRequest

NAME = "cie.sssa"
PLANNER = "planner"
URI_TOOL = "uri_retrieval_tool"
EXTRACTORS = (ENTITY_EXTRACTOR, PROPERTY_EXTRACTOR, TRIPLE_EXTRACTOR)


class SssaConfig(CieConfig):
    max_steps: int = Field(default=12, ge=2, description="Agent calls before the run is wrapped up (step limit).")
    compact_uri: bool = Field(
        default=True, description="URI retrieval answers with an LLM-judged summary (paper 4.2.1)."
    )


class SssaState(RunState, total=False):
    instruction: str
    # Table 4.3
    entities: list[str]
    properties: list[str]
    triples: list[dict[str, str]]
    uri_mapping: list[dict[str, Any]]
    agent_response: str  # the last specialist's or tool's raw answer, for the planner to check
    messages: Annotated[list[str], operator.add]  # the planner's own dialogue, so it sees what it already did


class PlannerOutput(BaseModel):
    thought: str = Field(description="one short sentence: is the last answer right, what comes next")
    goto: Literal[
        "entity_extractor", "property_extractor", "triple_extractor", "uri_retrieval_tool", "turtle_formatter"
    ] = Field(description="next agent or tool")
    instruction: str = Field(default="", description="what the agent should do; else empty")
    tool_input: list[SearchRequest] = Field(
        default_factory=list, description="searches for uri_retrieval_tool: {term, mode, kind}; else []"
    )

    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {URI_TOOL: ("tool_input",)}
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = {
        **{a: ("tool_input",) for a in (*EXTRACTORS, TURTLE_FORMATTER)},
        URI_TOOL: ("instruction",),
    }


def open_routes(state: SssaState, max_agent_calls: int = 2) -> list[str]:
    """Search once triples exist; format once IRIs were searched (or nothing was found to map)."""
    routes = with_calls_left(state, EXTRACTORS, max_agent_calls)
    if state.get("triples") and last_worker(state, (PLANNER,)) != URI_TOOL:  # act on a search, do not repeat it
        routes.append(URI_TOOL)
    if state.get("uri_mapping") or any(s["node"] == URI_TOOL for s in state.get("call_trace") or []):
        routes.append(TURTLE_FORMATTER)
    elif any(s["node"] == TRIPLE_EXTRACTOR for s in state.get("call_trace") or []) and not state.get("triples"):
        routes.append(TURTLE_FORMATTER)  # no facts: finish with an empty Turtle
    return routes


def render_structured(state: SssaState) -> str:
    mapping = state.get("uri_mapping") or []
    return "\n\n".join(
        [
            "entities: " + ("; ".join(state.get("entities") or []) or "(none yet)"),
            "properties: " + ("; ".join(state.get("properties") or []) or "(none yet)"),
            "triples:\n" + render_triples(state.get("triples") or []),
            "uri_mapping:\n"
            + ("\n".join(f"{m['surface']} -> {m['iri']} ({m.get('label') or '?'})" for m in mapping) or "(none yet)"),
        ]
    )


def render_view(state: SssaState) -> str:
    parts = [render_structured(state)]
    if state.get("messages"):
        parts.append("Your earlier decisions:\n" + "\n".join(state["messages"][-8:]))
    if state.get("agent_response"):
        parts.append("agent_response (the last answer):\n" + state["agent_response"][:2000])
    if state.get("feedback"):
        parts.append(state["feedback"])
    parts.append(f"Step {state.get('steps', 0) + 1}.")
    return "\n\n".join(parts)


async def planner(state: SssaState, runtime) -> Command:
    ctx = runtime.context
    steps = state.get("steps", 0) + 1
    turn = await agent_turn(
        state,
        ctx,
        PLANNER,
        PlannerOutput,
        view=render_view(state),
        routes=open_routes(state, ctx.config.max_agent_calls),
    )
    if (other := detour(state, PLANNER, turn)) is not None:
        return other
    out: PlannerOutput = turn.output
    update: dict[str, Any] = {
        "steps": steps,
        "feedback": "",
        "instruction": out.instruction,
        "messages": [f"step {steps}: {out.thought} -> {out.goto}"],
        "call_trace": trace_step(state, PLANNER, "agent", goto=out.goto, output=dump_output(out)),
    }
    if out.goto == URI_TOOL:
        update["tool_input"] = [r.model_dump() for r in out.tool_input]
    return Command(goto=out.goto, update=update)


def _context(agent: str):
    """What each specialist reads besides the text and its instruction."""

    def context(state: SssaState) -> str:
        if agent == TRIPLE_EXTRACTOR:
            return "\n".join(
                [
                    "entities: " + ("; ".join(state.get("entities") or []) or "(none)"),
                    "properties: " + ("; ".join(state.get("properties") or []) or "(none)"),
                ]
            )
        if agent == TURTLE_FORMATTER:
            mapping = state.get("uri_mapping") or []
            lines = [f"{m['surface']} -> {m['iri']} ({m.get('label') or '?'})" for m in mapping]
            extra = f"\n\n{state['feedback']}" if state.get("feedback") else ""
            draft = mapping_fallback(state) or "(none: no triple has IRIs for all three parts)"
            return (
                f"Triples:\n{render_triples(state.get('triples') or [])}\n\nMapping:\n"
                + ("\n".join(lines) or "(none)")
                + f"\n\nDraft assembled from them:\n{draft}"
                + extra
            )
        return ""

    return context


_FIELD = {ENTITY_EXTRACTOR: "entities", PROPERTY_EXTRACTOR: "properties", TRIPLE_EXTRACTOR: "triples"}


def _store(agent: str):
    def store(state: SssaState, output, error: str | None) -> dict[str, Any]:
        if error:
            return {"agent_response": f"{agent}: {error}"}
        update: dict[str, Any] = {"agent_response": f"{agent}: {summarize_output(agent, output)}"}
        if agent == TURTLE_FORMATTER:
            return {"turtle": output.turtle, "turtle_author": TURTLE_FORMATTER, "feedback": ""}
        value = getattr(output, _FIELD[agent])
        update[_FIELD[agent]] = [t.model_dump() for t in value] if agent == TRIPLE_EXTRACTOR else value
        return update

    return store


class SssaSystem(CieGraphSystem):
    name = NAME
    version = "cie.sssa.v1"
    prompts_package = "graphwright.papers.cie.sssa"
    prompt_names = (PLANNER, *EXTRACTORS, TURTLE_FORMATTER)

    def build_graph(self):
        graph = StateGraph(SssaState, context_schema=CieContext)
        graph.add_node(PLANNER, planner, destinations=(*EXTRACTORS, URI_TOOL, TURTLE_FORMATTER, PLANNER, FINISH))
        for agent in EXTRACTORS:
            graph.add_node(
                agent,
                make_specialist_node(agent, return_to=PLANNER, context=_context(agent), store=_store(agent)),
                destinations=(PLANNER, FINISH),
            )
        graph.add_node(
            URI_TOOL,
            make_uri_node(
                URI_TOOL, return_to=PLANNER, store=lambda state, answer: {"agent_response": f"{URI_TOOL}: {answer}"}
            ),
            destinations=(PLANNER,),
        )
        graph.add_node(
            TURTLE_FORMATTER,
            make_specialist_node(
                TURTLE_FORMATTER, return_to=FINISH, context=_context(TURTLE_FORMATTER), store=_store(TURTLE_FORMATTER)
            ),
            destinations=(FINISH,),
        )
        graph.add_node(FINISH, make_finish(mapping_fallback), destinations=(TURTLE_FORMATTER, "__end__"))
        graph.add_edge(START, PLANNER)
        return graph.compile()

    def extra(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            **super().extra(state),
            "entities": state.get("entities") or [],
            "properties": state.get("properties") or [],
        }
