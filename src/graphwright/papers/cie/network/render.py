"""The state as the agents read it: every field, compact."""

from __future__ import annotations

from graphwright.papers.cie.common.outputs import render_triples
from graphwright.papers.cie.network.outputs import URI_MAPPING, URI_TOOL
from graphwright.papers.cie.network.state import NetworkState


def render_state(state: NetworkState, trace_chars: int, agent: str | None = None) -> str:
    parts = []
    triples = state.get("triples") or []
    parts.append("Triples:\n" + (render_triples(triples) if triples else "(none yet)"))
    mapping = state.get("uri_mapping") or []
    if mapping:
        lines = [f"{m['surface']} -> {m['iri']}" + (f" ({m['label']})" if m.get("label") else "") for m in mapping]
        parts.append("uri_mapping:\n" + "\n".join(lines))
    else:
        parts.append("uri_mapping: (none yet)")
    candidates = state.get("candidates") or {}
    if agent == URI_MAPPING and candidates and state.get("last_call") != URI_TOOL:
        # the tool's answer is no longer the last response: keep its candidates in view
        lines = [
            f'"{c["term"]}": ' + ", ".join(f"{o['iri']} {o['label'] or '?'}" for o in c["options"])
            for c in candidates.values()
        ]
        parts.append("Candidates found so far:\n" + "\n".join(lines))
    if state.get("turtle"):
        parts.append("Current Turtle:\n" + state["turtle"])
    trace = state.get("call_trace") or []
    if trace:
        parts.append(
            "call_trace (oldest first):\n" + "\n".join(f"- {c['node']} -> {c.get('goto') or ''}" for c in trace[-12:])
        )
    if state.get("last_call"):
        response = state.get("last_response") or ""
        if len(response) > 6000:
            response = response[:6000] + "\n[... cut]"
        parts.append(f"last_call: {state['last_call']}\nlast_response:\n{response}")
    if state.get("agent_instruction"):
        parts.append("agent_instruction: " + state["agent_instruction"][:trace_chars])
    parts.append(f"Step {state.get('steps', 0) + 1}.")
    return "\n\n".join(parts)
