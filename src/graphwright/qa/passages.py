"""The passages mode of ``GraphQA``: the graph finds the passages, the reader reads them.

The facts closest to the question seed a walk over names and passages (graphwright.qa.walk); the top
passages go to the reader with the seed facts they state, in the one answer call. A passage's closeness
to the question, half dense and half BM25, is the walk's second seed. Settings chosen on the first 30
questions of HotpotQA and 2WikiMultihopQA (docs/decisions.md).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from graphwright.qa.answer import Source
from graphwright.qa.facts import Fact
from graphwright.qa.subgraph import Relevance
from graphwright.qa.walk import Found, PassageGraph
from graphwright.retrieval.indices import BM25Index
from graphwright.text import search_terms

TOP_FACTS = 3  # seed facts: the dev questions' recall@5 was best at 3 of 3, 5 and 10
PASSAGE_WEIGHT = 0.05  # the passages' share of the seeds, against 0.1, 0.2 and 0.5 (HippoRAG 2's 0.05)
PASSAGES = 5  # what the reader gets, as plain retrieval's baseline does
PASSAGE_CHARS = 1500  # a passage longer than this is cut for the reader


def _scaled(scores: np.ndarray) -> np.ndarray:
    low, high = float(scores.min()), float(scores.max())
    return (scores - low) / (high - low) if high > low else np.ones_like(scores)


class GraphPassages:
    """One graph's facts and passage texts (document id -> text), ready to rank passages for questions."""

    def __init__(
        self,
        facts: list[Fact],
        texts: dict[str, str],
        relevance: Relevance,
        *,
        top_facts: int = TOP_FACTS,
        passage_weight: float = PASSAGE_WEIGHT,
        k: int = PASSAGES,
    ):
        self.facts, self.relevance = facts, relevance
        self.top_facts, self.passage_weight, self.k = top_facts, passage_weight, k
        self.ids = sorted(texts)
        self.texts = [texts[i] for i in self.ids]
        self.graph = PassageGraph(facts, self.ids)
        self.lexical = BM25Index()
        self.lexical.add(self.texts)

    def find(self, question: str) -> list[Found]:
        fact_scores = np.array(self.relevance.scores(question, [f.text for f in self.facts]))
        if not self.ids:
            return []
        dense = np.array(self.relevance.scores(question, self.texts))
        lexical = np.array(self.lexical.scores(Counter(search_terms(question))))
        closeness = 0.5 * _scaled(dense) + 0.5 * _scaled(lexical)
        return self.graph.rank(
            fact_scores, closeness, top_facts=self.top_facts, passage_weight=self.passage_weight, k=self.k
        )

    def sources(self, question: str) -> list[Source]:
        """The seed facts that led to the top passages (F1, ...), then the passages (P1, ...)."""
        found = self.find(question)
        facts = list({f.key: f for item in found for f in item.facts}.values())
        out = [
            Source(
                f"F{i}",
                f"{f.subject_label} | {f.predicate_label} | {f.object_label}",
                sorted(d for d in f.evidence if d),
                0.0,
                {"subject": f.subject, "predicate": f.predicate, "object": f.object},
            )
            for i, f in enumerate(facts, 1)
        ]
        text = dict(zip(self.ids, self.texts))
        for rank, item in enumerate(found, 1):
            passage = " ".join(text[item.passage].split())[:PASSAGE_CHARS]
            out.append(Source(f"P{rank}", passage, [item.passage], item.score, {"passage": item.passage}))
        return out
