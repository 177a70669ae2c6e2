"""``cie.single``: the same-model baseline. Candidate IRIs are retrieved without an LLM, then one
LLM call picks triples among them (schema enums), with malformed answers fed back.

Literals (dates, quantities, names as text) are out of scope: subjects and objects are entity
candidates and only item-valued properties are offered.
"""

from __future__ import annotations

import time
from typing import Any, cast

from graphwright.agents.call import ask_for
from graphwright.agents.prompts import load_prompt
from graphwright.errors import GraphwrightError, LLMError, ModelOutputError
from graphwright.kb.protocol import KnowledgeBase
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, ExtractionResult, Provenance, Term, TraceStep, Triple
from graphwright.papers.cie.evidence import evidence_span
from graphwright.papers.cie.single.candidates import Candidate, Candidates, retrieve_candidates
from graphwright.papers.cie.single.config import SingleConfig
from graphwright.papers.cie.single.outputs import SingleAnswer, answer_model

NAME = "cie.single"
VERSION = "cie.single.v1"
AGENT = "single"
RETRIEVAL = "candidate_retrieval"
PROMPTS_PACKAGE = "graphwright.papers.cie.single"
TRACE_CHARS = 2000  # as cie.network: traces stay readable and results.jsonl small


class SingleSystem:
    name = NAME

    def __init__(self, llm: LLM, kb: KnowledgeBase, config: SingleConfig):
        self.llm, self.kb, self.config = llm, kb, config
        self.prompt = load_prompt(PROMPTS_PACKAGE, "single")
        self.prompt_version = self.prompt.id

    def candidates(self, text: str) -> Candidates:
        c = self.config
        return retrieve_candidates(
            self.kb,
            text,
            max_entities=c.max_entities,
            max_properties=c.max_properties,
            per_mention=c.candidates_per_mention,
            per_sentence=c.properties_per_sentence,
            max_ngram=c.max_ngram,
            always=c.always_properties,
        )

    async def run(self, document: Document) -> ExtractionResult:
        started = time.perf_counter()
        meter = MeteredLLM(self.llm, budget=self.config.token_budget)

        def usage():
            return meter.usage.model_copy(update={"seconds": time.perf_counter() - started})

        try:
            found = self.candidates(document.text)
        except GraphwrightError as exc:  # e.g. live Wikidata unreachable: this document fails, the batch goes on
            return ExtractionResult.from_error(
                document.id, NAME, exc, prefix="candidate retrieval failed: ", usage=usage()
            )
        ask = bool(found.entities and found.properties)  # a triple needs both
        trace = [
            TraceStep(
                step=1,
                node=RETRIEVAL,
                kind="tool",
                goto=AGENT if ask else None,
                output=_clip(f"entities:\n{found.render('entity')}\nproperties:\n{found.render('property')}"),
            )
        ]
        extra: dict[str, Any] = {
            "candidates": {
                "entities": [c.short for c in found.entities],
                "properties": [c.short for c in found.properties],
            },
            "retrieval_seconds": round(time.perf_counter() - started, 3),
        }
        if not ask:
            missing = " and ".join(k for k, v in (("entity", found.entities), ("property", found.properties)) if not v)
            return ExtractionResult(
                document_id=document.id,
                system=NAME,
                usage=usage(),
                trace=trace,
                extra=extra,
                warnings=[f"no {missing} candidates were found in the text; the model was not asked"],
            )

        output_type = answer_model([c.short for c in found.entities], [c.short for c in found.properties])
        system, user = self.prompt.render(
            text=document.text, entities=found.render("entity"), properties=found.render("property")
        )
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        cap = self.config.completion_cap(document.text)
        try:
            with for_agent(AGENT):
                reply = await ask_for(
                    meter,
                    messages,
                    output_type,
                    max_retries=self.config.max_retries,
                    max_tokens=cap,
                    salvage_cut_off=True,
                )
        except ModelOutputError as exc:
            errors = getattr(exc, "errors", None) or [str(exc)]
            trace += _rejected(errors, start=2)
            reason = f"the model never gave a usable answer in {len(errors)} attempt(s); last error: {errors[-1]}"
            return ExtractionResult.failed(document.id, NAME, reason, usage=usage(), trace=trace, extra=extra)
        except LLMError as exc:  # backend down, budget spent: recorded, never raised
            trace.append(TraceStep(step=len(trace) + 1, node=AGENT, kind="agent", error=f"{type(exc).__name__}: {exc}"))
            return ExtractionResult.from_error(document.id, NAME, exc, usage=usage(), trace=trace, extra=extra)
        answer = cast(SingleAnswer, reply.parsed)  # output_type is built per document: the protocol names its fields
        trace += _rejected(reply.errors, start=2)
        trace.append(TraceStep(step=len(trace) + 1, node=AGENT, kind="agent", output=_clip(reply.text)))

        warnings = (
            [f"the answer was cut off at {cap} tokens; its {len(answer.triples)} complete triples were kept"]
            if reply.salvaged
            else []
        )
        by_short = {c.short: c for c in [*found.entities, *found.properties]}
        keys = list(dict.fromkeys((t.subject, t.predicate, t.object) for t in answer.triples))  # a fact once
        return ExtractionResult(
            document_id=document.id,
            system=NAME,
            usage=usage(),
            trace=trace,
            triples=[self._triple(document, *(by_short[part] for part in key)) for key in keys],
            output="\n".join(f"{s} {p} {o} ." for s, p, o in keys),
            warnings=warnings,
            extra={**extra, "attempts": reply.attempts},
        )

    def _triple(self, document: Document, subject: Candidate, predicate: Candidate, obj: Candidate) -> Triple:
        terms = [Term.iri(c.iri, surface=c.surface, label=c.label or None) for c in (subject, predicate, obj)]
        provenance = Provenance(
            evidence=evidence_span(document, subject.surface, obj.surface),
            system=VERSION,
            agent=AGENT,
            model=self.llm.name,
            prompt_version=self.prompt_version,
        )
        return Triple(subject=terms[0], predicate=terms[1], object=terms[2], provenance=provenance)


def _rejected(errors: list[str], start: int) -> list[TraceStep]:
    """One agent step per answer that could not be used, with the error fed back to the model."""
    return [TraceStep(step=start + i, node=AGENT, kind="agent", error=_clip(e)) for i, e in enumerate(errors)]


def _clip(text: str) -> str:
    return text[:TRACE_CHARS]
