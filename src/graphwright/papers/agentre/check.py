"""Checks after the extractor, for small models (issue 27): a typer gives each argument the extractor
named one of the schema's entity types (or Other) in one call; a triple whose argument types its
relation does not allow is given the one relation that fits them, or dropped; and with
``check=pairs`` every type-compatible pair of those arguments is decided in one checklist call.
Every answer is a fixed list of enumerated choices, a few output tokens per item, instead of a
free-form list (the 1.5B model, asked to list a sentence's entities, repeated one until its
budget ran out or listed none) or a free-form review."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, create_model

from graphwright.agents.prompts import PromptTemplate
from graphwright.model.labelled import RESample, RETriple
from graphwright.model.schema import RelationSchema
from graphwright.papers.agentre.outputs import MAX_TRIPLES
from graphwright.papers.agentre.pool import name_key as _key
from graphwright.papers.agentre.steps import Caller, SentenceRun
from graphwright.papers.agentre.tools import Retrieval

NONE = "none"
PAIRS_PER_EXAMPLE = 6  # a worked checklist in the prompt: its true pairs first, then others up to this


def choices_model(name: str, options: list[list[str]], prefix: str) -> type[BaseModel]:
    """One field per item, in order (``e1``, ``e2``... or ``p1``...), each a choice among its options."""
    fields: dict[str, Any] = {
        f"{prefix}{i}": (Literal[tuple(o)], ...)  # type: ignore[valid-type]
        for i, o in enumerate(options, 1)
    }
    return create_model(name, **fields)


async def type_arguments(
    run: SentenceRun,
    sentence: str,
    names: list[str],
    retrieval: Retrieval,
    caller: Caller,
    prompt: PromptTemplate,
    k: int,
) -> dict[str, str]:
    """The type of each name as the sentence uses it, keyed by the normalised name; a name that is no
    kind of thing the schema relates is ``Other``."""
    types = _typer_types(retrieval.schema)
    worked = (_worked_types(s) for s in _examples(retrieval, sentence, k))
    answer = await caller.ask(
        run,
        "typer",
        prompt,
        choices_model("Types", [types] * len(names), "e"),
        types=retrieval.schema.type_lines(),
        examples="\n\n".join(worked),
        sentence=sentence,
        names=_numbered(names, "e"),
    )
    return {_key(n): getattr(answer, f"e{i}") for i, n in enumerate(names, 1)}


def retype(run: SentenceRun, types: dict[str, str], schema: RelationSchema) -> None:
    """Triples whose typed arguments their relation does not allow: relabelled when exactly one relation
    fits the two types, else dropped. An untyped argument gives no evidence, so its triple stays."""
    kept = []
    for head, relation, tail in run.triples:
        head_type, tail_type = types.get(_key(head)), types.get(_key(tail))
        fit = schema.fitting(head_type, tail_type) if head_type and tail_type else [relation]
        if relation not in fit and len(fit) == 1:
            relation = fit[0]
        if relation in fit:
            kept.append(RETriple(head, relation, tail))
        else:
            run.ruled_out.append(RETriple(head, relation, tail))
    run.triples = list(dict.fromkeys(kept))


def drop_known_type_clashes(run: SentenceRun, type_of: Callable[[str], str | None], schema: RelationSchema) -> None:
    """Triples an argument of which has a known type (``type_of``: the labelled pool's) that their relation
    does not allow are ruled out; a name without a known type gives no evidence. The 1.5B model's wrong
    CoNLL04 triples often break the types ("Reagan Work_For Washington"), which it cannot check itself."""
    kept: list[RETriple] = []
    for triple in run.triples:
        relation = schema.get(triple.relation)
        clash = relation is not None and any(
            allowed and (kind := type_of(name)) is not None and kind not in allowed
            for name, allowed in ((triple.head, relation.head), (triple.tail, relation.tail))
        )
        (run.ruled_out if clash else kept).append(triple)
    run.triples = kept


def candidate_pairs(
    sentence: str,
    types: dict[str, str],
    names: dict[str, str],
    triples: list[RETriple],
    schema: RelationSchema,
    limit: int,
) -> list[tuple[str, str, list[str]]]:
    """Ordered pairs of typed names some relation allows: those the extractor linked first, then the
    closest in the sentence, at most ``limit``."""
    linked = {(_key(h), _key(t)) for h, _, t in triples}
    at = {k: sentence.find(names[k]) for k in names}
    pairs = [(h, t, schema.fitting(types[h], types[t])) for h in names for t in names if h != t]
    pairs = [p for p in pairs if p[2]]
    pairs.sort(key=lambda p: ((p[0], p[1]) not in linked, abs(at[p[0]] - at[p[1]])))
    return [(names[h], names[t], fit) for h, t, fit in pairs[:limit]]


async def decide_pairs(
    run: SentenceRun,
    sentence: str,
    pairs: list[tuple[str, str, list[str]]],
    types: dict[str, str],
    retrieval: Retrieval,
    caller: Caller,
    prompt: PromptTemplate,
    k: int,
) -> list[RETriple]:
    relations = sorted({r for _, _, fit in pairs for r in fit}, key=retrieval.schema.names.index)
    worked = (_worked_checklist(s, retrieval.schema) for s in _examples(retrieval, sentence, k))
    examples = "\n\n".join(w for w in worked if w)
    answer = await caller.ask(
        run,
        "checker",
        prompt,
        choices_model("Checklist", [[*f, NONE] for *_, f in pairs], "p"),
        relations=retrieval.relation_lines(True, relations),
        examples=examples,
        sentence=sentence,
        pairs=_render_pairs(pairs, types),
    )
    decided = [RETriple(h, getattr(answer, f"p{i}"), t) for i, (h, t, _) in enumerate(pairs, 1)]
    return [t for t in decided if t.relation != NONE]


async def check(
    run: SentenceRun,
    sentence: str,
    retrieval: Retrieval,
    caller: Caller,
    prompts: dict[str, PromptTemplate],
    *,
    pairs: bool,
    max_pairs: int,
    k: int,
) -> None:
    """Type the extractor's arguments, fix or drop the triples their types rule out, and with ``pairs``
    let the checklist decide every type-compatible pair of them (the extractor's own triples included:
    the checklist's answer replaces them)."""
    names = list(dict.fromkeys(n for h, _, t in run.triples for n in (h, t)))[: 2 * MAX_TRIPLES]
    if not names:
        return
    types = await type_arguments(run, sentence, names, retrieval, caller, prompts["entity_types"], k)
    retype(run, types, retrieval.schema)
    if not pairs:
        return
    candidates = candidate_pairs(sentence, types, {_key(n): n for n in names}, run.triples, retrieval.schema, max_pairs)
    if not candidates:
        return
    decided = await decide_pairs(run, sentence, candidates, types, retrieval, caller, prompts["pairs"], k)
    asked = {(_key(h), _key(t)) for h, t, _ in candidates}
    run.triples = list(dict.fromkeys([t for t in run.triples if (_key(t.head), _key(t.tail)) not in asked] + decided))


def _examples(retrieval: Retrieval, sentence: str, k: int) -> list[RESample]:
    if retrieval.pool is None or k == 0:
        return []
    return [s for s in retrieval.pool.similar(sentence, k, sentence=sentence) if s.entities]


def _worked_types(sample: RESample) -> str:
    names = [n for n, _ in sample.entities]
    answers = {f"e{i}": t for i, (_, t) in enumerate(sample.entities, 1)}
    return f"Sentence: {sample.text}\nNames:\n{_numbered(names, 'e')}\nAnswer: {json.dumps(answers)}"


def _worked_checklist(sample: RESample, schema: RelationSchema) -> str:
    """A labelled sample as a checklist with its answers: the pairs its triples link, then other
    type-compatible pairs, up to PAIRS_PER_EXAMPLE."""
    types = {_key(n): t for n, t in sample.entities}
    names = {_key(n): n for n, _ in sample.entities}
    gold = {(_key(h), _key(t)): r for h, r, t in sample.triples}
    pairs = candidate_pairs(sample.text, types, names, list(sample.triples), schema, PAIRS_PER_EXAMPLE)
    if not pairs:
        return ""
    answers = {f"p{i}": gold.get((_key(h), _key(t)), NONE) for i, (h, t, _) in enumerate(pairs, 1)}
    return f"Sentence: {sample.text}\nPairs:\n{_render_pairs(pairs, types)}\nAnswer: {json.dumps(answers)}"


def _render_pairs(pairs: list[tuple[str, str, list[str]]], types: dict[str, str]) -> str:
    return "\n".join(
        f"p{i}: {h} ({types[_key(h)]}) -> {t} ({types[_key(t)]}): {' or '.join([*fit, NONE])}"
        for i, (h, t, fit) in enumerate(pairs, 1)
    )


def _numbered(items: list[str], prefix: str) -> str:
    return "\n".join(f"{prefix}{i}: {item}" for i, item in enumerate(items, 1))


def _typer_types(schema: RelationSchema) -> list[str]:
    return [*schema.entity_types, *([] if "Other" in schema.entity_types else ["Other"])]
