"""The evidence sentence of a triple, shared by the cie systems."""

from __future__ import annotations

from graphwright.model import Document, Span


def evidence_span(document: Document, subject: str | None, obj: str | None) -> Span | None:
    """The sentence mentioning the subject and the object; else one mentioning either."""
    found = [document.find(s) for s in (subject, obj) if s]
    spans = [s for s in found if s is not None]
    if not spans:
        return None
    for span in spans:
        sentence = document.sentence_around(span)
        if all((s or "").casefold() in (sentence.text or "").casefold() for s in (subject, obj) if s):
            return sentence
    return document.sentence_around(spans[0])
