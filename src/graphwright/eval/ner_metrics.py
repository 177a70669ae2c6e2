"""Entity-level NER metrics as AgenticNER reports them (paper 002): micro P/R/F1 where an entity is
right only with the exact span and the right type.

Entities are read from IOB2 tags the way seqeval's default mode (conlleval) does: a chunk starts at
``B-X``, and also at ``I-X`` after ``O`` or after another type; it ends before ``O``, ``B-`` or a type
change. Scores on spans and on tags agree, because spans are turned into well-formed IOB2.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple
from urllib.parse import unquote

from graphwright.eval.metrics import Counts, set_counts


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
    start, kind = None, ""
    for i, tag in enumerate([*tags, "O"]):
        prefix, this = _split(tag)
        ends = start is not None and (prefix in ("O", "B") or this != kind)
        if ends:
            out.append(Chunk(start, i, kind))
            start = None
        if prefix == "B" or (prefix == "I" and start is None):
            start, kind = i, this
    return out


def to_iob2(chunks_: Iterable[Chunk], length: int) -> list[str]:
    """Spans to IOB2 tags; where spans overlap, the earlier-starting (then longer) one keeps its tokens."""
    tags = ["O"] * length
    for c in sorted(chunks_, key=lambda c: (c.start, -(c.end - c.start))):
        if c.start >= c.end or c.end > length or any(t != "O" for t in tags[c.start:c.end]):
            continue
        tags[c.start] = f"B-{c.type}"
        for i in range(c.start + 1, c.end):
            tags[i] = f"I-{c.type}"
    return tags


def per_type(predicted: list[Chunk], gold: list[Chunk]) -> dict[str, Counts]:
    """Counts per entity type (seqeval's per-class rows)."""
    kinds = sorted({c.type for c in [*predicted, *gold]})
    return {k: set_counts([c for c in predicted if c.type == k], [c for c in gold if c.type == k]) for k in kinds}


NER_CATEGORIES = ("mentions",)


def type_name(type_iri_or_name: str) -> str:
    """``https://graphwright.dev/schema/genia/cell_line`` -> ``cell_line``; a plain name stays as it is."""
    return unquote(type_iri_or_name.rstrip("/").rsplit("/", 1)[-1])


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


class NERScorer:
    """Exact span and type of every entity mention, micro-averaged over documents. Where the gold data
    has tokens, predictions are scored as IOB2 tags on them (seqeval's strict entity F1); otherwise on
    exact character spans."""

    categories = NER_CATEGORIES

    def score_document(self, result, doc) -> dict[str, Counts]:
        predicted = [] if result.status != "ok" else predicted_mentions(result)
        if doc.tokens is not None:
            predicted = as_tagged(predicted, doc.tokens)
        gold = [(g.start, g.end, g.type) for g in doc.entities]
        return {"mentions": set_counts(predicted, gold)}


def predicted_mentions(result) -> list[tuple[int, int, str]]:
    """(start, end, type name) of every typed mention a system found."""
    return [(m.span.start, m.span.end, type_name(e.types[0])) for e in result.entities if e.types
            for m in e.mentions if m.span is not None]
