"""``cie.react``: one ReAct agent with every tool (CIExMAS 4.1.4, tools as in 5.4.7 and 5.4.9).

The state is the baseline's (Table 4.1): the text, the ``messages`` (the agent's thoughts and the
tools' answers, each with an id the message deletion tool can name) and the instruction. The agent
extracts, searches, checks and writes the final Turtle itself.
"""

from __future__ import annotations

import json
from typing import Any

from langgraph.graph import START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command
from pydantic import Field, field_validator

from graphwright.agents.call import dump_output
from graphwright.errors import ModelOutputError
from graphwright.papers.cie.common.config import CieConfig
from graphwright.papers.cie.common.finish import FINISH, make_finish
from graphwright.papers.cie.common.state import RunState
from graphwright.papers.cie.common.system import CieGraphSystem
from graphwright.papers.cie.common.turn import CieContext, agent_turn, trace_step
from graphwright.papers.cie.common.workers import detour, last_worker
from graphwright.papers.cie.react.outputs import (
    AGENT,
    DELETE_TOOL,
    LABEL_TOOL,
    MAX_TRAVERSALS,
    SEMANTIC_TOOL,
    TOOLS,
    TRAVERSAL_TOOL,
    URI_TOOL,
    ReactOutput,
)
from graphwright.tools.message_deletion import delete_messages
from graphwright.tools.network_traversal import TraversalRequest, network_traversal, render_traversal
from graphwright.tools.semantic_validation import render_checks, semantic_validation
from graphwright.tools.turtle_to_label import render_report, turtle_to_label
from graphwright.tools.uri_retrieval import SearchRequest, render_results, uri_retrieval

NAME = "cie.react"
#: what the prompt says about each tool; only the configured tools are described
TOOL_HELP = {
    URI_TOOL: '- uri_retrieval_tool: finds Wikidata IRIs. searches: one {"term", "mode", "kind"} per subject, predicate '
    'and object; kind "entity" for subjects and objects, "property" for predicates; mode "fused" (usual), '
    '"label", "description", or "example" (properties: a sentence such as "Merkel is a member of the CDU").',
    TRAVERSAL_TOOL: "- network_traversal_tool: shows the broader and narrower properties of a property, and which fit "
    f'the subject and object types. traverse: up to {MAX_TRAVERSALS} requests [{{"property": "wdt:P..", '
    '"subject": "wd:Q..", "object": "wd:Q.."}] for properties you found.',
    SEMANTIC_TOOL: "- semantic_validation_tool: checks each triple of the turtle against the property's datatype and "
    "type constraints; on failure it gives the expected types.",
    LABEL_TOOL: "- turtle_to_label_tool: shows the label of every IRI in the turtle and flags unknown IRIs and wrong "
    "namespaces.",
    DELETE_TOOL: "- message_deletion_tool: deletes messages you no longer need (delete_ids) and keeps your short "
    "summary of them (summary). Never delete search results you still need.",
}


class ReactConfig(CieConfig):
    max_steps: int = Field(default=10, ge=2, description="Agent calls before the run is wrapped up (step limit).")
    tools: list[str] = Field(default=list(TOOLS), description="Tools the agent may use (ablation: leave some out).")
    message_chars: int = Field(default=4000, description="The agent reads its newest messages up to this size.")

    @field_validator("tools")
    @classmethod
    def _known_tools(cls, value: list[str]) -> list[str]:
        unknown = [t for t in value if t not in TOOLS]
        if unknown:
            raise ValueError(f"unknown tools {unknown}; tools: {', '.join(TOOLS)}")
        return value


class ReactState(RunState, total=False):
    # Table 4.1, reused by the ReAct architecture
    messages: list[dict[str, Any]]  # {id, author, content}; replaced, not appended: deletion removes entries
    instruction: str
    # bookkeeping
    checked_turtle: str  # the last Turtle the agent gave a check tool
    closed_tools: list[str]  # tools the agent called twice with the same input


Ctx = Runtime[CieContext]


def add_message(messages: list[dict[str, Any]], author: str, content: str) -> list[dict[str, Any]]:
    next_id = max((m["id"] for m in messages), default=-1) + 1
    return [*messages, {"id": next_id, "author": author, "content": content}]


def open_routes(state: ReactState, tools: list[str]) -> list[str]:
    """Search before finishing (IRIs from memory are often wrong); act on a tool's answer instead
    of calling the same tool again, and never again call a tool that was given the same input twice
    (a small model repeats a call, or alternates two, until the step limit); prune only a long history."""
    searched = any(step["node"] == URI_TOOL for step in state.get("call_trace") or [])
    last = last_worker(state, (AGENT,))
    closed = set(state.get("closed_tools") or [])
    routes = [
        t for t in tools if t != last and t not in closed and (t != DELETE_TOOL or len(state.get("messages") or []) > 3)
    ]
    return routes + [FINISH] if searched or URI_TOOL not in tools else routes


def render_view(state: ReactState, limit: int, max_steps: int) -> str:
    lines: list[str] = []
    size = 0
    for m in reversed(state.get("messages") or []):
        line = f"[{m['id']}] {m['author']}: {m['content']}"
        if not lines and len(line) > limit:  # one tool answer alone can exceed the context window
            line = line[:limit] + f" …[cut at {limit} characters: ask for fewer terms at a time]"
        if size + len(line) > limit and lines:
            lines.append("[... older messages cut: delete or summarise what you no longer need]")
            break
        lines.append(line)
        size += len(line)
    parts = ["Messages (oldest first):\n" + ("\n\n".join(reversed(lines)) or "(none yet)")]
    if state.get("feedback"):
        parts.append(state["feedback"])
    parts.append(f"Step {state.get('steps', 0) + 1} of at most {max_steps}.")
    return "\n\n".join(parts)


async def react_agent(state: ReactState, runtime: Ctx) -> Command:
    ctx = runtime.context
    steps = state.get("steps", 0) + 1
    turn = await agent_turn(
        state,
        ctx,
        AGENT,
        ReactOutput,
        view=render_view(state, ctx.config.message_chars, ctx.config.max_steps),
        routes=open_routes(state, ctx.config.tools),
        max_tokens=ctx.config.extractor_max_tokens,
        tools="\n".join(TOOL_HELP[t] for t in ctx.config.tools),
    )
    if (other := detour(state, AGENT, turn)) is not None:
        return other
    out: ReactOutput = turn.output
    messages = add_message(state.get("messages") or [], AGENT, out.thought)
    update: dict[str, Any] = {
        "steps": steps,
        "feedback": "",
        "messages": messages,
        "call_trace": trace_step(state, AGENT, "agent", goto=out.goto, output=dump_output(out)),
    }
    if out.goto == FINISH:
        update.update(turtle=out.turtle, turtle_author=AGENT)
    else:
        update["tool_input"] = out.model_dump(include={"searches", "traverse", "turtle", "delete_ids", "summary"})
        if out.goto in (SEMANTIC_TOOL, LABEL_TOOL) and out.turtle.strip():
            update["checked_turtle"] = out.turtle  # the run's fallback if the step limit ends it
    return Command(goto=out.goto, update=update)


def _run_tool(name: str, kb, args: dict[str, Any], messages: list[dict[str, Any]], k: int):
    """(answer, new message list or None). Raises ModelOutputError for bad input."""
    if name == URI_TOOL:
        requests = [SearchRequest.model_validate(r) for r in args["searches"]]
        return render_results(uri_retrieval(kb, requests, k=k)), None
    if name == TRAVERSAL_TOOL:
        results = [network_traversal(kb, TraversalRequest.model_validate(r)) for r in args["traverse"]]
        return "\n\n".join(render_traversal(r) for r in results), None
    if name == SEMANTIC_TOOL:
        return render_checks(semantic_validation(kb, args["turtle"])), None
    if name == LABEL_TOOL:
        return render_report(turtle_to_label(kb, args["turtle"])), None
    kept, note = delete_messages(messages, args["delete_ids"], args.get("summary", ""))
    return note, kept


def make_tool(name: str):
    async def tool(state: ReactState, runtime: Ctx) -> Command:
        ctx = runtime.context
        args = state.get("tool_input") or {}
        messages = state.get("messages") or []
        given = json.dumps(args, ensure_ascii=False)[:2000]
        update: dict[str, Any] = {}
        error = None
        if any(step["node"] == name and step["input"] == given for step in state.get("call_trace") or []):
            answer = (
                f"You already called {name} with this input; its answer is above. {name} is now closed: "
                "use what you found, write the Turtle and check it or finish."
            )
            kept, update["closed_tools"] = None, [*(state.get("closed_tools") or []), name]
        else:
            try:
                answer, kept = _run_tool(name, ctx.kb, args, messages, ctx.config.candidates_per_term)
            except ModelOutputError as exc:
                answer, kept, error = f"ERROR: {exc}", None, str(exc)
        messages = add_message(kept if kept is not None else messages, name, answer)
        return Command(
            goto=AGENT,
            update={
                **update,
                "messages": messages,
                "call_trace": trace_step(
                    state, name, "tool", goto=AGENT, input=given, output=answer[:2000], error=error
                ),
            },
        )

    return tool


class ReactSystem(CieGraphSystem):
    name = NAME
    version = "cie.react.v1"
    prompts_package = "graphwright.papers.cie.react"
    prompt_names = (AGENT,)

    def build_graph(self):
        graph = StateGraph(ReactState, context_schema=CieContext)
        graph.add_node(AGENT, react_agent, destinations=(*TOOLS, FINISH, AGENT))
        for name in TOOLS:
            graph.add_node(name, make_tool(name), destinations=(AGENT,))
        graph.add_node(
            FINISH, make_finish(lambda state: state.get("checked_turtle") or ""), destinations=(AGENT, "__end__")
        )
        graph.add_edge(START, AGENT)
        return graph.compile()

    def initial_state(self, document) -> dict[str, Any]:
        task = "Extract every fact of the text as Wikidata triples in Turtle."
        return {
            **super().initial_state(document),
            "instruction": task,
            "messages": [{"id": 0, "author": "task", "content": task}],
        }
