"""One call per passage: the model lists [subject, relation, object] triples, and only what the passage
holds is kept. An argument must be copied from the text (a 1.5B model also writes facts it remembers),
subject and object must differ, and a "relation" of a whole sentence, or of a preposition alone, is dropped."""

from __future__ import annotations

import time

from pydantic import BaseModel, Field

from graphwright.agents.call import ask_for
from graphwright.agents.prompts import load_prompt
from graphwright.errors import LLMError, ModelOutputError
from graphwright.linking.literals import name_or_value, name_term
from graphwright.llm.base import LLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, Entity, ExtractionResult, Mention, Provenance, Span, Term, TraceStep, Triple
from graphwright.model.schema import minted_relation_iri
from graphwright.systems.open_triples import names_no_relation, place, trim
from graphwright.systems.openie.config import OpenIEConfig

PROMPT = load_prompt("graphwright.systems.openie", "extract")
NEAR_CHARS = 400  # two sentences this close together are one piece of evidence
SCHEMA_NAME = "openie"  # the relation IRIs: https://graphwright.dev/schema/openie/<phrase>


class OpenIEAnswer(BaseModel):
    triples: list[tuple[str, str, str]] = Field(default_factory=list, description="[subject, relation, object] triples")


class OpenIESystem:
    def __init__(self, llm: LLM, config: OpenIEConfig, name: str = "openie"):
        self.name, self.llm, self.config = name, llm, config

    async def run(self, document: Document) -> ExtractionResult:
        started = time.perf_counter()
        meter = MeteredLLM(self.llm, budget=self.config.token_budget)
        result = ExtractionResult(document_id=document.id, system=self.name)
        system, user = PROMPT.render(max_triples=self.config.max_triples, text=document.text)
        try:
            reply = await ask_for(
                meter,
                [{"role": "system", "content": system}, {"role": "user", "content": user}],
                OpenIEAnswer,
                max_retries=self.config.parse_retries,
                max_tokens=self.config.max_tokens,
                salvage_cut_off=True,
            )
        except ModelOutputError as exc:
            result.trace.append(TraceStep(step=1, node="extract", error=str(exc)))
            result.warnings.append(f"no valid answer ({exc})")
        except LLMError as exc:  # backend down, budget spent: the document fails with its reason
            return ExtractionResult.from_error(
                document.id,
                self.name,
                exc,
                trace=result.trace,
                usage=meter.usage.model_copy(update={"seconds": time.perf_counter() - started}),
            )
        else:
            result.trace.append(TraceStep(step=1, node="extract", output=reply.text))
            result.output = reply.text
            provenance = Provenance(
                system=self.name, agent="extract", model=self.llm.name, prompt_version=f"{PROMPT.id}@{PROMPT.sha}"
            )
            result.triples, result.entities, dropped = self.graph(document, reply.parsed, provenance)
            result.warnings += dropped
        result.usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
        return result

    def graph(
        self, document: Document, answer: OpenIEAnswer, provenance: Provenance
    ) -> tuple[list[Triple], list[Entity], list[str]]:
        """The triples the passage holds, the named entities among their arguments, and why others were dropped."""
        triples: dict[tuple[str, str, str], Triple] = {}
        entities: dict[str, Entity] = {}
        dropped: list[str] = []
        for raw in answer.triples:
            head, relation, tail = trim(raw[0]), " ".join(raw[1].split()), trim(raw[2])
            spans = place(document, head), place(document, tail)  # located once, used for terms, evidence, mentions
            reason = self.reject(head, relation, tail, spans)
            if reason:
                dropped.append(f"dropped [{head}, {relation}, {tail}]: {reason}")
                continue
            head_span, tail_span = spans
            assert head_span is not None and tail_span is not None  # else reject() gives the reason
            # place() makes its spans with Document.span, which fills in their text
            assert head_span.text is not None and tail_span.text is not None
            terms = [name_term(head_span.text), name_or_value(tail_span.text)]
            phrase = relation.casefold()
            triple = Triple(
                subject=terms[0],
                object=terms[1],
                provenance=self.evidence(document, provenance, head_span, tail_span),
                predicate=Term.iri(minted_relation_iri(SCHEMA_NAME, phrase), surface=relation, label=phrase),
            )
            triples.setdefault(triple.key(), triple)
            for term, span in zip(terms, (head_span, tail_span)):
                if term.kind == "iri" and term.value not in entities:
                    entities[term.value] = Entity(
                        iri=term.value, label=term.label, mentions=[Mention(surface=span.text, span=span)]
                    )
        return list(triples.values()), list(entities.values()), dropped

    def reject(self, head: str, relation: str, tail: str, spans: tuple[Span | None, Span | None]) -> str | None:
        if not head or not relation or not tail:
            return "an empty part"
        if head.casefold() == tail.casefold():
            return "subject and object are the same"
        if len(relation.split()) > self.config.max_relation_words:
            return "the relation is a sentence"
        if tail.casefold() in relation.casefold():
            return "the relation holds the object"
        for words, span in zip((head, tail), spans):
            if len(words.split()) > self.config.max_argument_words:
                return f"{words!r} is a clause, not a name or value"
            if span is None:
                return f"the passage does not hold {words!r}"
        if names_no_relation(relation):
            return "the relation names none"
        return None

    @staticmethod
    def evidence(document: Document, provenance: Provenance, head: Span, tail: Span) -> Provenance:
        """The sentence naming both arguments; else the sentences from one's to the other's when they are
        close ("Tidewell was founded in 2019. The company is based in Leeds."); else the subject's."""
        sentences = [document.sentence_around(head), document.sentence_around(tail)]
        both = next(
            (s for s in sentences if s.start <= min(head.start, tail.start) and max(head.end, tail.end) <= s.end), None
        )
        if both is None:
            start, end = min(s.start for s in sentences), max(s.end for s in sentences)
            if end - start <= NEAR_CHARS:
                both = document.span(start, end)
        return provenance.model_copy(update={"evidence": both or sentences[0]})
