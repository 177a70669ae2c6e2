"""The fixed extraction modes (paper 001, "adaptive mode"): direct, staged (relation types first,
then triples over those types) and chain-of-thought. Each puts the prefetched retrieval and memory
into one prompt; the single-call baselines are direct mode with less context. The settings for small
models (issue 27) act around that call: arguments copied by constrained decoding, examples as earlier
turns, one re-ask when an argument is not in the sentence, escalation to voting calls when nothing of the
answer is, the labelled pool's entity types, and the type and pair checks."""

from __future__ import annotations

import json
from collections import Counter
from typing import cast

from pydantic import BaseModel

from graphwright.agents.prompts import PromptTemplate
from graphwright.agents.spans import copyable_spans
from graphwright.model.labelled import RESample, RETriple
from graphwright.papers.agentre.check import check, drop_known_type_clashes
from graphwright.papers.agentre.config import AgentREConfig
from graphwright.papers.agentre.outputs import (
    ExtractionAnswer,
    RelationChoiceAnswer,
    extraction_model,
    relation_choice_model,
)
from graphwright.papers.agentre.steps import Caller, SentenceRun, find_argument, ground, triples_json
from graphwright.papers.agentre.tools import ACTIONS, Retrieval, render_context
from graphwright.retrieval import RetrieverKind

COT = "First write your reasoning (which entities the sentence names, which relations hold), then the triples."


async def extract_fixed(
    config: AgentREConfig, sentence: str, retrieval: Retrieval, caller: Caller, prompts: dict[str, PromptTemplate]
) -> SentenceRun:
    mode, run = config.mode, SentenceRun()
    observations = retrieval.prefetch(sentence)
    for o in observations:
        run.tool(o.action, o.input, o.text)
        run.trajectory.append({"thought": "", "action": o.action, "input": o.input, "observation": o.text})
    turns = None
    # the prompt's context when the examples are chat turns instead: everything but the samples
    without_samples = render_context([o for o in observations if o.action != ACTIONS["samples"][0]])
    if config.examples_as_turns and retrieval.pool is not None:
        turns = example_turns(retrieval.pool.similar(sentence, retrieval.k, sentence=sentence))
    context = without_samples if turns is not None else render_context(observations)
    definitions = "guidelines" in retrieval.tools
    relations = retrieval.schema.names
    if mode == "staged":
        choice = cast(  # the answer models are built per sentence: the protocols name their fields
            RelationChoiceAnswer,
            await caller.ask(
                run,
                "relation_types",
                prompts["relation_types"],
                relation_choice_model(relations),
                relations=retrieval.relation_lines(definitions),
                context=context,
                sentence=sentence,
            ),
        )
        relations = [r for r in relations if r in set(choice.relations)]
        if not relations:
            return run  # no relation holds: nothing to extract
    lines = retrieval.relation_lines(definitions, relations)
    spans = copyable_spans(sentence) if config.copy_arguments else None
    output = extraction_model(relations, reasoning=mode == "cot", spans=spans)
    values = dict(relations=lines, instructions=COT if mode == "cot" else "", context=context, sentence=sentence)
    answer = cast(
        ExtractionAnswer, await caller.ask(run, "extractor", prompts["extract"], output, turns, feedback="", **values)
    )
    ground(run, answer.triples, sentence)
    if config.reask_ungrounded and run.dropped:
        feedback = ungrounded(run, sentence)
        answer = cast(
            ExtractionAnswer,
            await caller.ask(run, "extractor", prompts["extract"], output, turns, feedback=feedback, **values),
        )
        ground(run, answer.triples, sentence)
    copied = run.dropped and (config.escalate_when == "any_dropped" or not run.triples)
    if config.escalate and copied and retrieval.pool is not None:
        await escalate(
            config.escalate,
            run,
            sentence,
            retrieval,
            caller,
            prompts["extract"],
            output,
            {**values, "context": without_samples},
        )
    if config.pool_types and retrieval.pool is not None:
        drop_known_type_clashes(run, retrieval.pool.type_of, retrieval.schema)
    if config.check != "none":
        await check(
            run,
            sentence,
            retrieval,
            caller,
            prompts,
            pairs=config.check == "pairs",
            max_pairs=config.max_pairs,
            k=config.check_examples,
        )
    run.trajectory.append(
        {
            "thought": getattr(answer, "reasoning", ""),
            "action": "Finish",
            "input": "",
            "observation": triples_json(run.triples),
        }
    )
    return run


async def escalate(
    calls: int,
    run: SentenceRun,
    sentence: str,
    retrieval: Retrieval,
    caller: Caller,
    prompt: PromptTemplate,
    output: type[BaseModel],
    values: dict[str, str],
) -> None:
    """The first answer kept nothing: all it named came from elsewhere (the 1.5B model copied the examples
    in 44 of 100 CoNLL04 sentences). Ask ``calls`` more times with the examples as earlier chat turns,
    which stops the copying but brings wrong triples of their own, each time with examples another
    retriever found, and keep what a majority of those answers agree on. A call whose answer could not
    change that (the first two of three agree) is not made."""
    votes: Counter[RETriple] = Counter()
    needed = calls // 2 + 1
    pool = retrieval.pool
    assert pool is not None  # the caller escalates only with a labelled pool
    for made, kind in enumerate(escalation_retrievers(pool.retriever)[:calls]):
        left = calls - made
        if left < needed and all(n >= needed or n + left < needed for n in votes.values()):
            break
        examples = pool.with_retriever(kind).similar(sentence, retrieval.k, sentence=sentence)
        answer = cast(
            ExtractionAnswer,
            await caller.ask(run, "escalation", prompt, output, example_turns(examples), feedback="", **values),
        )
        heard = SentenceRun()
        ground(heard, answer.triples, sentence)
        votes.update(heard.triples)  # ground keeps each triple once
    run.triples += [t for t, n in votes.items() if n >= needed]


def escalation_retrievers(first: RetrieverKind) -> list[RetrieverKind]:
    """The configured retriever, then the other ones that rank by similarity."""
    others: tuple[RetrieverKind, ...] = ("embedding", "bm25", "tfidf")
    return [first] + [kind for kind in others if kind != first]


def example_turns(samples: list[RESample]) -> list[dict[str, str]]:
    """Labelled samples as earlier exchanges, each answer in the answer's own format, so the last user
    message is plainly the task (after a block of examples ending in the sentence, the 1.5B model
    answered with an example's triples in 44 of 100 CoNLL04 sentences)."""
    turns = []
    for s in samples:
        answer = {"triples": [{"head": h, "relation": r, "tail": t} for h, r, t in s.triples]}
        turns += [
            {"role": "user", "content": f"Sentence: {s.text}"},
            {"role": "assistant", "content": json.dumps(answer, ensure_ascii=False)},
        ]
    return turns


def ungrounded(run: SentenceRun, sentence: str) -> str:
    """The correction for an answer whose arguments the sentence does not contain (a small model often
    copies an example's triples)."""
    missing = dict.fromkeys(a for h, _, t in run.dropped for a in (h, t) if find_argument(a, sentence) is None)
    names = ", ".join(f'"{a}"' for a in list(missing)[:6])
    return (
        f"Your last answer named {names}, which this sentence does not contain: they come from the examples. "
        "Extract the triples of this sentence only, with heads and tails copied from it; [] if it states none."
    )
