"""Few-shot examples (paper 002, section 4.1): random labelled sentences, redrawn until every entity
type of the domain appears at least once, rendered as the tagger should answer."""

from __future__ import annotations

import random

from graphwright.eval.ner_data import NERSample

MAX_DRAWS = 2000


def sample_examples(pool: list[NERSample], types: list[str], n: int, seed: int = 0) -> list[NERSample]:
    """``n`` samples whose entities together cover every type that the pool has at all. When no draw of
    ``n`` covers them, the draw covering most types is kept."""
    if len(pool) <= n:
        return list(pool)
    wanted = set(types) & {c.type for s in pool for c in s.entities}
    rng = random.Random(seed)
    best: list[NERSample] = []
    best_cover = -1
    for _ in range(MAX_DRAWS):
        draw = rng.sample(pool, n)
        cover = len(wanted & {c.type for s in draw for c in s.entities})
        if cover > best_cover:
            best, best_cover = draw, cover
        if cover == len(wanted):
            break
    return best


def tagged_text(sample: NERSample) -> str:
    """The sample's text with inline ``<Type>...</Type>`` tags: the tagger's expected output."""
    starts = {c.start: c for c in sample.entities}
    ends = {c.end - 1: c for c in sample.entities}
    parts = []
    for i, token in enumerate(sample.tokens):
        piece = token
        if i in starts:
            piece = f"<{starts[i].type}>" + piece
        if i in ends:
            piece += f"</{ends[i].type}>"
        parts.append(piece)
    return sample.separator.join(parts)
