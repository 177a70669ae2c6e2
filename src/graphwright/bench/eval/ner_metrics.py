"""Entity-level NER metrics as AgenticNER reports them (paper 002): micro P/R/F1 where an entity is
right only with the exact span and the right type.

Entities are read from IOB2 tags the way seqeval's default mode (conlleval) does: a chunk starts at
``B-X``, and also at ``I-X`` after ``O`` or after another type; it ends before ``O``, ``B-`` or a type
change. Scores on spans and on tags agree, because spans are turned into well-formed IOB2.
"""

from __future__ import annotations

from urllib.parse import unquote

from graphwright.bench.eval.metrics import Counts, set_counts
from graphwright.model.tags import Chunk, as_tagged


def per_type(predicted: list[Chunk], gold: list[Chunk]) -> dict[str, Counts]:
    """Counts per entity type (seqeval's per-class rows)."""
    kinds = sorted({c.type for c in [*predicted, *gold]})
    return {k: set_counts([c for c in predicted if c.type == k], [c for c in gold if c.type == k]) for k in kinds}


NER_CATEGORIES = ("mentions",)


def type_name(type_iri_or_name: str) -> str:
    """``https://graphwright.dev/schema/genia/cell_line`` -> ``cell_line``; a plain name stays as it is."""
    return unquote(type_iri_or_name.rstrip("/").rsplit("/", 1)[-1])


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
    return [
        (m.span.start, m.span.end, type_name(e.types[0]))
        for e in result.entities
        if e.types
        for m in e.mentions
        if m.span is not None
    ]
