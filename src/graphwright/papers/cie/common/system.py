"""Run an architecture's LangGraph graph on one document and turn its final state into an
ExtractionResult: triples with evidence and provenance, usage, the call trace."""

from __future__ import annotations

import time
from typing import Any

from langgraph.errors import GraphRecursionError

from graphwright.agents.prompts import PromptTemplate, load_prompt
from graphwright.errors import LLMError
from graphwright.kb.namespaces import WD, WDT
from graphwright.kb.protocol import KnowledgeBase
from graphwright.llm.base import LLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, ExtractionResult, Provenance, Term, TraceStep, Triple
from graphwright.papers.cie.common.turn import CieContext
from graphwright.papers.cie.evidence import evidence_span


def load_prompts(package: str, names: tuple[str, ...]) -> dict[str, PromptTemplate]:
    """Prompt templates by name: the architecture's own package first, then the shared specialists."""
    out = {}
    for name in names:
        try:
            out[name] = load_prompt(package, name)
        except (LookupError, FileNotFoundError):
            out[name] = load_prompt("graphwright.papers.cie.common", name)
    return out


class CieGraphSystem:
    """Subclasses set ``name``, ``version``, ``prompt_names``, ``prompts_package`` and ``build_graph``."""

    name: str
    version: str
    names_judged_after = False  # set by open-world linking, which judges every name after the run
    prompts_package: str
    prompt_names: tuple[str, ...]

    def __init__(self, llm: LLM, kb: KnowledgeBase, config):
        self.llm, self.kb, self.config = llm, kb, config
        self.prompts = load_prompts(self.prompts_package, self.prompt_names)
        self.graph = self.build_graph()
        self.prompt_version = "+".join(p.id for p in self.prompts.values())

    def build_graph(self):
        raise NotImplementedError

    def run_config(self):
        """The settings a run uses: the configured ones, unless linking after the run overrides some."""
        return self.config

    def initial_state(self, document: Document) -> dict[str, Any]:
        return {"text": document.text, "steps": 0, "call_trace": [], "warnings": []}

    def surfaces(self, state: dict[str, Any]) -> dict[str, str]:
        """Full IRI -> the words of the text it was mapped from (for evidence)."""
        return mapping_surfaces(state.get("uri_mapping") or [])

    def surfaces_of(self, state: dict[str, Any], triple: dict[str, Any], surfaces: dict[str, str]) -> dict[str, str]:
        """The words behind one final triple's IRIs: by default the run's, whatever line the IRI is on."""
        return surfaces

    def extra(self, state: dict[str, Any]) -> dict[str, Any]:
        """What the result keeps of the final state besides the triples."""
        return {
            "steps": state.get("steps", 0),
            "free_triples": state.get("triples") or [],
            "uri_mapping": state.get("uri_mapping") or [],
        }

    async def run(self, document: Document) -> ExtractionResult:
        meter = MeteredLLM(self.llm, budget=self.config.token_budget)
        context = CieContext(llm=meter, kb=self.kb, config=self.run_config(), prompts=self.prompts)
        started = time.perf_counter()
        try:
            state = await self.graph.ainvoke(
                self.initial_state(document), {"recursion_limit": self.config.recursion_limit}, context=context
            )
        except (LLMError, GraphRecursionError) as exc:
            usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
            return ExtractionResult.from_error(document.id, self.name, exc, usage=usage)
        usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
        trace = state.get("call_trace") or []
        if not any(step["kind"] == "agent" and not step.get("error") for step in trace):
            errors = [step["error"] for step in trace if step.get("error")]
            reason = "the model never gave a usable answer" + (f"; last error: {errors[-1]}" if errors else "")
            return ExtractionResult.failed(document.id, self.name, reason, usage=usage, trace=trace_steps(trace))
        surfaces = self.surfaces(state)
        return ExtractionResult(
            document_id=document.id,
            system=self.name,
            triples=[
                self.triple(document, t, self.surfaces_of(state, t, surfaces)) for t in state.get("final_triples") or []
            ],
            usage=usage,
            trace=trace_steps(trace),
            output=state.get("final_turtle") or "",
            warnings=list(state.get("warnings") or []),
            extra=self.extra(state),
        )

    def triple(self, document: Document, t: dict[str, Any], surfaces: dict[str, str]) -> Triple:
        terms = []
        for key in ("subject", "predicate", "object"):
            part = t[key]
            if part["is_iri"]:
                surface = surfaces.get(part["value"])
                if surface is None and part.get("label") and document.find(part["label"]) is not None:
                    surface = part["label"]  # the KB label occurs in the text
                terms.append(Term.iri(part["value"], surface=surface, label=part.get("label")))
            else:
                terms.append(Term.literal(part["value"], datatype=part.get("datatype"), surface=part["value"]))
        evidence = evidence_span(document, terms[0].surface, terms[2].surface)
        provenance = Provenance(
            evidence=evidence,
            system=self.version,
            agent=t.get("agent"),
            model=self.llm.name,
            prompt_version=self.prompt_version,
        )
        return Triple(subject=terms[0], predicate=terms[1], object=terms[2], provenance=provenance)


def trace_steps(trace: list[dict[str, Any]]) -> list[TraceStep]:
    return [TraceStep(**{k: v for k, v in step.items() if k in TraceStep.model_fields}) for step in trace]


def mapping_surfaces(mapping: list[dict[str, Any]]) -> dict[str, str]:
    """uri_mapping entries (surface, ``wd:Q..``/``wdt:P..``) -> {full IRI: surface}. When two surface
    forms map to one IRI the first keeps it: the later one is usually the wrong mapping (a place mapped
    onto the person born there), and open-world linking judges a link by its surface."""
    out: dict[str, str] = {}
    for m in mapping:
        if not m.get("iri"):
            continue
        prefix, _, ident = m["iri"].partition(":")
        out.setdefault((WDT if prefix == "wdt" else WD) + ident, m["surface"])
    return out
