"""``agentre``: relation extraction against a fixed schema with retrieval, memory and a ReAct agent
(paper 001). A document is cut into runs of whole sentences; each run is extracted on its own and
its triples keep the run as their evidence."""

from __future__ import annotations

import re
import time
from pathlib import Path

from graphwright.agents.prompts import load_prompt
from graphwright.chunking import segment_spans
from graphwright.errors import LLMError, ModelOutputError
from graphwright.kb.protocol import KnowledgeBase
from graphwright.llm.base import LLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, Entity, ExtractionResult, Mention, Provenance, Span, Term, TraceStep, Triple
from graphwright.model.labelled import RESample, RETriple, read_samples
from graphwright.model.schema import RelationSchema, load_schema, name_entity_iri
from graphwright.papers.agentre.config import AgentREConfig
from graphwright.papers.agentre.fixed import extract_fixed
from graphwright.papers.agentre.memory import AgentMemory
from graphwright.papers.agentre.pool import SamplePool
from graphwright.papers.agentre.react import extract_react
from graphwright.papers.agentre.steps import Caller, SentenceRun
from graphwright.papers.agentre.tools import Retrieval
from graphwright.systems.datasets import datasets
from graphwright.text import sentence_spans

PROMPTS_PACKAGE = "graphwright.papers.agentre"
PROMPTS = ("extract", "relation_types", "react", "reflection", "entity_summary", "entity_types", "pairs")
SEGMENT_CHARS = 600  # AgentRE is sentence-level; a short text stays one segment


class AgentRESystem:
    def __init__(self, llm: LLM, kb: KnowledgeBase | None, config: AgentREConfig, name: str = "agentre"):
        self.name, self.llm, self.kb, self.config = name, llm, kb, config
        self.schema, samples = resolve_schema_and_pool(config)
        wants_pool = bool({"samples", "kg"} & set(config.tools))
        self.pool = (
            SamplePool(samples[: config.pool_size], config.retriever, seed=config.seed)
            if samples and wants_pool
            else None
        )
        self.memory = (
            AgentMemory(config.memory_dir, self.schema.name, config.retriever)
            if config.memory_dir and "memory" in config.tools
            else None
        )
        self.retrieval = Retrieval(
            self.schema,
            pool=self.pool,
            memory=self.memory,
            kb=kb,
            tools=list(config.tools),
            k=config.k,
            memory_k=config.memory_k,
            memory_kinds=list(config.memory),
        )
        self.prompts = {p: load_prompt(PROMPTS_PACKAGE, p) for p in PROMPTS}
        used = self.prompts["react" if config.mode == "react" else "extract"]
        self.prompt_version = used.id

    async def extract_sentence(self, text: str, llm: LLM) -> SentenceRun:
        caller = Caller(llm, self.config.max_tokens, self.config.parse_retries)
        if self.config.mode == "react":
            return await extract_react(text, self.retrieval, caller, self.prompts["react"], self.config.max_iterations)
        return await extract_fixed(self.config, text, self.retrieval, caller, self.prompts)

    async def run(self, document: Document) -> ExtractionResult:
        started = time.perf_counter()
        meter = MeteredLLM(self.llm, budget=self.config.token_budget)
        result = ExtractionResult(document_id=document.id, system=self.name)
        trajectories, failures = [], []
        for start, end in segment_spans(document.text, SEGMENT_CHARS):
            segment = document.text[start:end]
            try:
                run = await self.extract_sentence(segment, meter)
            except ModelOutputError as exc:  # this segment only; the others still count
                failures.append(f"characters {start}-{end}: the model never gave a usable answer: {exc}")
                result.trace.append(TraceStep(step=len(result.trace) + 1, node="agent", kind="agent", error=str(exc)))
                continue
            except LLMError as exc:  # backend down, budget spent: the document fails with its reason
                result.usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
                return ExtractionResult.from_error(document.id, self.name, exc, usage=result.usage, trace=result.trace)
            for step in run.steps:
                result.trace.append(step.model_copy(update={"step": len(result.trace) + 1}))
            own = [t for t in run.triples if _one_mention_related_to_itself(t, segment)]
            result.triples += [self._triple(t, _evidence(document, start, end, t)) for t in run.triples if t not in own]
            result.warnings += [f"dropped {list(t)}: its head and tail are one mention" for t in own]
            result.warnings += [f"dropped {list(t)}: an argument is not in the sentence" for t in run.dropped]
            result.warnings += [f"dropped {list(t)}: its argument types rule the relation out" for t in run.ruled_out]
            trajectories.append({"start": start, "end": end, "text": segment, "steps": run.trajectory})
        result.usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
        if failures and not trajectories:
            return ExtractionResult.failed(document.id, self.name, failures[0], usage=result.usage, trace=result.trace)
        result.warnings += failures
        result.entities = _entities(document, result.triples)
        result.output = "\n".join(
            f"{t.subject.surface}\t{t.predicate.label}\t{t.object.surface}" for t in result.triples
        )
        result.extra = {"mode": self.config.mode, "tools": self.retrieval.tools, "trajectories": trajectories}
        return result

    def _triple(self, t, evidence: Span) -> Triple:
        provenance = Provenance(
            evidence=evidence,
            system=self.name,
            agent=self.config.mode,
            model=self.llm.name,
            prompt_version=self.prompt_version,
        )
        return Triple(
            subject=Term.iri(name_entity_iri(t.head), surface=t.head, label=t.head),
            predicate=Term.iri(self.schema.relation_iri(t.relation), surface=t.relation, label=t.relation),
            object=Term.iri(name_entity_iri(t.tail), surface=t.tail, label=t.tail),
            provenance=provenance,
        )


def _evidence(document: Document, start: int, end: int, t: RETriple) -> Span:
    """Where the segment states ``t``: the first sentence naming its head and its tail, else the shortest
    run of sentences that does; the whole segment when the names are not in it as written."""
    segment = document.text[start:end]
    sentences = sentence_spans(segment) or [(0, len(segment))]
    names = [re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE) for name in (t.head, t.tail)]
    for width in range(1, len(sentences) + 1):
        for first in range(len(sentences) - width + 1):
            a, b = sentences[first][0], sentences[first + width - 1][1]
            if all(name.search(segment, a, b) for name in names):
                return document.span(start + a, start + b)
    return document.span(start, end)


def resolve_schema_and_pool(config: AgentREConfig) -> tuple[RelationSchema, list[RESample]]:
    """The schema and labelled pool: a dataset's, replaced part by part by the user's files."""
    schema, pool = None, []
    if config.dataset:
        data = datasets().relations(config.dataset)
        schema, pool = data.schema, data.pool
    if config.schema_file:
        schema = load_schema(config.schema_file)
    if config.pool_file:
        pool = read_samples(Path(config.pool_file), schema)
    assert schema is not None  # the config requires a dataset or a schema file
    return schema, pool


def _one_mention_related_to_itself(triple: RETriple, sentence: str) -> bool:
    """ "Libya OrgBased_In Libya" where the sentence names Libya once. A name written twice may be two
    things: the series and the novel of the same name it was adapted from (DuIE), a city and its airport's."""
    head, _, tail = triple
    return head.casefold() == tail.casefold() and sentence.casefold().count(head.casefold()) < 2


def _entities(document: Document, triples: list[Triple]) -> list[Entity]:
    by_iri: dict[str, Entity] = {}
    for t in triples:
        for term in (t.subject, t.object):
            if term.value not in by_iri:
                by_iri[term.value] = Entity(
                    iri=term.value,
                    label=term.surface,
                    mentions=[
                        Mention(surface=term.surface, span=document.find(term.surface) if term.surface else None)
                    ],
                )
    return list(by_iri.values())
