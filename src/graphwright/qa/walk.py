"""Passages found through the graph: personalized PageRank over the entities of the stored facts and the
passages that state them, in the manner of HippoRAG 2 (Gutiérrez et al., 2025).

The graph has a node per entity name (the names of a fact's subject and object, normalised, so the same
name in two passages is one node) and a node per passage. A fact links its two names, and each name to
every passage whose sentence states the fact. The walk starts from:

* the names in the facts closest to the question (cosine of question and fact text), each weighted by
  its fact's score and divided by the number of passages it appears in, so a hub name ("United States")
  spreads less than a rare one;
* every passage, weighted by its own closeness to the question, scaled down (``passage_weight``) so the
  facts lead and the passages break ties.

Passages are ranked by where the walk settles. No model call: the reader gets the top passages and the
facts that led there in its one answer call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from graphwright.linking.names import normalize
from graphwright.qa.facts import Fact

DAMPING = 0.5  # the share of each step that follows an edge; the rest returns to the seeds (HippoRAG's 0.5)


def personalized_pagerank(
    size: int,
    sources: np.ndarray,
    targets: np.ndarray,
    weights: np.ndarray,
    reset: np.ndarray,
    *,
    damping: float = DAMPING,
    iterations: int = 50,
    tolerance: float = 1e-9,
) -> np.ndarray:
    """Stationary visit probabilities of a walk that follows a weighted edge with probability ``damping``
    and else jumps to a node drawn from ``reset``; a node without edges sends its mass back to ``reset``."""
    start = reset / reset.sum()
    out = np.bincount(sources, weights, minlength=size)
    share = weights / np.where(out[sources] > 0, out[sources], 1.0)
    stuck = out == 0
    rank = start.copy()
    for _ in range(iterations):
        spread = np.bincount(targets, rank[sources] * share, minlength=size)
        new = (1 - damping) * start + damping * (spread + rank[stuck].sum() * start)
        if np.abs(new - rank).sum() < tolerance:
            return new
        rank = new
    return rank


@dataclass
class Found:
    passage: str
    score: float
    facts: list[Fact]  # the seed facts stated in this passage, best first


class PassageGraph:
    """Names and passages of a set of facts, as arrays for the walk."""

    def __init__(self, facts: list[Fact], passages: list[str]):
        self.facts = facts
        self.passages = list(dict.fromkeys(passages))
        self.index = {("passage", p): i for i, p in enumerate(self.passages)}
        edges: dict[tuple[int, int], float] = {}
        self.passages_of: dict[int, set[int]] = {}  # name node -> passage nodes

        def node(name: str) -> int:
            return self.index.setdefault(("name", normalize(name)), len(self.index))

        def link(a: int, b: int) -> None:
            if a != b:
                edges[(a, b)] = edges[(b, a)] = 1.0

        self.fact_names: list[tuple[int, int]] = []
        for fact in facts:
            subject, obj = node(fact.subject_label), node(fact.object_label)
            self.fact_names.append((subject, obj))
            link(subject, obj)
            for document in fact.evidence:
                passage = self.index.get(("passage", document))
                if passage is None:
                    continue
                for name in (subject, obj):
                    link(name, passage)
                    self.passages_of.setdefault(name, set()).add(passage)
        self.size = len(self.index)
        pairs = np.array(sorted(edges), dtype=np.int64).reshape(-1, 2)
        self.sources, self.targets = pairs[:, 0], pairs[:, 1]
        self.weights = np.ones(len(pairs), dtype=np.float64)

    def named(self, phrases) -> list[int]:
        """The name nodes the question's phrases name."""
        return sorted({self.index[key] for key in (("name", normalize(p)) for p in phrases) if key in self.index})

    def rank(
        self,
        fact_scores: np.ndarray,
        passage_scores: np.ndarray,
        *,
        top_facts: int = 5,
        passage_weight: float = 0.05,
        k: int = 5,
        names: Sequence[int] = (),
        name_weight: float = 1.0,
    ) -> list[Found]:
        """The ``k`` best passages for a question, given its cosine to each fact and to each passage."""
        reset = np.zeros(self.size)
        for name in names:
            reset[name] = name_weight / max(1, len(self.passages_of.get(name, ())))
        seeds: Iterable[int] = np.argsort(-fact_scores, kind="stable")[:top_facts] if len(fact_scores) else []
        for i in seeds:
            for name in set(self.fact_names[i]):
                spread = max(1, len(self.passages_of.get(name, ())))
                reset[name] = max(reset[name], float(fact_scores[i]) / spread)
        if len(passage_scores):
            low, high = float(passage_scores.min()), float(passage_scores.max())
            scaled = (passage_scores - low) / (high - low) if high > low else np.ones_like(passage_scores)
            reset[: len(self.passages)] += passage_weight * scaled
        if reset.sum() <= 0:
            return []
        visits = personalized_pagerank(self.size, self.sources, self.targets, self.weights, reset)
        order = np.argsort(-visits[: len(self.passages)], kind="stable")[:k]
        seed_facts = [self.facts[i] for i in seeds]
        return [
            Found(self.passages[i], float(visits[i]), [f for f in seed_facts if self.passages[i] in f.evidence])
            for i in order
        ]
