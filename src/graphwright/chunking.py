"""Split long texts at sentence ends (graphwright.text) so each piece fits a prompt."""

from __future__ import annotations

from graphwright.model import Document
from graphwright.text import sentence_spans

# The longest piece a system is given, in characters, wherever a run is assembled (extract, the web app,
# Ray, `eval run` and the benchmarks), so that a benchmark scores the pipeline users run.
CHUNK_CHARS = 2000
MAX_CHARS = 200_000  # the longest document accepted unless the user raises it


def chunk_spans(text: str, max_chars: int) -> list[tuple[int, int]]:
    """``[start, end)`` pieces of at most ``max_chars`` (a sentence longer than that is cut hard)."""
    if len(text) <= max_chars:
        return [(0, len(text))]
    cuts = [start for start, _ in sentence_spans(text)[1:]] + [len(text)]  # each sentence starts a piece
    spans, start, last = [], 0, 0
    for cut in cuts:
        if cut - start > max_chars and last > start:
            spans.append((start, last))
            start = last
        while cut - start > max_chars:  # one overlong sentence
            spans.append((start, start + max_chars))
            start += max_chars
        last = cut
    if start < len(text):
        spans.append((start, len(text)))
    return [(s, e) for s, e in spans if text[s:e].strip()]


def chunk_document(document: Document, max_chars: int) -> list[tuple[int, Document]]:
    """(offset, piece) pairs; a short document is its own single piece."""
    spans = chunk_spans(document.text, max_chars)
    if len(spans) == 1:
        return [(0, document)]
    return [
        (s, Document(id=f"{document.id}#{i}", text=document.text[s:e], source=document.source))
        for i, (s, e) in enumerate(spans)
    ]


def segment_spans(text: str, max_chars: int) -> list[tuple[int, int]]:
    """``[start, end)`` runs of whole sentences of at most ``max_chars`` each (a longer sentence is its
    own run). A text shorter than ``max_chars`` is one run, so a sentence with "Mr." stays whole."""
    ends = [end for _, end in sentence_spans(text)] + [len(text)]
    spans, start, last = [], 0, 0
    for end in ends:
        if end - start > max_chars and last > start:
            spans.append((start, last))
            start = last
        last = end
    spans.append((start, len(text)))
    out = []
    for s, e in spans:  # trim the whitespace between sentences
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            out.append((s, e))
    return out
