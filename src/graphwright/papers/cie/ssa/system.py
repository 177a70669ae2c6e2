"""``cie.ssa``: the supervisor split into planner, agent instructor, result checker and result
formatter, with entity, property and triple extractors and URI retrieval (CIExMAS 4.1.2).

Flow: the planner decides the next step (or to format the result); the agent instructor turns
that into a call with an instruction; the worker answers into ``results``; the result checker
comments on it; back to the planner. State as in Table 4.2: text, instruction, call_trace,
results, comments.
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
    stop_run,
    with_calls_left,
)
from graphwright.tools.uri_retrieval import SearchRequest

NAME = "cie.ssa"
PLANNER = "planner"
INSTRUCTOR = "agent_instructor"
CHECKER = "result_checker"
FORMATTER = "result_formatter"
URI_TOOL = "uri_retrieval_tool"
EXTRACTORS = (ENTITY_EXTRACTOR, PROPERTY_EXTRACTOR, TRIPLE_EXTRACTOR)
WORKERS = (*EXTRACTORS, URI_TOOL)
FORMATTER_RESULTS_CHARS = 3500  # the formatter's prompt and Turtle must fit a 4,096-token context


class SsaConfig(CieConfig):
    max_steps: int = Field(default=16, ge=3, description="Agent calls before the run is wrapped up (step limit).")
    recursion_limit: int = Field(
        default=100, description="LangGraph super-step backstop; above max_steps plus tool steps."
    )
    compact_uri: bool = Field(
        default=True, description="URI retrieval answers with an LLM-judged summary (paper 4.2.1)."
    )
    property_extractor: bool = Field(default=True, description="Use the property extractor (PropEx, paper 5.4.3).")
    results_chars: int = Field(default=3500, description="Agents read the newest results up to this size.")


class SsaState(RunState, total=False):
    # Table 4.2 (call_trace comes with RunState)
    instruction: str
    results: Annotated[list[str], operator.add]  # "agent: answer", oldest first
    comments: Annotated[list[str], operator.add]  # the planner's plans and the result checker's notes
    # bookkeeping
    plan_step: str  # the planner's current intention, for the agent instructor
    triples: list[dict[str, str]]
    uri_mapping: list[dict[str, Any]]


class PlannerOutput(BaseModel):
    thought: str = Field(description="one short sentence: where the work stands")
    next_step: str = Field(
        description="the next step of the plan, for the agent instructor; or why the result is complete"
    )
    goto: Literal["agent_instructor", "result_formatter"] = Field(
        description="agent_instructor for a step, result_formatter to finish"
    )


class InstructorOutput(BaseModel):
    goto: Literal["entity_extractor", "property_extractor", "triple_extractor", "uri_retrieval_tool"] = Field(
        description="the agent or tool that does the planner's next step"
    )
    instruction: str = Field(default="", description="the instruction for that agent; else empty")
    tool_input: list[SearchRequest] = Field(
        default_factory=list, description="searches for uri_retrieval_tool: {term, mode, kind}; else []"
    )

    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {URI_TOOL: ("tool_input",)}
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = {
        **{a: ("tool_input",) for a in EXTRACTORS},
        URI_TOOL: ("instruction",),
    }


class CheckerOutput(BaseModel):
    comment: str = Field(description="is the last result correct and complete for the text? what is missing or wrong?")


def _done(state: SsaState, node: str) -> bool:
    return any(s["node"] == node and not s.get("error") for s in state.get("call_trace") or [])


def planner_routes(state: SsaState) -> list[str]:
    """Format only once IRIs were searched, or once the triple extractor found nothing."""
    if _done(state, URI_TOOL) or (_done(state, TRIPLE_EXTRACTOR) and not state.get("triples")):
        return [INSTRUCTOR, FORMATTER]
    return [INSTRUCTOR]


def instructor_routes(state: SsaState, config: SsaConfig) -> list[str]:
    routes = with_calls_left(
        state, [a for a in EXTRACTORS if config.property_extractor or a != PROPERTY_EXTRACTOR], config.max_agent_calls
    )
    repeat = last_worker(state, (PLANNER, INSTRUCTOR, CHECKER)) == URI_TOOL  # act on a search, do not repeat it
    routes = routes + [URI_TOOL] if state.get("triples") and not repeat else routes
    # every extractor used up right after a search: the planner should have formatted; search again
    return routes or ([URI_TOOL] if state.get("triples") else [TRIPLE_EXTRACTOR])


def render_view(state: SsaState, limit: int, *, last_only: bool = False) -> str:
    results = state.get("results") or []
    if last_only:
        shown = results[-1:]
    else:
        shown, size = [], 0
        for r in reversed(results):
            if size + len(r) > limit and shown:
                break
            shown.insert(0, r)
            size += len(r)
    trace = "\n".join(f"- {s['node']} -> {s.get('goto') or ''}" for s in (state.get("call_trace") or [])[-12:])
    parts = [
        "results (oldest first):\n" + ("\n\n".join(shown) or "(none yet)"),
        "comments:\n" + ("\n".join((state.get("comments") or [])[-6:]) or "(none yet)"),
        "call_trace:\n" + (trace or "(empty)"),
    ]
    if state.get("feedback"):
        parts.append(state["feedback"])
    parts.append(f"Step {state.get('steps', 0) + 1}.")
    return "\n\n".join(parts)


def _agent_step(state: SsaState, node: str, turn, update: dict[str, Any], goto: str) -> Command:
    return Command(
        goto=goto,
        update={
            **update,
            "steps": state.get("steps", 0) + 1,
            "feedback": "",
            "call_trace": trace_step(state, node, "agent", goto=goto, output=dump_output(turn.output)),
        },
    )


async def planner(state: SsaState, runtime) -> Command:
    ctx = runtime.context
    turn = await agent_turn(
        state,
        ctx,
        PLANNER,
        PlannerOutput,
        view=render_view(state, ctx.config.results_chars),
        routes=planner_routes(state),
    )
    if (other := detour(state, PLANNER, turn)) is not None:
        return other
    out: PlannerOutput = turn.output
    return _agent_step(
        state, PLANNER, turn, {"plan_step": out.next_step, "comments": [f"{PLANNER}: {out.next_step}"]}, out.goto
    )


async def agent_instructor(state: SsaState, runtime) -> Command:
    ctx = runtime.context
    view = f"The planner's next step: {state.get('plan_step') or '(none)'}\n\n" + render_view(
        state, ctx.config.results_chars
    )
    turn = await agent_turn(
        state, ctx, INSTRUCTOR, InstructorOutput, view=view, routes=instructor_routes(state, ctx.config)
    )
    if (other := detour(state, INSTRUCTOR, turn)) is not None:
        return other
    out: InstructorOutput = turn.output
    return _agent_step(
        state,
        INSTRUCTOR,
        turn,
        {"instruction": out.instruction, "tool_input": [r.model_dump() for r in out.tool_input]},
        out.goto,
    )


async def result_checker(state: SsaState, runtime) -> Command:
    ctx = runtime.context
    turn = await agent_turn(
        state, ctx, CHECKER, CheckerOutput, view=render_view(state, ctx.config.results_chars, last_only=True)
    )
    if turn.stop:
        return stop_run(state, CHECKER, turn.stop)
    if turn.error:  # a checker that cannot answer leaves the judgement to the planner
        return Command(
            goto=PLANNER,
            update={
                "steps": state.get("steps", 0) + 1,
                "call_trace": trace_step(state, CHECKER, "agent", goto=PLANNER, error=turn.error),
            },
        )
    return _agent_step(state, CHECKER, turn, {"comments": [f"{CHECKER}: {turn.output.comment}"]}, PLANNER)


def _store(agent: str):
    def store(state: SsaState, output, error: str | None) -> dict[str, Any]:
        if agent == TURTLE_FORMATTER:
            return {} if error else {"turtle": output.turtle, "turtle_author": FORMATTER, "feedback": ""}
        if error:
            return {"results": [f"{agent}: {error}"]}
        update: dict[str, Any] = {"results": [f"{agent}: {summarize_output(agent, output)}"]}
        if agent == TRIPLE_EXTRACTOR:
            update["triples"] = [t.model_dump() for t in output.triples]
        return update

    return store


def _formatter_context(state: SsaState) -> str:
    results = "\n\n".join(state.get("results") or [])
    if len(results) > FORMATTER_RESULTS_CHARS:  # the newest results; the draft below holds what was mapped
        results = "[... older results cut]\n" + results[-FORMATTER_RESULTS_CHARS:]
    view = "results:\n" + results
    draft = mapping_fallback(state)
    if draft:
        view += f"\n\nDraft assembled from the triples and the IRIs found:\n{draft}"
    return view + (f"\n\n{state['feedback']}" if state.get("feedback") else "")


class SsaSystem(CieGraphSystem):
    name = NAME
    version = "cie.ssa.v1"
    prompts_package = "graphwright.papers.cie.ssa"
    prompt_names = (PLANNER, INSTRUCTOR, CHECKER, *EXTRACTORS, TURTLE_FORMATTER)

    def build_graph(self):
        graph = StateGraph(SsaState, context_schema=CieContext)
        graph.add_node(PLANNER, planner, destinations=(INSTRUCTOR, FORMATTER, PLANNER, FINISH))
        graph.add_node(INSTRUCTOR, agent_instructor, destinations=(*WORKERS, INSTRUCTOR, FINISH))
        graph.add_node(CHECKER, result_checker, destinations=(PLANNER, FINISH))
        for agent in EXTRACTORS:
            graph.add_node(
                agent,
                make_specialist_node(agent, return_to=CHECKER, context=lambda state: "", store=_store(agent)),
                destinations=(CHECKER, FINISH),
            )
        graph.add_node(
            URI_TOOL,
            make_uri_node(
                URI_TOOL, return_to=CHECKER, store=lambda state, answer: {"results": [f"{URI_TOOL}: {answer}"]}
            ),
            destinations=(CHECKER,),
        )
        # the result formatter is the shared Turtle formatter reading the collected results
        graph.add_node(
            FORMATTER,
            make_specialist_node(
                TURTLE_FORMATTER,
                return_to=FINISH,
                context=_formatter_context,
                store=_store(TURTLE_FORMATTER),
                name=FORMATTER,
            ),
            destinations=(FINISH,),
        )
        graph.add_node(FINISH, make_finish(mapping_fallback), destinations=(FORMATTER, "__end__"))
        graph.add_edge(START, PLANNER)
        return graph.compile()

    def extra(self, state: dict[str, Any]) -> dict[str, Any]:
        return {**super().extra(state), "comments": state.get("comments") or []}
