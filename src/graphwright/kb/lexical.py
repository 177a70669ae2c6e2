"""Lexical candidate generation over the KB's names: exact keys, FTS5 and rapidfuzz.

Whole-catalogue WRatio over ~120k entity names costs ~450 ms a query, plain ``ratio`` ~25 ms;
so typos are found with ``ratio`` over everything plus FTS5 word matches, and only that small
candidate set is re-scored with WRatio (which also rewards partial and token matches).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import defaultdict

import numpy as np
from rapidfuzz import fuzz, process, utils

from graphwright.kb.index_db import fts_query, normalize

# Queries that ask for an identifier keep external-id properties in place.
_THE = re.compile(r"^the ")
_WANTS_ID = re.compile(r"\b(id|ids|identifier|identifer|code|number|no|url|uri|isbn|issn|handle|key)\b", re.I)


def wants_identifier(query: str) -> bool:
    return bool(_WANTS_ID.search(query))


class _KindNames:
    """All names of one kind, preprocessed for rapidfuzz, with their record rowids."""

    def __init__(self, rows: list[tuple[int, str]]):
        self.recs = np.fromiter((r for r, _ in rows), dtype=np.int64, count=len(rows))
        self.names = [utils.default_process(n) for _, n in rows]
        self.by_rec: dict[int, list[str]] = defaultdict(list)
        for rec, name in zip(self.recs.tolist(), self.names):
            self.by_rec[rec].append(name)


class LexicalIndex:
    def __init__(self, con: sqlite3.Connection, lock: threading.Lock):
        self._con, self._lock = con, lock
        self._names: dict[str, _KindNames] = {}
        self._identifiers: set[int] | None = None

    def _sql(self, query: str, params: tuple = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._con.execute(query, params).fetchall()

    def exact(self, query: str, kinds: list[str]) -> list[tuple[int, str]]:
        """(rowid, "exact"|"alias") for records whose label/alias equals the query (normalised);
        "the United States" falls back to "United States" when nothing matches with the article."""
        key = normalize(query)
        marks = ",".join("?" * len(kinds))
        for k in dict.fromkeys([key, _THE.sub("", key)]):
            if not k:
                continue
            rows = self._sql(
                f"SELECT n.rec, MIN(n.is_alias) AS a FROM names n WHERE n.norm = ? "
                f"AND n.kind IN ({marks}) GROUP BY n.rec ORDER BY a, n.rec",
                (k, *kinds),
            )
            if rows:
                return [(r["rec"], "alias" if r["a"] else "exact") for r in rows]
        return []

    def prefix(self, query: str, kinds: list[str], limit: int) -> list[int]:
        """Records with a name that starts with the query, shortest names first (index range scan)."""
        key = normalize(query)
        if len(key) < 3:
            return []
        marks = ",".join("?" * len(kinds))
        rows = self._sql(
            f"SELECT rec FROM (SELECT rec, norm FROM names WHERE norm >= ? AND norm < ? "
            f"AND kind IN ({marks}) LIMIT 2000) ORDER BY length(norm) LIMIT ?",
            (key, key + "\U0010ffff", *kinds, limit),
        )
        return list(dict.fromkeys(r["rec"] for r in rows))

    def fts_names(self, query: str, kinds: list[str], limit: int) -> list[int]:
        q = fts_query(query)
        if not q:
            return []
        marks = ",".join("?" * len(kinds))
        rows = self._sql(
            f"SELECT n.rec FROM names_fts f JOIN names n ON n.rowid = f.rowid WHERE names_fts MATCH ? "
            f"AND n.kind IN ({marks}) ORDER BY f.rank LIMIT ?",
            (q, *kinds, limit * 3),
        )
        return list(dict.fromkeys(r["rec"] for r in rows))[:limit]

    def fts_descriptions(self, query: str, kinds: list[str], limit: int) -> list[int]:
        q = fts_query(query)
        if not q:
            return []
        marks = ",".join("?" * len(kinds))
        rows = self._sql(
            f"SELECT r.rowid FROM desc_fts f JOIN records r ON r.rowid = f.rowid WHERE desc_fts MATCH ? "
            f"AND r.searchable = 1 AND r.kind IN ({marks}) ORDER BY f.rank LIMIT ?",
            (q, *kinds, limit),
        )
        return [r["rowid"] for r in rows]

    def _kind_names(self, kind: str) -> _KindNames:
        # Loaded on first fuzzy search (~0.2 s for the default KB), then kept.
        if kind not in self._names:
            rows = self._sql("SELECT rec, name FROM names WHERE kind = ? ORDER BY rowid", (kind,))
            self._names[kind] = _KindNames([(r["rec"], r["name"]) for r in rows])
        return self._names[kind]

    def ratio_candidates(self, query: str, kind: str, limit: int) -> list[int]:
        """Records whose names are closest by edit similarity (finds whole-name misspellings)."""
        names = self._kind_names(kind)
        q = utils.default_process(query)
        if not q or not names.names:
            return []
        hits = process.extract(q, names.names, scorer=fuzz.ratio, processor=None, limit=limit * 2, score_cutoff=50)
        return list(dict.fromkeys(int(names.recs[i]) for _, _, i in hits))[:limit]

    def fuzzy_scores(self, query: str, kind: str, recs: list[int]) -> dict[int, float]:
        """Best WRatio (0-1) over each record's label and aliases.

        WRatio ties a lot (any name containing all query words scores 0.95), so plain ratio is
        added as a tie-breaker worth at most 0.001: "United States" prefers "United States of
        America" over "Iowa, United States"."""
        names = self._kind_names(kind)
        q = utils.default_process(query)
        out: dict[int, float] = {}
        for rec in recs:
            best = max(((fuzz.WRatio(q, n), fuzz.ratio(q, n)) for n in names.by_rec.get(rec, ())), default=(0.0, 0.0))
            out[rec] = best[0] / 100.0 + best[1] / 100_000.0
        return out

    def identifiers(self) -> set[int]:
        if self._identifiers is None:
            self._identifiers = {r["rowid"] for r in self._sql("SELECT rowid FROM records WHERE identifier = 1")}
        return self._identifiers
