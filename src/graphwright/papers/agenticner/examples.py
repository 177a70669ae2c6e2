"""Few-shot examples (paper 002, section 4.1): random labelled sentences, redrawn until every entity
type of the domain appears at least once, rendered as the tagger should answer; and a user's own
labelled examples."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from graphwright.errors import UserError
from graphwright.model.labelled import NERSample
from graphwright.model.tags import to_iob2, to_token_spans
from graphwright.papers.agenticner.align import parse_tagged

MAX_DRAWS = 2000


def sample_examples(pool: list[NERSample], types: list[str], n: int, seed: int = 0) -> list[NERSample]:
    """At least ``n`` samples whose entities together cover every type the pool has at all: the random
    draw of ``n`` covering most types, then, while a type is missing, the sample adding most missing
    types (the shortest among equals). A domain with more types than ``n`` sentences show gets more."""
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
            return best
    missing = wanted - {c.type for s in best for c in s.entities}
    while missing:
        gain, _, pick = max(
            ((len(missing & {c.type for c in s.entities}), -len(s.tokens), i) for i, s in enumerate(pool))
        )
        if gain == 0:
            break
        best.append(pool[pick])
        missing -= {c.type for c in pool[pick].entities}
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


def read_examples(path: Path, types: list[str]) -> list[NERSample]:
    """Labelled examples from JSONL: ``{"tokens": [...], "tags": [IOB2...]}`` or ``{"text": "<Type>..</Type> ..."}``."""
    if not path.is_file():
        raise UserError(f"examples file {path} not found")
    samples = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if "tokens" in row:
                sample = NERSample(id=f"ex-{number}", tokens=row["tokens"], tags=row["tags"])
            else:
                plain, tagged = parse_tagged(row["text"], types)
                words = [(m.start(), m.end()) for m in re.finditer(r"\S+", plain)]
                sample = NERSample(
                    id=f"ex-{number}",
                    tokens=[plain[s:e] for s, e in words],
                    tags=to_iob2(to_token_spans(tagged, words), len(words)),
                )
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise UserError(
                f"{path}:{number}: not an example ({type(exc).__name__}: {exc}); expected "
                '{"tokens": [...], "tags": [...]} or {"text": "... <Type>...</Type> ..."}'
            ) from exc
        unknown = sorted({c.type for c in sample.entities} - set(types))
        if unknown:
            raise UserError(f"{path}:{number}: entity types not in the domain: {', '.join(unknown)}")
        samples.append(sample)
    return samples
