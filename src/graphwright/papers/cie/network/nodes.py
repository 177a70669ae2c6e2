"""Agents and tools of the network architecture (CIExMAS 4.1.5).

Each agent reads the whole state and routes with ``Command(goto=...)`` on a
validated field. Tools read only ``tool_call`` and answer to the calling
agent. Malformed output, bad tool input and unknown IRIs come back to the
agent as an ERROR message (error incorporation); the step limit sends the run
to ``finish``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command
from pydantic import BaseModel

from graphwright.agents.call import dump_output
from graphwright.errors import ModelOutputError
from graphwright.papers.cie.common.draft import draft_lines, draft_turtle
from graphwright.papers.cie.common.turn import CieContext, agent_turn, trace_step
from graphwright.papers.cie.common.uri import complete_requests
from graphwright.papers.cie.network.finish import finish_run
from graphwright.papers.cie.network.lean_outputs import LeanExtractorOutput, LeanUriMappingOutput, LeanValidationOutput
from graphwright.papers.cie.network.lean_view import (
    check_lines,
    extractor_view,
    mapping_view,
    render_lines,
    validation_view,
)
from graphwright.papers.cie.network.mapping import (
    constrain_mapping,
    mapping_choices,
    merge_mapping,
    record_candidates,
)
from graphwright.papers.cie.network.outputs import (
    CHECK_TOOLS,
    EXTRACTOR,
    FINISH,
    LABEL_TOOL,
    SEMANTIC_TOOL,
    URI_MAPPING,
    URI_TOOL,
    VALIDATION,
    ExtractorOutput,
    UriMappingOutput,
    ValidationOutput,
)
from graphwright.papers.cie.network.render import render_state
from graphwright.papers.cie.network.routes import open_routes
from graphwright.papers.cie.network.state import NetworkState
from graphwright.tools.semantic_validation import render_checks, semantic_validation
from graphwright.tools.turtle import parse_turtle
from graphwright.tools.turtle_to_label import render_report, turtle_to_label
from graphwright.tools.uri_retrieval import SearchRequest, render_results, uri_retrieval

Ctx = Runtime[CieContext]
PROMPT_OF = {EXTRACTOR: "extractor", URI_MAPPING: "uri_mapping", VALIDATION: "validation_output"}
OUTPUT_OF: dict[str, type[BaseModel]] = {
    EXTRACTOR: ExtractorOutput,
    URI_MAPPING: UriMappingOutput,
    VALIDATION: ValidationOutput,
}
#: lean=true: per agent its prompt, answer model and view (lean_view.py); the system message is lean_team's
LEAN: dict[str, tuple[str, type[BaseModel], Callable[[NetworkState], str]]] = {
    EXTRACTOR: ("lean_extractor", LeanExtractorOutput, extractor_view),
    URI_MAPPING: ("lean_uri_mapping", LeanUriMappingOutput, mapping_view),
    VALIDATION: ("lean_validation", LeanValidationOutput, validation_view),
}


async def _ask(state: NetworkState, ctx: CieContext, agent: str, shape=None):
    """Run one agent turn; returns (turn, None), or (None, Command) when the turn cannot happen.
    ``shape`` may narrow this turn's JSON Schema further (the URI agent's candidates)."""
    routes = open_routes(agent, state, ctx.config.strict_routing, ctx.config.max_repairs, ctx.config.lean)
    if ctx.config.lean:
        prompt, output_type, view = LEAN[agent]
        turn = await agent_turn(
            state,
            ctx,
            prompt,
            output_type,
            view=view(state),
            routes=routes,
            shape=shape,
            max_tokens=_max_tokens(ctx, agent, state["text"]),
            shared="lean_team",
            agent=PROMPT_OF[agent],
            salvage=True,
        )  # budgets sized to the text cut lists short: keep their complete part
    else:
        turn = await agent_turn(
            state,
            ctx,
            PROMPT_OF[agent],
            OUTPUT_OF[agent],
            view=render_state(state, ctx.config.trace_chars, agent),
            routes=routes,
            max_tokens=_max_tokens(ctx, agent, state["text"]),
            shape=shape,
        )
    if turn.stop:
        return None, Command(
            goto=FINISH,
            update={
                "forced": True,
                "warnings": [turn.stop],
                "call_trace": trace_step(state, agent, "system", goto=FINISH, error=turn.stop),
            },
        )
    if turn.error:
        return None, _back_to(state, agent, turn.error, state.get("steps", 0) + 1)
    return turn, None


def _max_tokens(ctx: CieContext, agent: str, text: str) -> int:
    # a cut-off JSON answer is unusable, and a retry at temperature 0 is cut off at the same place
    return ctx.config.extractor_cap(text) if agent == EXTRACTOR else ctx.config.max_tokens


def _draft(ctx: CieContext, triples: list[dict[str, str]], mapping: list[dict[str, Any]]) -> list[dict[str, Any]]:
    cfg = ctx.config
    if not cfg.lean:  # the paper's path stays as benchmarked
        return draft_lines(triples, mapping)
    return draft_lines(
        triples,
        mapping,
        ctx.kb,
        typed_values=cfg.typed_values,
        name_check=cfg.name_check,
        place_chains=cfg.place_chains,
    )


def _draft_turtle(ctx: CieContext, state: NetworkState) -> str:
    return "\n".join(entry["line"] for entry in _draft(ctx, state.get("triples") or [], state.get("uri_mapping") or []))


def _back_to(state: NetworkState, agent: str, error: str, steps: int) -> Command:
    """Error incorporation: the agent sees the error as the last response and tries again."""
    return Command(
        goto=agent,
        update={
            "last_call": agent,
            "last_response": error,
            "steps": steps,
            "call_trace": trace_step(state, agent, "agent", goto=agent, error=error),
        },
    )


async def extractor(state: NetworkState, runtime: Ctx) -> Command:
    ctx = runtime.context
    reply, detour = await _ask(state, ctx, EXTRACTOR)
    if detour:
        return detour
    out = reply.output
    if ctx.config.lean:
        triples = out.free_triples()
    else:
        triples = [
            t.model_dump() for t in out.triples if t.subject.strip() and t.predicate.strip() and t.object.strip()
        ]
    goto = out.goto if triples else FINISH
    update = {
        "triples": triples,
        "agent_instruction": out.instruction,
        "last_call": EXTRACTOR,
        "last_response": _said(EXTRACTOR, out, ctx.config.lean),
        "steps": state.get("steps", 0) + 1,
    }
    if ctx.config.lean and goto == URI_MAPPING:
        # the URI agent's first turn would have to search anyway (strict routing): search every new term now
        requests = complete_requests([], triples, state.get("candidates") or {})
        if requests:
            goto = URI_TOOL
            update.update(tool_call=requests, caller=URI_MAPPING)
    return Command(
        goto=goto,
        update={**update, "call_trace": trace_step(state, EXTRACTOR, "agent", goto=goto, output=dump_output(out))},
    )


def _said(agent: str, out, lean: bool) -> str:
    """What the next agent reads of this answer: the paper's thought and instruction, or (lean) the instruction alone."""
    if lean:
        return out.instruction.strip()
    return f"{agent}: {out.thought} {out.instruction}".strip()


async def uri_mapping_and_refinement(state: NetworkState, runtime: Ctx) -> Command:
    ctx = runtime.context
    choices = mapping_choices(state.get("triples") or [], state.get("candidates") or {})
    reply, detour = await _ask(
        state, ctx, URI_MAPPING, shape=lambda schema: constrain_mapping(schema, VALIDATION, choices)
    )
    if detour:
        return detour
    out = reply.output
    steps = state.get("steps", 0) + 1
    common = {"last_call": URI_MAPPING, "agent_instruction": out.instruction, "steps": steps}
    if out.goto == URI_TOOL:
        if not out.tool_input:
            return _back_to(
                state, URI_MAPPING, "ERROR: goto uri_retrieval_tool needs at least one request in tool_input.", steps
            )
        requests = complete_requests(
            [r.model_dump() for r in out.tool_input], state.get("triples") or [], state.get("candidates") or {}
        )
        return Command(
            goto=URI_TOOL,
            update={
                **common,
                "tool_call": requests,
                "caller": URI_MAPPING,
                "call_trace": trace_step(state, URI_MAPPING, "agent", goto=URI_TOOL, output=dump_output(out)),
            },
        )
    mapping, problems = merge_mapping(ctx.kb, state.get("uri_mapping") or [], out.uri_mapping)
    if out.goto == VALIDATION and (problems or not (mapping or ctx.config.lean)):
        error = "ERROR: " + ("; ".join(problems) if problems else "uri_mapping is empty: map every surface form first.")
        return _back_to(state, URI_MAPPING, error + " Use only IRIs shown by uri_retrieval_tool.", steps)
    goto = out.goto
    update = {**common, "uri_mapping": mapping}
    if goto == VALIDATION:  # hand over a draft, which the validation agent checks and edits
        if ctx.config.lean:
            lines = _draft(ctx, state.get("triples") or [], mapping)
            # the validation agent would have to run both checks first (strict routing): run them now;
            # a draft with no line leaves nothing to validate
            goto = CHECK_TOOLS if lines else FINISH
            update.update(turtle="\n".join(entry["line"] for entry in lines), turtle_author="draft", caller=VALIDATION)
        else:
            update.update(turtle=draft_turtle(state.get("triples") or [], mapping), turtle_author="draft")
    return Command(
        goto=goto,
        update={
            **update,
            "last_response": _said(URI_MAPPING, out, ctx.config.lean),
            "call_trace": trace_step(state, URI_MAPPING, "agent", goto=goto, output=dump_output(out)),
        },
    )


async def validation_and_output(state: NetworkState, runtime: Ctx) -> Command:
    ctx = runtime.context
    reply, detour = await _ask(state, ctx, VALIDATION)
    if detour:
        return detour
    out = reply.output
    steps = state.get("steps", 0) + 1
    turtle, author = state.get("turtle", ""), state.get("turtle_author", "draft")
    if ctx.config.lean:
        if out.remove or author == "draft":  # the agent judged the lines: what it kept is its answer
            drop = set(out.remove)
            turtle = "\n".join(c["line"] for n, c in enumerate(state.get("checks") or [], 1) if n not in drop)
            author = VALIDATION
    elif out.turtle.strip():
        try:
            parse_turtle(out.turtle)
            turtle, author = out.turtle.strip(), VALIDATION
        except ModelOutputError as exc:  # keep the last good Turtle; the agent sees why its edit failed
            return _back_to(state, VALIDATION, f"ERROR: {exc}", steps)
    if out.goto in (LABEL_TOOL, SEMANTIC_TOOL) and not turtle:
        return _back_to(
            state,
            VALIDATION,
            f"ERROR: {out.goto} reads the turtle field, which is empty. Write the Turtle first.",
            steps,
        )
    update = {
        "turtle": turtle,
        "turtle_author": author,
        "last_call": VALIDATION,
        "agent_instruction": out.instruction,
        "steps": steps,
        "last_response": _said(VALIDATION, out, ctx.config.lean),
        "call_trace": trace_step(state, VALIDATION, "agent", goto=out.goto, output=dump_output(out)),
    }
    if out.goto in (LABEL_TOOL, SEMANTIC_TOOL):
        update.update(tool_call=turtle, caller=VALIDATION)
    return Command(goto=out.goto, update=update)


def _as_text(tool_call: Any) -> str:
    """Tool input for the trace: Turtle as is, search requests as JSON (traces are read by programs too)."""
    return tool_call if isinstance(tool_call, str) else json.dumps(tool_call, ensure_ascii=False)


def _tool_result(state: NetworkState, tool: str, text: str, error: str | None = None, **extra: Any) -> Command:
    caller = state.get("caller") or VALIDATION
    return Command(
        goto=caller,
        update={
            **extra,
            "last_call": tool,
            "last_response": text,
            "call_trace": trace_step(
                state,
                tool,
                "tool",
                goto=caller,
                input=_as_text(state.get("tool_call"))[:2000],
                output=text[:2000],
                error=error,
            ),
        },
    )


async def uri_retrieval_tool(state: NetworkState, runtime: Ctx) -> Command:
    ctx = runtime.context
    try:
        requests = [SearchRequest.model_validate(r) for r in state.get("tool_call") or []]
        results = uri_retrieval(ctx.kb, requests, k=ctx.config.candidates_per_term)
    except ModelOutputError as exc:
        return _tool_result(state, URI_TOOL, f"ERROR: {exc}", str(exc))
    return _tool_result(
        state, URI_TOOL, render_results(results), candidates=record_candidates(state.get("candidates") or {}, results)
    )


async def turtle_to_label_tool(state: NetworkState, runtime: Ctx) -> Command:
    try:
        report = turtle_to_label(runtime.context.kb, state.get("tool_call") or "")
    except ModelOutputError as exc:
        return _tool_result(state, LABEL_TOOL, f"ERROR: {exc}", str(exc))
    free = [(t["subject"], t["predicate"], t["object"]) for t in state.get("triples") or []]
    return _tool_result(state, LABEL_TOOL, render_report(report, free), check_problems=len(report.problems))


async def semantic_validation_tool(state: NetworkState, runtime: Ctx) -> Command:
    try:
        checks = semantic_validation(runtime.context.kb, state.get("tool_call") or "")
    except ModelOutputError as exc:
        return _tool_result(state, SEMANTIC_TOOL, f"ERROR: {exc}", str(exc))
    problems = sum(c.verdict == "invalid" for c in checks)
    return _tool_result(state, SEMANTIC_TOOL, render_checks(checks), check_problems=problems)


async def check_tools(state: NetworkState, runtime: Ctx) -> Command:
    """lean=true: both check tools on every line of the draft. A line the checks call invalid (an item
    where the property takes a literal, a subject or value of a type the property excludes) is dropped
    here; the validation agent judges the others against the text, or the run ends when none is left."""
    ctx = runtime.context
    checks = check_lines(ctx.kb, _draft(ctx, state.get("triples") or [], state.get("uri_mapping") or []))
    kept = [c for c in checks if c["verdict"] != "invalid"]
    report = render_lines(kept) + "".join(f"\ndropped: {render_lines([c])[3:]}" for c in checks if c not in kept)
    caller = state.get("caller") or VALIDATION
    goto = caller if kept and ctx.config.validator else FINISH
    author = {} if ctx.config.validator else {"turtle_author": CHECK_TOOLS}  # without a validator the checks decide
    return Command(
        goto=goto,
        update={
            **author,
            "checks": kept,
            "check_problems": 0,
            "turtle": "\n".join(c["line"] for c in kept),
            "last_call": CHECK_TOOLS,
            "last_response": report,
            "call_trace": trace_step(state, CHECK_TOOLS, "tool", goto=goto, output=report[:2000]),
        },
    )


async def finish(state: NetworkState, runtime: Ctx) -> Command:
    ctx = runtime.context
    outcome = finish_run(ctx.kb, state, lambda s: _draft_turtle(ctx, s))
    retries_left = state.get("finish_attempts", 0) < ctx.config.finish_retries
    if outcome.problems and not state.get("forced") and retries_left:
        error = (
            "ERROR: the final Turtle was rejected:\n- "
            + "\n- ".join(outcome.problems)
            + "\nFix these triples or leave them out, then finish again."
        )
        return Command(
            goto=VALIDATION,
            update={
                "finish_attempts": state.get("finish_attempts", 0) + 1,
                "last_call": FINISH,
                "last_response": error,
                "call_trace": trace_step(state, FINISH, "system", goto=VALIDATION, error=error),
            },
        )
    return Command(
        goto=END,
        update={
            "final_triples": outcome.triples,
            "messages": [outcome.turtle],
            "final_turtle": outcome.turtle,
            "warnings": outcome.problems,
            "call_trace": trace_step(state, FINISH, "system", output=outcome.turtle[:2000]),
        },
    )
