"""Compact mode of URI retrieval (CIExMAS section 4.2.1): an LLM judges the candidates.

Supervisor architectures (baseline, SSA, SSSA) pass the tool's answer through their whole
state; the full candidate lists would fill the context. The judge keeps, per search term, only
the chosen IRI and a short reason. Its JSON Schema allows only that term's candidates or
"none", so a small model cannot invent an IRI here. Terms are judged a few at a time.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel, RootModel

from graphwright.agents.call import ask_for
from graphwright.agents.prompts import load_prompt
from graphwright.errors import ModelOutputError
from graphwright.kb.namespaces import short_iri
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM
from graphwright.tools.uri_retrieval import SearchResult, render_results

NO_MATCH = "none"
JUDGE_BATCH = 6  # terms per judging call: candidate lists of a long text overflow a 4,096-token context
TOKENS_PER_TERM = 60  # the answer budget per term: an IRI and a few words of reason


class Choice(BaseModel):
    iri: str
    reason: str = ""


class Choices(RootModel[dict[str, Choice]]):
    pass


class UriChoice(BaseModel):
    term: str
    kind: str
    iri: str | None  # None: no candidate fits
    label: str | None = None
    reason: str = ""


@functools.cache
def _judge_prompt():
    return load_prompt("graphwright.tools", "uri_summary")


def choice_schema(results: list[SearchResult]) -> dict[str, Any]:
    props = {}
    for res in results:
        options = [short_iri(c.id) for c in res.candidates]
        props[res.request.term] = {
            "type": "object",
            "required": ["iri", "reason"],
            "additionalProperties": False,
            "properties": {"iri": {"enum": [*options, NO_MATCH]}, "reason": {"type": "string"}},
        }
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


async def summarize_results(
    llm: LLM, results: list[SearchResult], text: str, *, batch: int = JUDGE_BATCH
) -> list[UriChoice]:
    """The best candidate (or none) per search term, with a reason: one call per ``batch`` terms,
    so that a long text with many terms still fits a small context window."""
    out = {
        r.request.term: UriChoice(term=r.request.term, kind=r.request.kind, iri=None, reason="no candidates found")
        for r in results
    }
    searched = [r for r in results if r.candidates]
    prompt = _judge_prompt()
    for start in range(0, len(searched), batch):
        part = searched[start : start + batch]
        system, user = prompt.render(
            text=text,
            results=render_results(part),
            format='Answer with one JSON object: {"<term>": {"iri": "<candidate or none>", '
            '"reason": "<few words>"}, ...} with every term.',
        )
        try:  # a cut-off answer keeps the terms it completed
            with for_agent("uri_judge"):
                reply = await ask_for(
                    llm,
                    [{"role": "system", "content": system}, {"role": "user", "content": user}],
                    Choices,
                    schema=choice_schema(part),
                    max_tokens=TOKENS_PER_TERM * len(part) + 40,
                    salvage_cut_off=True,
                )
        except ModelOutputError as exc:
            for r in part:
                out[r.request.term].reason = f"the judge gave no usable answer ({str(exc)[:80]})"
            continue
        for r in part:
            choice = reply.parsed.root.get(r.request.term)
            if choice is None:
                continue
            offered = {short_iri(c.id): c.label for c in r.candidates}  # only this term's candidates count
            iri = choice.iri if choice.iri in offered else None
            out[r.request.term] = UriChoice(
                term=r.request.term,
                kind=r.request.kind,
                iri=iri,
                label=offered.get(iri) if iri else None,
                reason=choice.reason,
            )
    return list(out.values())


def render_choices(choices: list[UriChoice]) -> str:
    lines = []
    for c in choices:
        target = f"{c.iri} ({c.label})" if c.iri else "no fitting candidate"
        lines.append(f'"{c.term}" ({c.kind}) -> {target}' + (f": {c.reason}" if c.reason else ""))
    return "\n".join(lines)
