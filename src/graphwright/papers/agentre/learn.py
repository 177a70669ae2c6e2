"""Learning from labelled samples (paper 001, section 3.3): extract, check against gold, then write
memory. Shallow memory keeps the checked triples; deep memory asks the LLM to merge the right triples
into each head entity's summary; reflection asks it for a lesson when something was wrong or missed."""

from __future__ import annotations

from collections import defaultdict

from graphwright.errors import UserError
from graphwright.llm.base import LLM
from graphwright.model.labelled import RESample, RETriple, triple_key
from graphwright.papers.agentre.memory import Checked
from graphwright.papers.agentre.outputs import Lesson, Summary
from graphwright.papers.agentre.pool import render_triples
from graphwright.papers.agentre.steps import Caller, SentenceRun


def check(text: str, predicted: list[RETriple], gold: list[RETriple]) -> Checked:
    """Split a prediction into right and wrong triples, and list the gold triples it missed."""
    gold_keys = {triple_key(*t) for t in gold}
    predicted_keys = {triple_key(*t) for t in predicted}
    return Checked(
        text=text,
        correct=[t for t in predicted if triple_key(*t) in gold_keys],
        wrong=[t for t in predicted if triple_key(*t) not in gold_keys],
        missed=[t for t in gold if triple_key(*t) not in predicted_keys],
    )


async def learn_sample(system, sample: RESample, llm: LLM) -> Checked:
    """Extract from one labelled sample, check against its gold and write what was learnt to memory."""
    memory = system.memory
    run = await system.extract_sentence(sample.text, llm)
    checked = check(sample.text, run.triples, sample.triples)
    memory.add_checked(checked)
    caller = Caller(llm, system.config.max_tokens, system.config.parse_retries)
    prompts = system.prompts
    if "deep" in system.config.memory:
        by_head: dict[str, list[RETriple]] = defaultdict(list)
        for t in checked.correct:
            by_head[t.head].append(t)
        for entity, facts in by_head.items():
            answer = await caller.ask(
                SentenceRun(),
                "entity_summary",
                prompts["entity_summary"],
                Summary,
                entity=entity,
                summary=memory.summaries.get(entity, "(none yet)"),
                facts=render_triples(facts),
            )
            memory.set_summary(entity, answer.summary)
    if "reflection" in system.config.memory and (checked.wrong or checked.missed):
        names = sorted({t.relation for t in checked.wrong + checked.missed})
        reflection = await caller.ask(
            SentenceRun(),
            "reflection",
            prompts["reflection"],
            Lesson,
            guidelines=system.schema.guidelines(names),
            sentence=sample.text,
            gold=render_triples(sample.triples),
            predicted=render_triples(run.triples),
            wrong=render_triples(checked.wrong),
            missed=render_triples(checked.missed),
        )
        memory.add_lesson(sample.text, reflection.lesson)
    memory.mark_seen(sample.id)
    return checked


async def warm_up(system, samples: list[RESample], llm: LLM, on_progress=None) -> dict[str, int]:
    """Learn every sample memory has not seen yet; an interrupted warm-up goes on where it stopped."""
    if system.memory is None:
        raise UserError("warm-up needs memory: set memory_dir and keep 'memory' in tools")
    counts = {"learnt": 0, "skipped": 0, "correct": 0, "wrong": 0, "missed": 0}
    for sample in samples:
        if sample.id in system.memory.seen:
            counts["skipped"] += 1
        else:
            checked = await learn_sample(system, sample, llm)
            counts["learnt"] += 1
            for key in ("correct", "wrong", "missed"):
                counts[key] += len(getattr(checked, key))
        if on_progress:
            on_progress(sample.id)
    return counts
