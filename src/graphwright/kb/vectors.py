"""Embedding indices for a KB directory.

* Full indices (every property's labels+aliases, descriptions, examples) are built on first use
  and cached as float16 ``.npy`` under ``<kb>/embeddings/<model>/``; later opens just load them.
* Entity texts are never embedded wholesale (tens of thousands): the few lexical candidates of a
  query are embedded on the fly and memoised in a bounded in-memory cache.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from graphwright.kb.embeddings import Embedder

RowSource = Callable[[], list[tuple[int, str]]]  # -> [(record rowid, text)], grouped by record


class FullIndex:
    """Rows of (record, text) vectors; scores are the max over a record's rows."""

    def __init__(self, recs: np.ndarray, matrix: np.ndarray):
        self.matrix = matrix.astype(np.float32)  # float32 matmul is ~3x faster than float16 in numpy
        starts = np.flatnonzero(np.r_[True, recs[1:] != recs[:-1]]) if len(recs) else np.zeros(0, dtype=np.int64)
        self._starts = starts
        self.recs = recs[starts] if len(recs) else recs

    def scores(self, qvec: np.ndarray) -> np.ndarray:
        """Cosine per record (aligned with ``self.recs``)."""
        if not len(self.recs):
            return np.zeros(0, dtype=np.float32)
        return np.maximum.reduceat(self.matrix @ qvec, self._starts)


class VectorStore:
    def __init__(self, kb_dir: Path, embedder: Embedder, memo_size: int = 50_000):
        self.embedder = embedder
        self.dir = kb_dir / "embeddings" / re.sub(r"[^A-Za-z0-9_.-]+", "_", embedder.name)
        self._full: dict[str, FullIndex] = {}
        self._memo: OrderedDict[tuple[str, int], np.ndarray] = OrderedDict()
        self._memo_size = memo_size
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.RLock()
        self.build_seconds: dict[str, float] = {}

    def query(self, text: str) -> np.ndarray:
        with self._lock:
            if text in self._queries:
                self._queries.move_to_end(text)
                return self._queries[text]
        vec = self.embedder.embed([text])[0]
        with self._lock:
            self._queries[text] = vec
            if len(self._queries) > 1024:
                self._queries.popitem(last=False)
        return vec

    def clear_memo(self) -> None:
        """Forget memoised query and entity-text vectors (not the full indices), so that benchmarks
        can time each search mode from the same state."""
        with self._lock:
            self._queries.clear()
            self._memo.clear()

    def full(self, name: str, rows: RowSource) -> FullIndex:
        with self._lock:
            if name not in self._full:
                self._full[name] = self._load_or_build(name, rows)
            return self._full[name]

    def cached_indices(self) -> list[str]:
        return sorted(p.name[:-4] for p in self.dir.glob("*.npy")) if self.dir.is_dir() else []

    def _load_or_build(self, name: str, rows: RowSource) -> FullIndex:
        npy, ids = self.dir / f"{name}.npy", self.dir / f"{name}.rows.json"
        if npy.is_file() and ids.is_file():
            return FullIndex(np.asarray(json.loads(ids.read_text()), dtype=np.int64), np.load(npy))
        data = rows()
        t0 = time.perf_counter()
        print(
            f"graphwright: embedding {len(data):,} texts for the {name!r} index with {self.embedder.name} "
            f"(once per KB; cached in {self.dir})",
            file=sys.stderr,
            flush=True,
        )
        matrix = self.embedder.embed([t for _, t in data]).astype(np.float16)
        recs = np.asarray([r for r, _ in data], dtype=np.int64)
        self.build_seconds[name] = round(time.perf_counter() - t0, 2)
        self._save(npy, ids, matrix, recs)
        return FullIndex(recs, matrix)

    def _save(self, npy: Path, ids: Path, matrix: np.ndarray, recs: np.ndarray) -> None:
        # Temp file + rename: concurrent readers never see a partial file. A read-only KB dir
        # just means the index lives in memory for this process.
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            tag = uuid.uuid4().hex[:8]
            tmp_npy, tmp_ids = npy.with_suffix(f".{tag}.tmp"), ids.with_suffix(f".{tag}.tmp")
            with open(tmp_npy, "wb") as fh:
                np.save(fh, matrix)
            tmp_ids.write_text(json.dumps(recs.tolist()))
            os.replace(tmp_ids, ids)
            os.replace(tmp_npy, npy)
        except OSError as exc:
            print(f"graphwright: could not cache embeddings in {self.dir}: {exc}", file=sys.stderr)

    def texts(self, field: str, items: list[tuple[int, str]]) -> np.ndarray:
        """Vectors for (rowid, text) pairs of one field, embedding only those not memoised yet."""
        with self._lock:
            missing = [(r, t) for r, t in items if (field, r) not in self._memo]
        if missing:
            vecs = self.embedder.embed([t for _, t in missing])
            with self._lock:
                for (r, _), v in zip(missing, vecs):
                    self._memo[(field, r)] = v
                while len(self._memo) > self._memo_size:
                    self._memo.popitem(last=False)
        with self._lock:
            out = [self._memo.get((field, r)) for r, _ in items]
        # An entry evicted between the two steps is simply re-embedded.
        return (
            np.stack([v if v is not None else self.embedder.embed([t])[0] for v, (_, t) in zip(out, items)])
            if items
            else np.zeros((0, self.embedder.dim), dtype=np.float32)
        )
