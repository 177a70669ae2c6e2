"""Which routes are open to an agent in this turn.

The network lets every agent route anywhere; small models then repeat a
tool call instead of using its answer. With ``strict_routing`` the turn
after a tool answer must act on it (the same tool is closed for that turn),
the validation tools run once per hand-over, the first URI turn must
search before it can map, the validation agent checks a hand-over with a
tool before it judges it, and it sends work back to another agent only when
a check found a problem, at most ``max_repairs`` times (it can still edit
the Turtle itself). With ``lean`` the URI agent, too, sends work back to
the extractor at most ``max_repairs`` times. Everything else stays open, so
the agents still control the flow.
"""

from __future__ import annotations

from graphwright.papers.cie.network.outputs import (
    CHECK_TOOLS,
    EXTRACTOR,
    FINISH,
    LABEL_TOOL,
    SEMANTIC_TOOL,
    URI_MAPPING,
    URI_TOOL,
    VALIDATION,
)
from graphwright.papers.cie.network.state import NetworkState

ALL = {
    EXTRACTOR: [URI_MAPPING, VALIDATION],
    URI_MAPPING: [URI_TOOL, VALIDATION, EXTRACTOR],
    VALIDATION: [LABEL_TOOL, SEMANTIC_TOOL, FINISH, EXTRACTOR, URI_MAPPING],
}


def open_routes(agent: str, state: NetworkState, strict: bool, max_repairs: int = 1, lean: bool = False) -> list[str]:
    routes = list(ALL[agent])
    if not strict:
        return routes
    trace = state.get("call_trace") or []
    if lean and agent == URI_MAPPING and _sent_back(trace, URI_MAPPING) >= max_repairs:
        routes.remove(EXTRACTOR)  # small models send fresh triples straight back, until the step limit
    last = state.get("last_call")
    if last in (URI_TOOL, LABEL_TOOL, SEMANTIC_TOOL) and last in routes:
        routes.remove(last)
    if agent == URI_MAPPING and not any(step["node"] == URI_TOOL for step in trace):
        return [URI_TOOL, EXTRACTOR]
    if agent != VALIDATION:
        return routes
    checks = []  # check tools run since the last hand-over: each runs once, then act on what it said
    for step in reversed(trace):
        if step["node"] in (EXTRACTOR, URI_MAPPING):
            break
        if step["node"] in (LABEL_TOOL, SEMANTIC_TOOL):
            checks.append(step["node"])
        elif step["node"] == CHECK_TOOLS:  # lean: both at once
            checks += [LABEL_TOOL, SEMANTIC_TOOL]
    routes = [r for r in routes if r not in checks]
    has_turtle = bool((state.get("turtle") or "").strip())
    if has_turtle and not checks:
        return [LABEL_TOOL, SEMANTIC_TOOL]
    repairs = _sent_back(trace, VALIDATION)
    if repairs >= max_repairs or (has_turtle and not state.get("check_problems")):
        routes = [r for r in routes if r not in (EXTRACTOR, URI_MAPPING)]
    if not has_turtle and state.get("uri_mapping"):
        routes = [r for r in routes if r != FINISH] or [EXTRACTOR, URI_MAPPING]  # write the Turtle before finishing
    return routes


def _sent_back(trace: list[dict], agent: str) -> int:
    """Times ``agent`` sent work back to the extractor or the URI agent."""
    return sum(1 for step in trace if step["node"] == agent and step.get("goto") in (EXTRACTOR, URI_MAPPING))
