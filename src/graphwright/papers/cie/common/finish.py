"""The last step of every architecture: parse the final Turtle and keep only the triples
whose IRIs the KB knows, in the right namespaces (CIExMAS section 4.4).

A rejected Turtle goes back once to the agent that wrote it, with the problems; after that,
or when the step limit forced the end, the good triples are kept and the rest dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from langgraph.graph import END
from langgraph.types import Command

from graphwright.errors import ModelOutputError
from graphwright.kb.namespaces import TURTLE_PREFIXES
from graphwright.papers.cie.common.draft import draft_turtle
from graphwright.papers.cie.common.turn import trace_step
from graphwright.tools.turtle import salvage_turtle
from graphwright.tools.turtle_to_label import label_triples

FINISH = "finish"


@dataclass
class FinishOutcome:
    turtle: str
    triples: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    parse_error: str | None = None


def check_turtle(kb, turtle: str, agent: str) -> FinishOutcome:
    """Triples of ``turtle`` that pass the label check, each tagged with the ``agent`` that wrote it.

    Statements the parser rejects are left out and named in ``problems``; ``parse_error`` is set only
    when no statement parses."""
    turtle = turtle.strip()
    if not turtle:
        return FinishOutcome(turtle="")
    try:
        parsed, bad_statements = salvage_turtle(turtle)
    except ModelOutputError as exc:
        return FinishOutcome(turtle=turtle, problems=[str(exc)], parse_error=str(exc))
    outcome = FinishOutcome(turtle=TURTLE_PREFIXES + turtle, problems=bad_statements)
    for triple in parsed:
        report = label_triples(kb, [triple])
        if report.problems:
            outcome.problems.extend(report.problems)
            continue
        t = report.triples[0]
        outcome.triples.append(
            {
                "subject": t.subject.model_dump(),
                "predicate": t.predicate.model_dump(),
                "object": t.object.model_dump(),
                "agent": agent,
            }
        )
    return outcome


def mapping_fallback(state: Mapping[str, Any]) -> str:
    """The fallback Turtle of architectures that keep free-form triples and a uri_mapping."""
    return draft_turtle(state.get("triples") or [], state.get("uri_mapping") or [])


def make_finish(fallback: Callable[[Mapping[str, Any]], str] | None = None):
    """A ``finish`` node. State fields: ``turtle`` and ``turtle_author`` (who wrote it), ``forced``
    (the step limit or budget ended the run), ``finish_attempts``. ``fallback(state)`` assembles a
    Turtle from the structured state when the run ends without a usable one from an agent."""

    async def finish(state: Mapping[str, Any], runtime) -> Command:
        kb, config = runtime.context.kb, runtime.context.config
        author = state.get("turtle_author") or ""
        outcome = check_turtle(kb, state.get("turtle") or "", author or "fallback")
        forced = bool(state.get("forced"))
        if fallback and (forced or not author) and (outcome.parse_error or not outcome.triples):
            outcome = check_turtle(kb, fallback(state), "fallback")
        retries_left = state.get("finish_attempts", 0) < config.finish_retries
        if outcome.problems and author and not forced and retries_left:
            error = (
                "ERROR: the final Turtle was rejected:\n- "
                + "\n- ".join(outcome.problems)
                + "\nFix these triples or leave them out, then finish again."
            )
            return Command(
                goto=author,
                update={
                    "finish_attempts": state.get("finish_attempts", 0) + 1,
                    "feedback": error,
                    "call_trace": trace_step(state, FINISH, "system", goto=author, error=error),
                },
            )
        return Command(
            goto=END,
            update={
                "final_triples": outcome.triples,
                "final_turtle": outcome.turtle,
                "warnings": outcome.problems,
                "call_trace": trace_step(state, FINISH, "system", output=outcome.turtle[:2000]),
            },
        )

    return finish
