"""Cue words: whether a text states a relation at all (small models list relations a text never states)."""

from __future__ import annotations

import re

from graphwright.text import sentences


def cued(text: str, names: tuple[str, ...], cues: list[str] | None) -> bool:
    """No cues, or the sentences that name all of ``names`` (where none does, those naming one of them:
    "He was born in Sacramento") hold a word starting with one of the cues."""
    if not cues:
        return True
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, cues)) + ")", re.IGNORECASE)
    found_names = [(s, [n.casefold() in s.casefold() for n in names]) for s in sentences(text)]
    naming = [s for s, found in found_names if all(found)] or [s for s, found in found_names if any(found)]
    return any(pattern.search(s) for s in naming)
