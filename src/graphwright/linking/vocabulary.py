"""Words for kinds of things, each in one or more families, read out of a phrase (issue 61): careers
(occupations.py) and kinds of place (place_kinds.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping


class Vocabulary:
    """Terms (one or several words) and the families each belongs to. A phrase is read in one pass, the
    longest term first at each word, so that "film director" is not also a director of a firm."""

    def __init__(self, families: Mapping[str, str], extra: Mapping[str, Iterable[str]] | None = None):
        """``families``: family -> its terms, "|" between them; ``extra``: term -> more families."""
        found: dict[str, set[str]] = {}
        for family, terms in families.items():
            for term in terms.split("|"):
                found.setdefault(term, set()).add(family)
        for term, more in (extra or {}).items():
            found.setdefault(term, set()).update(more)
        self.terms = {term: frozenset(f) for term, f in found.items()}
        alternatives = "|".join(re.escape(t) for t in sorted(self.terms, key=len, reverse=True))
        self._pattern = re.compile(rf"(?<!\w)({alternatives})(?:s|es)?(?!\w)")

    def families(self, phrase: str) -> frozenset[str]:
        """The families of the terms ``phrase`` holds (case and punctuation aside)."""
        said = re.sub(r"[^\w\s]", " ", phrase.casefold())
        return frozenset().union(*(self.terms[m.group(1)] for m in self._pattern.finditer(said)))

    def is_term(self, words: str) -> bool:
        """Whether these words are one term (a plural ending allowed), not words that merely hold one."""
        return any(words.removesuffix(ending) in self.terms for ending in ("", "s", "es"))
