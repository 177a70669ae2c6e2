"""What each agent of the lean network reads (``lean=true``): only what its answer depends on.

The shared system message holds the team and the document (prompts/lean_team), so llama.cpp's prompt
cache evaluates the document once per document; these views are the per-turn part after it. Each
check of the validation agent is one numbered line that joins the free-form triple, the IRIs with
their KB labels and the semantic verdict, so the agent answers with line numbers.
"""

from __future__ import annotations

from typing import Any

from graphwright.kb.namespaces import local_id
from graphwright.papers.cie.common.outputs import render_triples
from graphwright.papers.cie.common.uri import surface_roles
from graphwright.papers.cie.network.outputs import CHECK_TOOLS, LABEL_TOOL, SEMANTIC_TOOL, URI_TOOL
from graphwright.papers.cie.network.state import NetworkState
from graphwright.tools.semantic_validation import check_triple
from graphwright.tools.turtle import parse_turtle
from graphwright.tools.turtle_to_label import label_triples

TOOLS = (URI_TOOL, LABEL_TOOL, SEMANTIC_TOOL, CHECK_TOOLS)
DESCRIPTION_CHARS = 50  # enough to tell the city from the football club, at a third of the tokens


def check_lines(kb, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Both check tools on each draft line: KB labels and the semantic verdict with its reasons."""
    checked = []
    for entry in lines:
        parsed = parse_turtle(entry["line"])[0]
        report = label_triples(kb, [parsed])
        labelled = report.triples[0]
        labels = [x.label or local_id(x.value) for x in (labelled.subject, labelled.predicate, labelled.object)]
        check = check_triple(kb, parsed)
        reasons = [r for r in check.reasons if "no type constraints" not in r] + report.problems
        checked.append(
            {**entry, "labels": labels, "verdict": "invalid" if report.problems else check.verdict, "reasons": reasons}
        )
    return checked


def render_lines(checked: list[dict[str, Any]]) -> str:
    out = []
    for n, c in enumerate(checked, 1):
        verdict = c["verdict"] + (": " + "; ".join(c["reasons"]) if c["verdict"] == "invalid" and c["reasons"] else "")
        out.append(f"{n}. ({'; '.join(c['free'])}) -> ({'; '.join(c['labels'])}) [{verdict}]")
    return "\n".join(out)


def extractor_view(state: NetworkState) -> str:
    parts = []
    if state.get("triples"):
        parts.append("Your last triples:\n" + render_triples(state["triples"]))
    parts.append(_message(state) or "List the facts of the text.")
    return "\n\n".join(parts)


def mapping_view(state: NetworkState) -> str:
    triples = state.get("triples") or []
    candidates = state.get("candidates") or {}
    terms = []
    for key, (surface, kind) in surface_roles(triples).items():
        options = candidates.get(key, {}).get("options", [])
        # a property's label says what it means; an entity's needs its description (which Hamburg?)
        found = (
            "; ".join(
                f"{o['iri']} {o['label'] or '?'}"
                + (f" ({_clip(o['description'])})" if o.get("description") and kind == "entity" else "")
                for o in options
            )
            or "no match"
        )
        terms.append(f'"{surface}" ({kind}): {found}')
    parts = ["Triples:\n" + render_triples(triples), "Search results per term:\n" + "\n".join(terms)]
    message = _message(state)
    if message:
        parts.append(message)
    return "\n\n".join(parts)


def validation_view(state: NetworkState) -> str:
    parts = ["Lines (text triple -> KB labels [check]):\n" + render_lines(state.get("checks") or [])]
    message = _message(state)
    if message:
        parts.append(message)
    return "\n\n".join(parts)


def _message(state: NetworkState) -> str:
    """What the last step said to this agent: another agent's instruction, or an error to fix.
    Tool answers are left out: their results are in the state this view renders."""
    last, response = state.get("last_call"), (state.get("last_response") or "").strip()
    if not response or (last in TOOLS and not response.startswith("ERROR")):
        return ""
    return response[:1500] if response.startswith("ERROR") else f"Message from {last}: {response[:1500]}"


def _clip(text: str) -> str:
    return text if len(text) <= DESCRIPTION_CHARS else text[: DESCRIPTION_CHARS - 1].rstrip() + "…"
