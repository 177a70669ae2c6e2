"""Input documents and character spans."""

from __future__ import annotations

import hashlib
import re

from pydantic import BaseModel, Field, model_validator

from graphwright.text import sentence_at, sentence_spans


class Span(BaseModel):
    """A half-open character range ``[start, end)`` into a document's text."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str | None = Field(default=None, description="The covered text, for readability.")

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end < self.start:
            raise ValueError(f"span end {self.end} is before its start {self.start}")
        return self


class Document(BaseModel):
    """One text to extract from. ``id`` defaults to a hash of the text."""

    id: str = ""
    text: str
    source: str | None = Field(default=None, description="Where the text came from (a path, 'stdin').")
    metadata: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _default_id(self) -> Document:
        if not self.id:
            self.id = "doc-" + hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:16]
        return self

    def span(self, start: int, end: int) -> Span:
        return Span(start=start, end=end, text=self.text[start:end])

    def find(self, surface: str) -> Span | None:
        """The first span of ``surface`` in the text (case-insensitive fallback), or None."""
        if not surface:
            return None
        at = self.text.find(surface)
        if at >= 0:
            return self.span(at, at + len(surface))
        # matched on the text itself: lower() can change a string's length ("İ" becomes two code points),
        # which would shift every offset after it
        found = re.search(re.escape(surface), self.text, re.IGNORECASE)
        return self.span(found.start(), found.end()) if found else None

    def sentence_around(self, span: Span) -> Span:
        """The sentence that contains ``span`` (graphwright.text), or the run of sentences it crosses: the
        evidence shown for a triple."""
        return self.span(*sentence_at(self.text, span.start, span.end))

    def sentence_spans(self) -> list[tuple[int, int]]:
        """(start, end) of each sentence (graphwright.text)."""
        return sentence_spans(self.text)
