"""Entity mentions as token chunks and IOB2 tags, conlleval style: what NER data is stored as, what the
taggers' examples are written in and what the scorer compares."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class Chunk(NamedTuple):
    start: int  # first token
    end: int  # one past the last token
    type: str


def _split(tag: str) -> tuple[str, str]:
    if tag in ("O", "", None):
        return "O", ""
    prefix, _, kind = tag.partition("-")
    return prefix, kind


def chunks(tags: list[str]) -> list[Chunk]:
    """Entity chunks of a tag sequence, conlleval style (lenient about ``I-`` without ``B-``)."""
    out: list[Chunk] = []
    start: int | None = None
    kind = ""
    for i, tag in enumerate([*tags, "O"]):
        prefix, this = _split(tag)
        if start is not None and (prefix in ("O", "B") or this != kind):
            out.append(Chunk(start, i, kind))
            start = None
        if prefix == "B" or (prefix == "I" and start is None):
            start, kind = i, this
    return out


def to_iob2(chunks_: Iterable[Chunk], length: int) -> list[str]:
    """Spans to IOB2 tags; where spans overlap, the earlier-starting (then longer) one keeps its tokens."""
    tags = ["O"] * length
    for c in sorted(chunks_, key=lambda c: (c.start, -(c.end - c.start))):
        if c.start >= c.end or c.end > length or any(t != "O" for t in tags[c.start : c.end]):
            continue
        tags[c.start] = f"B-{c.type}"
        for i in range(c.start + 1, c.end):
            tags[i] = f"I-{c.type}"
    return tags


def to_token_spans(spans: Iterable[tuple[int, int, str]], offsets: list[tuple[int, int]]) -> list[Chunk]:
    """Character spans (start, end, type) to token chunks: every token a span touches."""
    out = []
    for start, end, kind in spans:
        inside = [i for i, (s, e) in enumerate(offsets) if s < end and e > start]
        if inside:
            out.append(Chunk(inside[0], inside[-1] + 1, kind))
    return list(dict.fromkeys(out))


def as_tagged(spans: Iterable[tuple[int, int, str]], offsets: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Character spans as a token tagger would give them: snapped to whole tokens and made into one IOB2
    sequence (nested and overlapping spans keep the earlier, then longer one), read back as spans."""
    tags = to_iob2(to_token_spans(spans, offsets), len(offsets))
    return [(offsets[c.start][0], offsets[c.end - 1][1], c.type) for c in chunks(tags)]
