"""Final check of a run: parse the Turtle and keep only triples whose IRIs
the KB knows, in the right namespaces.

The URI agent's hand-over comes with a draft Turtle assembled from the
free-form triples and the uri_mapping; when the step limit forces the end
before any Turtle exists, the same assembly is used and marked ``fallback``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphwright.errors import ModelOutputError
from graphwright.kb.namespaces import TURTLE_PREFIXES
from graphwright.systems.cie.network.state import NetworkState
from graphwright.tools.turtle import parse_turtle
from graphwright.tools.turtle_to_label import label_triples


@dataclass
class FinishOutcome:
    turtle: str
    triples: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def draft_turtle(triples: list[dict[str, str]], mapping: list[dict[str, Any]]) -> str:
    """Turtle from free-form triples whose three parts all have a mapped IRI."""
    iri_of = {m["surface"].casefold(): m["iri"] for m in mapping}
    lines = []
    for t in triples:
        s, p, o = (iri_of.get(t[k].casefold()) for k in ("subject", "predicate", "object"))
        if s and p and o and s.startswith("wd:") and p.startswith("wdt:") and o.startswith("wd:"):
            lines.append(f"{s} {p} {o} .")
    return "\n".join(dict.fromkeys(lines))


def fallback_turtle(state: NetworkState) -> str:
    return draft_turtle(state.get("triples") or [], state.get("uri_mapping") or [])


def finish_run(kb, state: NetworkState) -> FinishOutcome:
    turtle = (state.get("turtle") or "").strip()
    # a draft the validation agent never got to approve is a fallback, as is one assembled here
    unapproved = state.get("forced") and state.get("turtle_author", "draft") == "draft"
    agent = "fallback" if unapproved else "validation_and_output"
    if not turtle and state.get("forced"):
        turtle, agent = fallback_turtle(state), "fallback"
    if not turtle:
        return FinishOutcome(turtle="")
    try:
        parsed = parse_turtle(turtle)
    except ModelOutputError as exc:
        if not state.get("forced"):
            return FinishOutcome(turtle=turtle, problems=[str(exc)])
        turtle, agent = fallback_turtle(state), "fallback"
        parsed = parse_turtle(turtle) if turtle else []
    outcome = FinishOutcome(turtle=TURTLE_PREFIXES + turtle)
    for triple in parsed:
        report = label_triples(kb, [triple])
        if report.problems:
            outcome.problems.extend(report.problems)
            continue
        t = report.triples[0]
        outcome.triples.append({"subject": t.subject.model_dump(), "predicate": t.predicate.model_dump(),
                                "object": t.object.model_dump(), "agent": agent})
    return outcome
