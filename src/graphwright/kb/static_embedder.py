"""``minilm-static``: a static token-embedding model distilled from MiniLM (the model2vec idea).

MiniLM is run once over every vocabulary token on its own (``[CLS] token [SEP]``, mean-pooled, which
is exactly how it embeds a one-token text); the table keeps one vector per token id, centred and
reduced by PCA, each row scaled by a Zipf-style weight so frequent tokens ("the", "of", ",") count
little. A text is then the normalised weighted mean of its tokens' rows: no transformer at query
time, so embedding costs microseconds instead of milliseconds, at the price of word order and
context (a second, genuinely different embedder for the linking benchmark).

The table is built on first use (about 30 s on 2 cores) and cached as ``.npy`` under
``<cache>/embedders/``; later instances only load it.
"""

from __future__ import annotations

import functools
import os
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import numpy as np

from graphwright import paths
from graphwright.kb.embeddings import EMBEDDERS, get_embedder, minilm_tokenizer_file

#: Bump when the distillation changes: the cache file and the KB index folder are keyed by ``name``.
VERSION = 1
# Chosen on a dev set disjoint from the linking benchmark (sentences of the last 300 REBEL-sample
# documents -> property labels, and 600 property descriptions -> labels; recall@10): centring + PCA
# 0.08 -> 0.15 / 0.26 -> 0.43; SIF weighting with a = 1e-3 then 0.29 / 0.70 (a = 1e-4: 0.21 / 0.68,
# 1e-2: 0.32 / 0.65). 256 dims score like 384 (0.29 / 0.70) at 2/3 of the index size; 128 lose 3-5 points.
# MiniLM itself: 0.21 / 0.80. Pooling [CLS] token [SEP] or taking only the token's own state: within 0.02.
DIMS = 256
SIF_A = 1e-3  # weight = a / (a + p(token)), p from Zipf's law on the token's rank
BATCH = 1024

TokenVectors = Callable[[np.ndarray], np.ndarray]  # token ids (n,) -> teacher vectors (n, d)


def minilm_token_vectors(ids: np.ndarray) -> np.ndarray:
    """MiniLM's embedding of each token as a text of its own: mean of ``[CLS] id [SEP]`` states."""
    teacher = get_embedder("minilm")
    cls, sep = _special_ids()
    seqs = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
    return teacher.hidden_states(seqs, np.ones_like(seqs)).mean(axis=1)  # type: ignore[attr-defined]


def zipf_weights(vocab_size: int, first_word_id: int) -> np.ndarray:
    """SIF weights with Zipf frequencies. BERT's vocabulary lists word pieces roughly by frequency
    from ``first_word_id`` ("the") on; the ids below it (specials, single characters) get rank 1."""
    rank = np.clip(np.arange(vocab_size) - first_word_id + 1, 1, None).astype(np.float64)
    p = (1.0 / rank) / np.sum(1.0 / np.arange(1, vocab_size + 1))
    return (SIF_A / (SIF_A + p)).astype(np.float32)


def distil(
    token_vectors: TokenVectors, vocab_size: int, *, dims: int = DIMS, first_word_id: int = 1996, batch: int = BATCH
) -> np.ndarray:
    """The static table (vocab_size, dims): teacher vectors, centred, PCA-reduced, SIF-weighted."""
    raw = np.concatenate(
        [token_vectors(np.arange(s, min(vocab_size, s + batch))) for s in range(0, vocab_size, batch)]
    ).astype(np.float32)
    centred = raw - raw.mean(axis=0)
    # PCA via SVD: drops the direction every token shares (cosine between unrelated tokens
    # is otherwise high) and the weakest components.
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    table = centred @ vt[: min(dims, vt.shape[0])].T
    return (table * zipf_weights(vocab_size, first_word_id)[:, None]).astype(np.float32)


@functools.lru_cache(maxsize=1)
def _special_ids() -> tuple[int, int]:
    tok = _tokenizer()
    return tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")


def _tokenizer():
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(minilm_tokenizer_file()))
    tok.no_padding()  # the shipped tokenizer.json pads every text to 128 tokens
    tok.no_truncation()
    return tok


class StaticEmbedder:
    """Weighted mean of distilled MiniLM token vectors (see the module docstring)."""

    name = f"minilm-static-v{VERSION}-d{DIMS}"

    def __init__(self, *, token_vectors: TokenVectors | None = None, max_tokens: int = 512):
        self._tok = _tokenizer()
        self.max_tokens = max_tokens
        self._empty = [self._tok.token_to_id("[CLS]"), self._tok.token_to_id("[SEP]")]
        self.cache_file = paths.cache_dir() / "embedders" / f"{self.name}.npy"
        self.build_seconds: float | None = None  # set only when this instance built the table
        self.table = self._load_or_build(token_vectors or minilm_token_vectors)
        self.dim = int(self.table.shape[1])

    def _load_or_build(self, token_vectors: TokenVectors) -> np.ndarray:
        if self.cache_file.is_file():
            return np.load(self.cache_file)
        vocab = self._tok.get_vocab_size()
        print(
            f"graphwright: distilling the {self.name} token table from MiniLM ({vocab:,} tokens, "
            f"once per machine, about 30 s; cached in {self.cache_file.parent})",
            file=sys.stderr,
            flush=True,
        )
        t0 = time.perf_counter()
        table = distil(token_vectors, vocab, first_word_id=self._tok.token_to_id("the"))
        self.build_seconds = round(time.perf_counter() - t0, 2)
        _save_atomic(self.cache_file, table)
        return table

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        encs = self._tok.encode_batch([t or "" for t in texts], add_special_tokens=False)
        # An empty text embeds as MiniLM sees it: [CLS] [SEP].
        ids = [e.ids[: self.max_tokens] or self._empty for e in encs]
        flat = np.fromiter((i for row in ids for i in row), dtype=np.int64)
        starts = np.cumsum([0] + [len(row) for row in ids[:-1]])
        out[:] = np.add.reduceat(self.table[flat], starts, axis=0)
        return out / np.clip(np.linalg.norm(out, axis=1, keepdims=True), 1e-12, None)


def _save_atomic(path: Path, table: np.ndarray) -> None:
    # Temp file + rename: a concurrent reader sees the whole table or none. Without a writable
    # cache the table just lives in memory for this process.
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{uuid.uuid4().hex[:8]}.tmp")
        with open(tmp, "wb") as fh:
            np.save(fh, table)
        os.replace(tmp, path)
    except OSError as exc:
        print(f"graphwright: could not cache the static embedder table in {path.parent}: {exc}", file=sys.stderr)


EMBEDDERS.register("minilm-static")(StaticEmbedder)
