"""``cie.network``: run the graph on one document and turn its state into an ExtractionResult."""

from __future__ import annotations

import time
from typing import Any

from langgraph.errors import GraphRecursionError

from graphwright.errors import LLMError
from graphwright.llm.base import LLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, ExtractionResult, Provenance, Term, TraceStep, Triple
from graphwright.systems.cie.evidence import evidence_span
from graphwright.systems.cie.network.config import NetworkConfig
from graphwright.systems.cie.network.context import NetworkContext, load_prompts
from graphwright.systems.cie.network.graph import build_graph

NAME = "cie.network"
VERSION = "cie.network.v1"


class NetworkSystem:
    name = NAME

    def __init__(self, llm: LLM, kb: Any, config: NetworkConfig):
        self.llm, self.kb, self.config = llm, kb, config
        self.prompts = load_prompts()
        self.graph = build_graph()
        self.prompt_version = "+".join(p.id for p in self.prompts.values())

    async def run(self, document: Document) -> ExtractionResult:
        meter = MeteredLLM(self.llm, budget=self.config.token_budget)
        context = NetworkContext(llm=meter, kb=self.kb, config=self.config, prompts=self.prompts)
        started = time.perf_counter()
        try:
            state = await self.graph.ainvoke(
                {"text": document.text, "steps": 0, "call_trace": [], "warnings": []},
                {"recursion_limit": self.config.recursion_limit},
                context=context,
            )
        except (LLMError, GraphRecursionError) as exc:
            usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
            return ExtractionResult.failed(document.id, NAME, f"{type(exc).__name__}: {exc}", usage=usage)
        usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
        trace = state.get("call_trace") or []
        if not any(step["kind"] == "agent" and not step.get("error") for step in trace):
            errors = [step["error"] for step in trace if step.get("error")]
            reason = "the model never gave a usable answer" + (f"; last error: {errors[-1]}" if errors else "")
            return ExtractionResult.failed(document.id, NAME, reason, usage=usage, trace=_steps(trace))
        return ExtractionResult(
            document_id=document.id,
            system=NAME,
            triples=[self._triple(document, t, state) for t in state.get("final_triples") or []],
            usage=usage,
            trace=_steps(trace),
            output=(state.get("messages") or [""])[-1],
            warnings=list(state.get("warnings") or []),
            extra={"steps": state.get("steps", 0), "free_triples": state.get("triples") or [],
                   "uri_mapping": state.get("uri_mapping") or []},
        )

    def _triple(self, document: Document, t: dict[str, Any], state: dict[str, Any]) -> Triple:
        surface = _surfaces(state)
        terms = []
        for key in ("subject", "predicate", "object"):
            part = t[key]
            if part["is_iri"]:
                terms.append(Term.iri(part["value"], surface=surface.get(part["value"]), label=part.get("label")))
            else:
                terms.append(Term.literal(part["value"], datatype=part.get("datatype"), surface=part["value"]))
        evidence = evidence_span(document, terms[0].surface, terms[2].surface)
        provenance = Provenance(evidence=evidence, system=VERSION, agent=t.get("agent"), model=self.llm.name,
                                prompt_version=self.prompt_version)
        return Triple(subject=terms[0], predicate=terms[1], object=terms[2], provenance=provenance)


def _steps(trace: list[dict[str, Any]]) -> list[TraceStep]:
    return [TraceStep(**{k: v for k, v in step.items() if k in TraceStep.model_fields}) for step in trace]


def _surfaces(state: dict[str, Any]) -> dict[str, str]:
    """Full IRI -> the surface form the URI agent mapped to it."""
    from graphwright.kb.namespaces import WD, WDT

    out = {}
    for m in state.get("uri_mapping") or []:
        prefix, _, ident = m["iri"].partition(":")
        out[(WDT if prefix == "wdt" else WD) + ident] = m["surface"]
    return out
