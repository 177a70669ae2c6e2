"""Top-k text retrieval over a list of texts: random, TF-IDF, BM25 or sentence embeddings.

These are the four sample retrievers AgentRE compares (paper 001, Table 3; SimCSE and BGE are
replaced by the embedder the KB already ships). Lexical indices count graphwright.text's search terms
(CJK text in character bigrams, so Chinese needs no segmenter). Every index can grow (memory adds entries).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Iterable
from typing import Literal, Protocol

import bm25s
import numpy as np

from graphwright.text import search_terms

RetrieverKind = Literal["embedding", "bm25", "tfidf", "random"]
RETRIEVERS: tuple[str, ...] = ("embedding", "bm25", "tfidf", "random")


class TextIndex(Protocol):
    def add(self, texts: list[str]) -> None: ...

    def top(self, query: str, k: int) -> list[int]:
        """Positions of the ``k`` best texts, best first (fewer when the index is smaller)."""
        ...

    def __len__(self) -> int: ...


class RandomIndex:
    """k random texts per query, reproducible from the seed and the query."""

    def __init__(self, seed: int = 0):
        self.seed, self.size = seed, 0

    def add(self, texts: list[str]) -> None:
        self.size += len(texts)

    def top(self, query: str, k: int) -> list[int]:
        rng = random.Random(f"{self.seed}:{query}")
        return rng.sample(range(self.size), min(k, self.size))

    def __len__(self) -> int:
        return self.size


def _best(scores: list[float], k: int) -> list[int]:
    """Positions of the ``k`` highest scores, the earlier text first among equals."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]


class BM25Index:
    """Okapi BM25 by bm25s (Lucene's: k1 = 1.5, b = 0.75, idf ln(1 + (n - df + 0.5) / (df + 0.5))), over
    graphwright.text's search terms. An add (memory grows) rebuilds the index at the next query."""

    k1, b = 1.5, 0.75

    def __init__(self) -> None:
        self.terms: list[list[str]] = []
        self._index: bm25s.BM25 | None = None

    def add(self, texts: list[str]) -> None:
        self.terms += [search_terms(text) for text in texts]
        self._index = None

    def __len__(self) -> int:
        return len(self.terms)

    def scores(self, query: Iterable[str]) -> list[float]:
        """Each text's score for the query's terms (each counted once)."""
        if not self.terms:
            return []
        if self._index is None:
            self._index = bm25s.BM25(k1=self.k1, b=self.b, method="lucene", dtype="float64")
            self._index.index(self.terms, show_progress=False)
        known = [term for term in dict.fromkeys(query) if term in self._index.vocab_dict]
        return self._index.get_scores(known).tolist() if known else [0.0] * len(self.terms)

    def top(self, query: str, k: int) -> list[int]:
        return _best(self.scores(search_terms(query)), k)


class TfIdfIndex:
    """Cosine of smoothed TF-IDF vectors (idf = ln((1+n)/(1+df)) + 1): AgentRE's TF-IDF retriever, kept for
    the paper's comparison of retrievers (BM25 is the keyword engine everywhere else)."""

    def __init__(self) -> None:
        self.docs: list[Counter] = []
        self.df: Counter = Counter()
        self._vectors: list[dict[str, float]] | None = None  # rebuilt after an add: idf changes

    def add(self, texts: list[str]) -> None:
        for text in texts:
            counts = Counter(search_terms(text))
            self.docs.append(counts)
            self.df.update(counts.keys())
        self._vectors = None

    def __len__(self) -> int:
        return len(self.docs)

    def _vector(self, counts: Counter) -> dict[str, float]:
        n = len(self.docs)
        vec = {t: c * (math.log((1 + n) / (1 + self.df.get(t, 0))) + 1) for t, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {t: v / norm for t, v in vec.items()}

    def scores(self, query: Counter) -> list[float]:
        if self._vectors is None:
            self._vectors = [self._vector(d) for d in self.docs]
        q = self._vector(query)
        return [sum(w * doc.get(t, 0.0) for t, w in q.items()) for doc in self._vectors]

    def top(self, query: str, k: int) -> list[int]:
        return _best(self.scores(Counter(search_terms(query))), k)


class EmbeddingIndex:
    """Cosine similarity of sentence embeddings (the KB's embedder, all-MiniLM-L6-v2 by default)."""

    def __init__(self, embedder_name: str = "minilm"):
        from graphwright.kb.embeddings import get_embedder

        self.embedder = get_embedder(embedder_name)
        self.matrix = np.zeros((0, self.embedder.dim), dtype=np.float32)

    def add(self, texts: list[str]) -> None:
        if texts:
            self.matrix = np.vstack([self.matrix, self._embed(texts)])

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Large batches (a labelled pool) are cached on disk: every run over a dataset embeds the same
        1,000 sentences, which costs about half a minute on 2 cores."""
        if len(texts) < 100:
            return self.embedder.embed(texts)
        from graphwright.paths import cache_dir

        key = hashlib.sha256("\n".join([self.embedder.name, *texts]).encode("utf-8")).hexdigest()[:24]
        path = cache_dir() / "text-embeddings" / f"{key}.npy"
        if path.is_file():
            return np.load(path)
        matrix = self.embedder.embed(texts)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npy")
        np.save(tmp, matrix)
        tmp.replace(path)
        return matrix

    def top(self, query: str, k: int) -> list[int]:
        if not len(self.matrix):
            return []
        scores = self.matrix @ self.embedder.embed([query])[0]
        order = np.argsort(-scores, kind="stable")
        return [int(i) for i in order[:k]]

    def __len__(self) -> int:
        return len(self.matrix)


def make_index(
    kind: RetrieverKind, texts: list[str] | None = None, *, seed: int = 0, embedder: str = "minilm"
) -> TextIndex:
    index: TextIndex
    if kind == "embedding":
        index = EmbeddingIndex(embedder)
    elif kind == "bm25":
        index = BM25Index()
    elif kind == "tfidf":
        index = TfIdfIndex()
    elif kind == "random":
        index = RandomIndex(seed)
    else:
        raise ValueError(f"unknown retriever {kind!r}; choose one of {', '.join(RETRIEVERS)}")
    index.add(list(texts or []))
    return index
