"""The labelled pool: similar samples for in-context examples, and the facts it states about an entity
(the "KG" built from labelled triples, as AgentRE's retrieval module does when no other KG is given)."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from functools import lru_cache

from graphwright.model.labelled import RESample, RETriple, normalize_argument
from graphwright.retrieval import RetrieverKind, make_index
from graphwright.text import has_cjk


class SamplePool:
    def __init__(self, samples: list[RESample], retriever: RetrieverKind, *, seed: int = 0):
        self.samples, self.retriever, self.seed = samples, retriever, seed
        self.index = make_index(retriever, [s.text for s in samples], seed=seed)
        self._others: dict[str, SamplePool] = {}
        self._types = known_types(samples)
        # entity -> (the sentence stating it, fact): a sentence never learns from its own labels
        self._facts: dict[str, list[tuple[str, RETriple]]] = defaultdict(list)
        for sample in samples:
            for t in sample.triples:
                for name in (t.head, t.tail):
                    self._facts[name_key(name)].append((sample.text.strip(), t))

    def with_retriever(self, retriever: RetrieverKind) -> SamplePool:
        """The same samples searched by another retriever (an index built once per kind)."""
        if retriever == self.retriever:
            return self
        if retriever not in self._others:
            self._others[retriever] = SamplePool(self.samples, retriever, seed=self.seed)
        return self._others[retriever]

    def similar(self, text: str, k: int, sentence: str | None = None) -> list[RESample]:
        """The ``k`` samples most similar to ``text``, never the ``sentence`` being extracted (by default
        ``text`` itself): warm-up runs over the pool, and its own labels would be the answer."""
        own = (sentence if sentence is not None else text).strip()
        hits = [self.samples[i] for i in self.index.top(text, k + 1)]
        return [s for s in hits if s.text.strip() != own][:k]

    def facts(self, entity: str, limit: int = 8, sentence: str | None = None) -> list[RETriple]:
        """What the pool states about ``entity``, leaving out what the ``sentence`` being extracted states."""
        own = sentence.strip() if sentence is not None else None
        return list(dict.fromkeys(t for text, t in self._facts.get(name_key(entity), []) if text != own))[:limit]

    def type_of(self, name: str) -> str | None:
        """The entity type the pool gives ``name``, where it types it one way in most of its mentions."""
        return self._types.get(name_key(name))

    def entities_in(self, text: str, limit: int = 5) -> list[str]:
        """Pool entities the text names (a gazetteer: AgentRE's entity recognition and linking step),
        longest first; names of one or two characters are skipped as too ambiguous, and so are names
        the pool knows only from this very text."""
        lowered = name_key(text)
        found = [
            n for n in self._facts if len(n) > 2 and names_in(n, lowered) and self.facts(n, limit=1, sentence=text)
        ]
        return sorted(found, key=len, reverse=True)[:limit]


def known_types(samples: list[RESample]) -> dict[str, str]:
    """Name -> entity type, for the names the samples type one way in more than half of their mentions."""
    seen: dict[str, Counter[str]] = defaultdict(Counter)
    for sample in samples:
        for name, kind in sample.entities:
            seen[name_key(name)][kind] += 1
    return {name: top for name, kinds in seen.items() for top, n in kinds.most_common(1) if 2 * n > kinds.total()}


def names_in(name: str, text: str) -> bool:
    """Whether ``text`` names ``name`` as a whole word (both case-folded); CJK text has no spaces
    between words, so there a name is found anywhere."""
    return name in text if has_cjk(name) else _word(name).search(text) is not None


@lru_cache(maxsize=100_000)
def _word(name: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


def name_key(name: str) -> str:
    """A name as pool look-ups and the checks compare it: spacing normalised, case folded."""
    return normalize_argument(name).casefold()


def render_samples(samples: list[RESample]) -> str:
    return "\n".join(f"Sentence: {s.text}\nTriples: {render_triples(s.triples)}" for s in samples)


def render_triples(triples: list[RETriple]) -> str:
    return json.dumps([list(t) for t in triples], ensure_ascii=False)
