"""Input documents and character spans."""

from __future__ import annotations

import hashlib
import re

from pydantic import BaseModel, Field, model_validator


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
        """The sentence that contains ``span``: the evidence shown for a triple."""
        text = self.text
        start = max(text.rfind(". ", 0, span.start), text.rfind("\n", 0, span.start))
        start = 0 if start < 0 else start + 1
        while start < len(text) and text[start].isspace():
            start += 1
        stop, newline = text.find(". ", span.end), text.find("\n", span.end)
        ends = [stop + 1] * (stop >= 0) + [newline] * (newline >= 0)  # the full stop kept, a line break not
        end = min(ends) if ends else len(text)
        return self.span(start, min(end, len(text)))


_SENTENCE_END = re.compile(r"""[.!?]+["'”’)\]]*(?=\s+["'“‘(\[]?[A-Z0-9])""")
_NOT_AN_END = {
    "mr",
    "mrs",
    "ms",
    "dr",
    "prof",
    "st",
    "no",
    "vs",
    "u.s",
    "u.k",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
}


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, surrounding whitespace left out. A sentence ends at ``.``, ``!`` or
    ``?`` (and any closing quotes or brackets) followed by whitespace and a capital letter, a digit or an
    opening quote; not after a title or month abbreviation (``Mr.``, ``Dr.``, ``St.``, ``No.``, ``Nov.``,
    ``U.S.``) or a single capital letter (an initial). A blank line ends one too: a heading or a list item
    has no full stop, and the paragraph after it is another sentence."""
    cuts, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        word = re.search(r"[\w.]*$", text[: match.start()]).group().lower()
        if word in _NOT_AN_END or (len(word) == 1 and text[match.start() - 1].isupper()):
            continue
        cuts.append((start, match.end()))
        start = match.end()
    cuts.append((start, len(text)))
    cuts = [
        (a + piece.start(), a + piece.end())
        for a, b in cuts
        for piece in re.finditer(r"(?:(?!\n[ \t]*\n).)+", text[a:b], re.S)
    ]
    spans = []
    for a, b in cuts:
        piece = text[a:b]
        if piece.strip():
            spans.append((a + len(piece) - len(piece.lstrip()), a + len(piece.rstrip())))
    return spans
