"""The spans of a text a model may copy as an argument, for constrained decoding: with the answer's
argument fields limited to these strings, a small model cannot name something the text does not
contain (measured on CoNLL04: in 44 of 100 sentences the few-shot call's whole answer was copied from
its example sentences)."""

from __future__ import annotations

import re

#: punctuation a word may carry that is not part of a name ("Paris," "(AP" "Inc.)")
_EDGE = "\"'()[],;:!?"


def copyable_spans(text: str, max_words: int = 8, limit: int = 1500) -> list[str]:
    """Every run of up to ``max_words`` whitespace-separated words of ``text``, as written there, and
    each with the punctuation at its edges trimmed; shortest runs first, cut at ``limit`` strings (a
    long text keeps all its short names and loses its longest runs). Runs that are punctuation only
    are left out."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    spans: dict[str, None] = {}
    for n in range(1, max_words + 1):
        for i in range(len(words) - n + 1):
            raw = text[words[i][0] : words[i + n - 1][1]]
            # a period stays: "Md." and "Ark." end abbreviations; tokenized corpora write "N.J ."
            for span in (raw, raw.strip(_EDGE + " ")):
                if any(c.isalnum() for c in span):
                    spans.setdefault(span)
            if len(spans) >= limit:
                return list(spans)[:limit]
    return list(spans)
