"""Final check of a run: parse the Turtle and keep only triples whose IRIs
the KB knows, in the right namespaces.

The URI agent's hand-over comes with a draft Turtle assembled from the
free-form triples and the uri_mapping; when the step limit forces the end
before any Turtle exists, the same assembly is used and marked ``fallback``.
"""

from __future__ import annotations

from collections.abc import Callable

from graphwright.papers.cie.common.finish import FinishOutcome, check_turtle
from graphwright.papers.cie.network.outputs import CHECK_TOOLS, VALIDATION
from graphwright.papers.cie.network.state import NetworkState


def finish_run(kb, state: NetworkState, fallback: Callable[[NetworkState], str]) -> FinishOutcome:
    """``fallback(state)``: the draft Turtle assembled from the free-form triples and the mapping."""
    turtle = (state.get("turtle") or "").strip()
    author = state.get("turtle_author", "draft")
    # a draft the validation agent never got to approve is a fallback, as is one assembled here
    unapproved = state.get("forced") and author == "draft"
    agent = "fallback" if unapproved else CHECK_TOOLS if author == CHECK_TOOLS else VALIDATION
    if not turtle and state.get("forced"):
        turtle, agent = fallback(state), "fallback"
    outcome = check_turtle(kb, turtle, agent)
    if outcome.parse_error and state.get("forced"):
        outcome = check_turtle(kb, fallback(state), "fallback")
    return outcome
