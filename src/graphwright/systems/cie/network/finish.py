"""Final check of a run: parse the Turtle and keep only triples whose IRIs
the KB knows, in the right namespaces.

The URI agent's hand-over comes with a draft Turtle assembled from the
free-form triples and the uri_mapping; when the step limit forces the end
before any Turtle exists, the same assembly is used and marked ``fallback``.
"""

from __future__ import annotations

from graphwright.systems.cie.common.finish import FinishOutcome, check_turtle, mapping_fallback
from graphwright.systems.cie.network.state import NetworkState


def finish_run(kb, state: NetworkState) -> FinishOutcome:
    turtle = (state.get("turtle") or "").strip()
    # a draft the validation agent never got to approve is a fallback, as is one assembled here
    unapproved = state.get("forced") and state.get("turtle_author", "draft") == "draft"
    agent = "fallback" if unapproved else "validation_and_output"
    if not turtle and state.get("forced"):
        turtle, agent = mapping_fallback(state), "fallback"
    outcome = check_turtle(kb, turtle, agent)
    if outcome.parse_error and state.get("forced"):
        outcome = check_turtle(kb, mapping_fallback(state), "fallback")
    return outcome
