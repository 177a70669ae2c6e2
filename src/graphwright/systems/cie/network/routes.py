"""Which routes are open to an agent in this turn.

The network lets every agent route anywhere; small models then repeat a
tool call instead of using its answer. With ``strict_routing`` the turn
after a tool answer must act on it (the same tool is closed for that turn),
the validation tools run once per hand-over, and the first URI turn must
search before it can map. Everything else stays
open, so the agents still control the flow.
"""

from __future__ import annotations

from graphwright.systems.cie.network.outputs import (
    EXTRACTOR, FINISH, LABEL_TOOL, SEMANTIC_TOOL, URI_MAPPING, URI_TOOL, VALIDATION,
    ExtractorOutput, UriMappingOutput, ValidationOutput,
)
from graphwright.systems.cie.network.state import NetworkState

OUTPUT_OF = {EXTRACTOR: ExtractorOutput, URI_MAPPING: UriMappingOutput, VALIDATION: ValidationOutput}
ALL = {
    EXTRACTOR: [URI_MAPPING, VALIDATION],
    URI_MAPPING: [URI_TOOL, VALIDATION, EXTRACTOR],
    VALIDATION: [LABEL_TOOL, SEMANTIC_TOOL, FINISH, EXTRACTOR, URI_MAPPING],
}


def open_routes(agent: str, state: NetworkState, strict: bool) -> list[str]:
    routes = list(ALL[agent])
    if not strict:
        return routes
    last = state.get("last_call")
    if last in (URI_TOOL, LABEL_TOOL, SEMANTIC_TOOL) and last in routes:
        routes.remove(last)
    if agent == VALIDATION:  # each check runs once per hand-over: then act on what it said
        for step in reversed(state.get("call_trace") or []):
            if step["node"] in (EXTRACTOR, URI_MAPPING):
                break
            if step["node"] in routes and step["node"] in (LABEL_TOOL, SEMANTIC_TOOL):
                routes.remove(step["node"])
    searched = any(step["node"] == URI_TOOL for step in state.get("call_trace") or [])
    if agent == URI_MAPPING and not searched:
        routes = [URI_TOOL, EXTRACTOR]
    if agent == VALIDATION and not (state.get("turtle") or "").strip() and state.get("uri_mapping"):
        routes = [r for r in routes if r != FINISH]  # write the Turtle before finishing
    return routes
