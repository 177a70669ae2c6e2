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
from typing import Literal, Protocol

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


class _Lexical:
    """Shared bookkeeping of the two lexical indices: term counts per text and document frequencies."""

    def __init__(self) -> None:
        self.docs: list[Counter] = []
        self.lengths: list[int] = []
        self.df: Counter = Counter()

    def add(self, texts: list[str]) -> None:
        for text in texts:
            counts = Counter(search_terms(text))
            self.docs.append(counts)
            self.lengths.append(sum(counts.values()))
            self.df.update(counts.keys())

    def __len__(self) -> int:
        return len(self.docs)

    def top(self, query: str, k: int) -> list[int]:
        scores = self.scores(Counter(search_terms(query)))
        return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]

    def scores(self, query: Counter) -> list[float]:
        raise NotImplementedError


class TfIdfIndex(_Lexical):
    """Cosine of smoothed TF-IDF vectors (idf = ln((1+n)/(1+df)) + 1)."""

    def __init__(self) -> None:
        super().__init__()
        self._vectors: list[dict[str, float]] | None = None  # rebuilt after an add: idf changes

    def add(self, texts: list[str]) -> None:
        super().add(texts)
        self._vectors = None

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


class BM25Index(_Lexical):
    """Okapi BM25 with k1 = 1.5, b = 0.75 and the non-negative idf ln(1 + (n - df + 0.5) / (df + 0.5))."""

    k1, b = 1.5, 0.75

    def scores(self, query: Counter) -> list[float]:
        n = len(self.docs)
        mean_len = (sum(self.lengths) / n) if n else 1.0
        idf = {t: math.log(1 + (n - self.df[t] + 0.5) / (self.df[t] + 0.5)) for t in query if self.df.get(t)}
        out = []
        for doc, length in zip(self.docs, self.lengths):
            norm = self.k1 * (1 - self.b + self.b * length / (mean_len or 1.0))
            out.append(sum(w * doc[t] * (self.k1 + 1) / (doc[t] + norm) for t, w in idf.items() if t in doc))
        return out


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
