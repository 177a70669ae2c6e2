"""``agenticner``: NER in a new domain from entity definitions and a few examples, by a tagger, a
reviewer and a researcher in a supervised group chat, with a grounding engine (paper 002).
``agenticner.single`` is its baseline: one call with the same generated tagger prompt."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from graphwright.agents.call import ask_text
from graphwright.agents.prompts import load_prompt
from graphwright.chunking import segment_spans
from graphwright.errors import LLMError
from graphwright.kb.protocol import KnowledgeBase
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, Entity, ExtractionResult, Mention, TraceStep
from graphwright.model.domain import EntityDomain, load_domain
from graphwright.model.labelled import NERSample
from graphwright.model.schema import name_entity_iri
from graphwright.papers.agenticner.align import CharSpan, align
from graphwright.papers.agenticner.config import AgenticNERConfig
from graphwright.papers.agenticner.examples import read_examples, sample_examples, tagged_text
from graphwright.papers.agenticner.grounding import GroundingKB
from graphwright.papers.agenticner.prompts_build import (
    PACKAGE,
    metaprompt_tagger,
    render_examples,
    reviewer_prompt,
    template_tagger_prompt,
)
from graphwright.papers.agenticner.protocol import tag_content, text_to_tag
from graphwright.papers.agenticner.search import LocalSearch, Search, WebSearch
from graphwright.papers.agenticner.team import Team
from graphwright.systems.datasets import datasets

SEGMENT_CHARS = 600


class AgenticNERSystem:
    def __init__(
        self,
        llm: LLM,
        kb: KnowledgeBase | None,
        config: AgenticNERConfig,
        name: str = "agenticner",
        single: bool = False,
    ):
        self.name, self.llm, self.config, self.single = name, llm, config, single
        self.domain, pool = resolve_domain_and_pool(config)
        self.types = list(self.domain.types)
        self.examples = sample_examples(pool, self.types, config.examples, seed=config.seed)
        self.kb = None  # the grounding KB: advice in the team's chat, and with kb_types / kb_spot it acts itself
        if (config.grounding and not single) or config.kb_types or config.kb_spot:
            self.kb = GroundingKB.from_file(config.kb_file) if config.kb_file else GroundingKB.from_samples(pool)
        self.grounding = self.kb if config.grounding and not single else None
        self.search = self._search() if config.researcher and not single else None
        # built once: every segment's chat uses the same reviewer and researcher prompts
        example = tagged_text(self.examples[0]) if self.examples else f"<{self.types[0]}>...</{self.types[0]}>"
        self.reviewer = (
            reviewer_prompt(self.domain, example, research=config.researcher)
            if config.reviewer and not single
            else None
        )
        self.researcher = load_prompt(PACKAGE, "researcher") if config.researcher and not single else None
        self._tagger_prompt: str | None = None
        self._prompt_warnings: list[str] = []
        self._lock = asyncio.Lock()

    def _search(self) -> Search:
        if self.config.search_url:
            return WebSearch(self.config.search_url, self.config.search_api_key)
        known = [f"{name}: {description}" for name, description in self.domain.types.items()]
        if self.grounding is not None:
            known += [
                f"'{phrase}' is a {' or '.join(sorted(types))}" for phrase, types in self.grounding.entries.items()
            ]
        return LocalSearch.from_files(self.config.corpus, extra=known)

    async def tagger_prompt(self, llm: LLM) -> str:
        """Written once per system (the first document pays the Metaprompter call)."""
        async with self._lock:
            if self._tagger_prompt is None:
                # the baseline gets the same prompt as the team, mentions of reviewer and researcher included,
                # as in the paper (and the cached Metaprompter answer is shared)
                research, debate = self.config.researcher, self.config.reviewer
                if self.config.metaprompt:
                    self._tagger_prompt, self._prompt_warnings = await metaprompt_tagger(
                        llm, self.domain, self.examples, research=research, debate=debate
                    )
                else:
                    self._tagger_prompt = template_tagger_prompt(
                        self.domain, render_examples(self.examples), research=research, debate=debate
                    )
            return self._tagger_prompt

    def team(self, llm: LLM, prompt: str) -> Team:
        return Team(
            llm=llm,
            tagger_prompt=prompt,
            reviewer_prompt=self.reviewer,
            researcher=self.researcher,
            search=self.search,
            ground=self._ground if self.grounding is not None else None,
            types=self.types,
            max_turns=self.config.max_turns,
            max_tokens=self.config.max_tokens,
            stop_on_repeat=self.config.stop_on_repeat,
            min_coverage=self.config.min_coverage,
        )

    def kb_acts(self, spans: list[tuple[int, int, str]], text: str) -> list[tuple[int, int, str]]:
        """The tagger's mentions after the KB's own corrections and additions (kb_types, kb_spot)."""
        kb = self.kb
        if self.config.kb_types:
            assert kb is not None  # __init__ builds the KB whenever kb_types or kb_spot is set
            spans = kb.retype(spans, text)
        if self.config.kb_spot:
            assert kb is not None
            spans = sorted(spans + kb.spot(spans, text, min_tagged_share=self.config.kb_min_tagged_share))
        return spans

    def _ground(self, output: str, text: str) -> list[str]:
        assert self.grounding is not None  # team() hands _ground to the team only with a grounding KB
        return self.grounding.feedback([(text[s.start : s.end], s.type) for s in align(output, text, self.types)])

    async def run(self, document: Document) -> ExtractionResult:
        started = time.perf_counter()
        meter = MeteredLLM(self.llm, budget=self.config.token_budget)
        result = ExtractionResult(document_id=document.id, system=self.name)

        def step(node: str, kind: str, output: str) -> None:
            result.trace.append(TraceStep(step=len(result.trace) + 1, node=node, kind=kind, output=output))

        spans: list[CharSpan] = []
        try:
            prompt = await self.tagger_prompt(meter)
            for start, end in segment_spans(document.text, SEGMENT_CHARS):
                segment = document.text[start:end]
                if self.single:
                    with for_agent("tagger"):
                        reply = (
                            await ask_text(
                                meter,
                                [
                                    {"role": "system", "content": prompt},
                                    {"role": "user", "content": text_to_tag(segment)},
                                ],
                                max_tokens=self.config.max_tokens,
                            )
                        ).text
                    step("tagger", "agent", reply)
                    output = tag_content(reply, "output")
                    output = reply if output is None else output
                else:
                    chat = await self.team(meter, prompt).tag(segment)
                    for turn in chat.turns[1:]:
                        step(
                            turn.speaker,
                            "agent" if turn.speaker in ("tagger", "reviewer", "researcher") else "system",
                            turn.content,
                        )
                    if chat.stopped_by_cap:
                        result.warnings.append(
                            f"characters {start}-{end}: the chat reached {self.config.max_turns} "
                            "turns; the last tagger output is the answer"
                        )
                    output = chat.output
                if output is None:
                    result.warnings.append(f"characters {start}-{end}: the tagger never gave an <output>")
                    continue
                found = self.kb_acts([(s.start, s.end, s.type) for s in align(output, segment, self.types)], segment)
                spans += [CharSpan(s + start, e + start, kind) for s, e, kind in found]
        except LLMError as exc:  # backend down, budget spent: the document fails with its reason
            return ExtractionResult.from_error(
                document.id,
                self.name,
                exc,
                trace=result.trace,
                usage=meter.usage.model_copy(update={"seconds": time.perf_counter() - started}),
            )
        result.warnings += self._prompt_warnings
        result.entities = _entities(document, spans, self.domain)
        result.output = "\n".join(f"{s.start}\t{s.end}\t{s.type}\t{document.text[s.start : s.end]}" for s in spans)
        result.usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
        return result


def _entities(document: Document, spans: list[CharSpan], domain: EntityDomain) -> list[Entity]:
    """One entity per (text, type), with every mention of it."""
    grouped: dict[tuple[str, str], Entity] = {}
    for s in sorted(spans):
        surface = document.text[s.start : s.end]
        entity = grouped.setdefault(
            (surface, s.type), Entity(iri=name_entity_iri(surface), label=surface, types=[domain.type_iri(s.type)])
        )
        entity.mentions.append(Mention(surface=surface, span=document.span(s.start, s.end)))
    return list(grouped.values())


def resolve_domain_and_pool(config: AgenticNERConfig) -> tuple[EntityDomain, list[NERSample]]:
    domain, pool = None, []
    if config.dataset:
        data = datasets().entities(config.dataset)
        domain, pool = data.domain, data.train
    if config.domain_file:
        domain = load_domain(config.domain_file)
    if config.entity_domain:
        domain = config.entity_domain
    assert domain is not None  # the config requires a dataset or a domain
    if config.examples_file:
        pool = read_examples(Path(config.examples_file), list(domain.types))
    return domain, pool
