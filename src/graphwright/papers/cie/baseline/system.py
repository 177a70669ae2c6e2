"""``cie.baseline``: a supervisor with an entity extractor, a triple extractor and URI retrieval
with an LLM-written summary (CIExMAS 4.1.1, with the error incorporation of 5.4.3).

Only the supervisor sees the whole state (Table 4.1: text, messages, instruction); it routes,
checks the specialists' answers and writes the final Turtle itself.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

from langgraph.graph import START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command
from pydantic import Field

from graphwright.agents.call import dump_output
from graphwright.papers.cie.baseline.outputs import SUPERVISOR, URI_TOOL, SupervisorOutput
from graphwright.papers.cie.common.config import CieConfig
from graphwright.papers.cie.common.finish import FINISH, make_finish, mapping_fallback
from graphwright.papers.cie.common.specialists import ENTITY_EXTRACTOR, TRIPLE_EXTRACTOR, summarize_output
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

NAME = "cie.baseline"
MESSAGE_CHARS = 3500  # the supervisor reads the newest messages up to this size


class BaselineConfig(CieConfig):
    compact_uri: bool = Field(
        default=True, description="URI retrieval answers with an LLM-judged summary (paper 4.2.1)."
    )


class BaselineState(RunState, total=False):
    # Table 4.1
    messages: Annotated[list[str], operator.add]  # "author: content", oldest first
    instruction: str
    # bookkeeping
    triples: list[dict[str, str]]  # the triple extractor's latest answer (for the fallback Turtle)
    uri_mapping: list[dict[str, Any]]  # the compact URI choices so far


Ctx = Runtime[CieContext]


def open_routes(state: BaselineState, max_agent_calls: int = 2) -> list[str]:
    """The supervisor delegates (paper 5.4.1: left alone it filled in IRIs from memory): search
    only once triples exist, finish only once their IRIs were searched, and act on a search's
    answer rather than repeat it (a small model repeats the same call until the step limit)."""
    done = {step["node"] for step in state.get("call_trace") or [] if not step.get("error")}
    routes = with_calls_left(state, (ENTITY_EXTRACTOR, TRIPLE_EXTRACTOR), max_agent_calls)
    if TRIPLE_EXTRACTOR in done and last_worker(state, (SUPERVISOR,)) != URI_TOOL:
        routes.append(URI_TOOL)
    if URI_TOOL in done or (TRIPLE_EXTRACTOR in done and not state.get("triples")):
        routes.append(FINISH)
    return routes


def render_view(state: BaselineState) -> str:
    text = "\n\n".join(state.get("messages") or []) or "(no messages yet)"
    if len(text) > MESSAGE_CHARS:
        text = "[... older messages cut]\n" + text[-MESSAGE_CHARS:]
    parts = [f"Messages (oldest first):\n{text}"]
    draft = mapping_fallback(state)
    if draft:
        parts.append(
            "Draft Turtle from the triples and the IRIs found (check it; finish with it or a corrected "
            f"version):\n{draft}"
        )
    if state.get("feedback"):
        parts.append(state["feedback"])
    parts.append(f"Step {state.get('steps', 0) + 1}.")
    return "\n\n".join(parts)


async def supervisor(state: BaselineState, runtime: Ctx) -> Command:
    ctx = runtime.context
    steps = state.get("steps", 0) + 1
    turn = await agent_turn(
        state,
        ctx,
        SUPERVISOR,
        SupervisorOutput,
        view=render_view(state),
        routes=open_routes(state, ctx.config.max_agent_calls),
        max_tokens=ctx.config.extractor_max_tokens,
    )
    if (other := detour(state, SUPERVISOR, turn)) is not None:
        return other
    out: SupervisorOutput = turn.output
    update: dict[str, Any] = {
        "steps": steps,
        "feedback": "",
        "instruction": out.instruction,
        "messages": [f"{SUPERVISOR}: {out.thought}".strip()],
        "call_trace": trace_step(state, SUPERVISOR, "agent", goto=out.goto, output=dump_output(out)),
    }
    if out.goto == URI_TOOL:
        update["tool_input"] = [r.model_dump() for r in out.tool_input]
    if out.goto == FINISH:
        update.update(turtle=out.turtle, turtle_author=SUPERVISOR)
    return Command(goto=out.goto, update=update)


def _store_specialist(agent: str):
    def store(state: BaselineState, output, error: str | None) -> dict[str, Any]:
        if error:  # the supervisor decides whether to ask again
            return {"messages": [f"{agent}: {error}"]}
        update: dict[str, Any] = {"messages": [f"{agent}: {summarize_output(agent, output)}"]}
        if agent == TRIPLE_EXTRACTOR:
            update["triples"] = [t.model_dump() for t in output.triples]
        return update

    return store


class BaselineSystem(CieGraphSystem):
    name = NAME
    version = "cie.baseline.v1"
    prompts_package = "graphwright.papers.cie.baseline"
    prompt_names = (SUPERVISOR, ENTITY_EXTRACTOR, TRIPLE_EXTRACTOR)

    def build_graph(self):
        graph = StateGraph(BaselineState, context_schema=CieContext)
        graph.add_node(
            SUPERVISOR, supervisor, destinations=(ENTITY_EXTRACTOR, TRIPLE_EXTRACTOR, URI_TOOL, FINISH, SUPERVISOR)
        )
        for agent in (ENTITY_EXTRACTOR, TRIPLE_EXTRACTOR):
            graph.add_node(
                agent,
                make_specialist_node(
                    agent, return_to=SUPERVISOR, context=lambda state: "", store=_store_specialist(agent)
                ),
                destinations=(SUPERVISOR, FINISH),
            )
        graph.add_node(
            URI_TOOL,
            make_uri_node(
                URI_TOOL, return_to=SUPERVISOR, store=lambda state, answer: {"messages": [f"{URI_TOOL}: {answer}"]}
            ),
            destinations=(SUPERVISOR,),
        )
        graph.add_node(FINISH, make_finish(mapping_fallback), destinations=(SUPERVISOR, "__end__"))
        graph.add_edge(START, SUPERVISOR)
        return graph.compile()
