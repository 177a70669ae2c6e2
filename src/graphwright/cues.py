"""Cue words: whether a text states a relation at all (small models list relations a text never states)."""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'“(]?[A-Z0-9])")


def cued(text: str, names: tuple[str, ...], cues: list[str] | None) -> bool:
    """No cues, or the sentences that name all of ``names`` (where none does, those naming one of them:
    "He was born in Sacramento") hold a word starting with one of the cues."""
    if not cues:
        return True
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, cues)) + ")", re.IGNORECASE)
    sentences = [(s, [n.casefold() in s.casefold() for n in names]) for s in _SENTENCE.split(text)]
    naming = [s for s, found in sentences if all(found)] or [s for s, found in sentences if any(found)]
    return any(pattern.search(s) for s in naming)
