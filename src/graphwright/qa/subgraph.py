"""The part of the graph a question needs: the k-hop neighbourhood of its seed nodes, ranked.

Hop 1 is every fact on a seed. The next hop starts from the neighbours the best-ranked facts reach
(at most ``expand`` of them), so a bridge question ("the drummer of the band that released X") can
walk from X to the band to the drummer without pulling in a hub's whole neighbourhood. A fact's rank
is its cosine to the question, plus a bonus for each seed it touches, minus a little for each hop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from graphwright.qa.facts import Fact, GraphFacts, GrownFacts
from graphwright.qa.seeds import Seed

SEED_BONUS = 0.15
HOP_PENALTY = 0.05
MAX_CANDIDATES = 2000  # facts ranked per hop at most (their vectors are kept, so a hub costs once)


@dataclass
class RankedFact:
    fact: Fact
    score: float
    hop: int


class Relevance:
    """Cosine of question and fact text with the KB's embedder; fact vectors are kept across questions."""

    def __init__(self, embedder: str = "minilm"):
        from graphwright.kb.embeddings import get_embedder

        self.embedder = get_embedder(embedder)
        self._cache: dict[str, np.ndarray] = {}

    def scores(self, question: str, texts: list[str]) -> list[float]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            self._cache.update(zip(missing, self.embedder.embed(missing)))
        if not texts:
            return []
        q = self.embedder.embed([question])[0]
        return [float(self._cache[t] @ q) for t in texts]


def retrieve(
    graph: GraphFacts | GrownFacts,
    seeds: list[Seed],
    question: str,
    relevance: Relevance,
    *,
    hops: int = 3,
    max_facts: int = 15,
    expand: int = 10,
    namesakes: Callable[[str], set[str]] = lambda node: set(),
) -> list[RankedFact]:
    """The ``max_facts`` best facts within ``hops`` of the seeds, best first. A node reached is walked on
    together with its ``namesakes`` (nodes of the same name, such as "MV Corra Lynn" and "The MV Corra
    Lynn" from two passages)."""
    seed_nodes = {s.node for s in seeds}
    ranked: dict[tuple[str, str, str], RankedFact] = {}
    frontier = sorted(set().union(*[{n} | namesakes(n) for n in seed_nodes])) if seed_nodes else []
    seen = set(frontier)
    for hop in range(1, hops + 1):
        if not frontier:
            break
        found = [f for f in graph.around(frontier) if f.key not in ranked][:MAX_CANDIDATES]
        scores = relevance.scores(question, [f.text for f in found])
        new = []
        for fact, score in zip(found, scores):
            bonus = SEED_BONUS * sum(end in seed_nodes for end in set(fact.ends()))
            new.append(ranked.setdefault(fact.key, RankedFact(fact, score + bonus - HOP_PENALTY * (hop - 1), hop)))
        # the next hop walks on from the neighbours the best facts of this hop reach
        frontier = []
        for item in sorted(new, key=lambda r: -r.score):
            for end in item.fact.ends():
                if end not in seen and len(frontier) < expand:
                    same = sorted({end} | namesakes(end) - seen)
                    seen.update(same)
                    frontier += same
    return sorted(ranked.values(), key=lambda r: (-r.score, r.fact.key))[:max_facts]
