"""LocalKB: search and look-ups over a KB directory built by :mod:`graphwright.kb.build`.

Search modes (``kind`` restricts to "entity" or "property"):

* ``label``: exact label, then alias, then fuzzy names (rapidfuzz WRatio >= 0.85), then the rest
  of the candidates by label-embedding similarity.
* ``description``: embedding similarity between the query and descriptions.
* ``example``: properties only; similarity to usage examples, with the property's label and
  aliases standing in as the minimal example (most properties have no resolvable example).
* ``fused`` (default): exact/alias hits first, then weighted reciprocal-rank fusion of the
  fuzzy, label-embedding and description-embedding rankings (entity descriptions only take part
  for queries of 4+ words).

Properties (~12k) have full embedding indices (built on first use, cached in the KB dir);
entities are only ever embedded as the re-ranked lexical candidates of a query.
External-identifier properties (~8.7k, "X ID") are ranked after relation properties unless the
query asks for an identifier ("VIAF ID", "IMDb identifier"): they otherwise swamp sentence-like
queries. Their embedding indices are separate and built only when such a query first comes.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from functools import partial
from pathlib import Path

import numpy as np

from graphwright.errors import DataNotFoundError, UserError
from graphwright.kb.embeddings import Embedder, get_embedder
from graphwright.kb.index_db import DB_NAME, connect_ro, row_to_record
from graphwright.kb.lexical import LexicalIndex, wants_identifier
from graphwright.kb.namespaces import WD, WDT, parse_wikidata_id
from graphwright.kb.rdf import SPARQL_PREFIXES, STORE_NAME, open_store, run_query
from graphwright.kb.records import KINDS, KBHit, KBRecord
from graphwright.kb.vectors import VectorStore

MODES = ("label", "description", "example", "fused")
FUZZY_MIN = 0.85  # WRatio above this counts as a (mis)spelling of the name in "label" mode
RRF_K = 60  # the usual reciprocal-rank-fusion constant
# Fused weights (fuzzy, label embedding, description embedding) per kind. Properties: chosen on 25
# relation sentences and 12 paraphrased definitions (recall@5 0.84 / 0.83, recall@10 0.84 / 1.00;
# equal weights 0.80 / 0.83 and 0.84 / 0.92). Entities: on 150 misspelt labels of the default KB
# (recall@1 0.87 vs 0.75 with the property weights): for names, spelling beats meaning.
FUSION_WEIGHTS = {"property": (1.0, 2.0, 0.5), "entity": (2.0, 1.0, 0.5)}
CANDIDATES = 40  # lexical candidates per kind and source (prefix, FTS5, edit similarity)
EMBED_CANDIDATES = 20  # best lexical candidates per field whose entity texts get embedded
# In fused mode, entity descriptions are embedded only for descriptive queries: a name matches
# names, and embedding 20 descriptions per new query doubles the cold latency (~200 ms).
DESCRIPTIVE_WORDS = 4
DEPTH_LIMIT = 64

Ranked = list[tuple[int, float]]  # (record rowid, score), best first


class LocalKB:
    """A knowledge base on local disk: SQLite (records, names, FTS5) + pyoxigraph (hierarchy)."""

    def __init__(self, path: Path | str, *, embedder: Embedder | str | None = None):
        self.path = Path(path)
        manifest = self.path / "manifest.json"
        if not manifest.is_file():
            raise DataNotFoundError(
                f"no KB at {self.path.resolve()}: {manifest.name} is missing "
                f"(build one with `graphwright kb build` or graphwright.kb.build_kb)"
            )
        self.manifest = json.loads(manifest.read_text(encoding="utf-8"))
        self._lock = threading.Lock()
        self._con = connect_ro(self.path / DB_NAME)
        self._store = open_store(self.path / STORE_NAME)
        self._lex = LexicalIndex(self._con, self._lock)
        self._embedder_spec = embedder or self.manifest.get("embedder", "minilm")
        self._vectors: VectorStore | None = None

    # ---- lifecycle -------------------------------------------------------------------------
    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> LocalKB:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"LocalKB({str(self.path)!r})"

    @property
    def vectors(self) -> VectorStore:
        if self._vectors is None:  # the model loads on the first embedding search, not at open
            emb = self._embedder_spec
            self._vectors = VectorStore(self.path, get_embedder(emb) if isinstance(emb, str) else emb)
        return self._vectors

    # ---- look-ups --------------------------------------------------------------------------
    def _rows(self, sql: str, params: Iterable = ()) -> list:
        with self._lock:
            return self._con.execute(sql, tuple(params)).fetchall()

    def _records(self, rowids: list[int]) -> dict[int, KBRecord]:
        out: dict[int, KBRecord] = {}
        for start in range(0, len(rowids), 500):
            chunk = rowids[start : start + 500]
            for row in self._rows(f"SELECT * FROM records WHERE rowid IN ({','.join('?' * len(chunk))})", chunk):
                out[row["rowid"]] = row_to_record(row)
        return out

    def get(self, id_or_iri: str) -> KBRecord | None:
        """The record for ``Q42``, ``wd:Q42``, ``wdt:P31``, a full ``wd:``/``wdt:`` IRI; else None."""
        rid = parse_wikidata_id(id_or_iri) if isinstance(id_or_iri, str) else None
        if rid is None:
            return None
        rows = self._rows("SELECT * FROM records WHERE id = ?", (rid,))
        return row_to_record(rows[0]) if rows else None

    def contains(self, id_or_iri: str) -> bool:
        rid = parse_wikidata_id(id_or_iri) if isinstance(id_or_iri, str) else None
        return bool(rid and self._rows("SELECT 1 FROM records WHERE id = ?", (rid,)))

    def label(self, id_or_iri: str) -> str | None:
        rec = self.get(id_or_iri)
        return rec.label if rec and rec.label else None

    def find_label(self, label: str, *, kind: str | None = None) -> list[KBRecord]:
        """Records whose label or alias equals ``label`` (case-insensitive), labels first."""
        hits = self._lex.exact(label, self._kinds(kind))
        recs = self._records([r for r, _ in hits])
        return [recs[r] for r, _ in hits if r in recs]

    # ---- hierarchy (SPARQL on the RDF store) ------------------------------------------------
    def sparql(self, query: str):
        """Run SPARQL (wd:, wdt:, rdfs:, skos:, schema:, wikibase: are predeclared).

        SELECT -> list of {variable: value} (IRIs and literals as strings); ASK -> bool;
        CONSTRUCT/DESCRIBE -> list of (subject, predicate, object) strings.
        """
        try:
            return run_query(self._store, SPARQL_PREFIXES + query)
        except SyntaxError as exc:
            raise UserError(f"invalid SPARQL: {exc}") from exc

    def _objects(self, subject: str, pid: str) -> list[str]:
        rows = self.sparql(f"SELECT ?o WHERE {{ wd:{subject} wdt:{pid} ?o }}")
        return _sorted_ids(r["o"] for r in rows)

    def _subjects(self, pid: str, obj: str) -> list[str]:
        rows = self.sparql(f"SELECT ?s WHERE {{ ?s wdt:{pid} wd:{obj} }}")
        return _sorted_ids(r["s"] for r in rows)

    def _as_records(self, ids: list[str]) -> list[KBRecord]:
        found = {r.id: r for r in self._records_by_id(ids)}
        # Ids without a record (outside the catalogue) still come back, with no label.
        return [found.get(i) or KBRecord(id=i, kind="property" if i.startswith("P") else "entity") for i in ids]

    def _records_by_id(self, ids: list[str]) -> list[KBRecord]:
        if not ids:
            return []
        return [
            row_to_record(r) for r in self._rows(f"SELECT * FROM records WHERE id IN ({','.join('?' * len(ids))})", ids)
        ]

    def super_properties(self, pid: str) -> list[KBRecord]:
        """Direct P1647 (subproperty of) parents."""
        p = _valid_id(pid, "P")
        return self._as_records(self._objects(p, "P1647")) if p else []

    def sub_properties(self, pid: str) -> list[KBRecord]:
        """Properties that declare ``pid`` as a direct P1647 parent."""
        p = _valid_id(pid, "P")
        return self._as_records(self._subjects("P1647", p)) if p else []

    def types(self, qid: str) -> list[str]:
        """Direct P31 (instance of) classes."""
        q = _valid_id(qid)
        return self._objects(q, "P31") if q else []

    def superclasses(self, qid: str, depth: int = 1) -> list[str]:
        """P279 ancestors up to ``depth`` levels, nearest first (cycles are cut)."""
        q = _valid_id(qid)
        if not q:
            return []
        seen, frontier, out = {q}, [q], []
        for _ in range(min(max(depth, 0), DEPTH_LIMIT)):
            nxt = [c for node in frontier for c in self._objects(node, "P279") if c not in seen]
            nxt = list(dict.fromkeys(nxt))
            seen.update(nxt)
            out += nxt
            frontier = nxt
            if not frontier:
                break
        return out

    def warm_up(self) -> None:
        """Load (or build, the first time) the embedding model and property indices now, so that
        timed work (benchmarks, the first document of a run) does not pay for them."""
        for mode in ("fused", "example"):
            self.search("warm up", kind="property", mode=mode, k=1)
        self.search("warm up", kind="entity", mode="fused", k=1)

    def stats(self) -> dict:
        counts = {k: n for k, n in self._rows("SELECT kind, COUNT(*) FROM records WHERE searchable = 1 GROUP BY kind")}
        return {
            "path": str(self.path),
            "entities": counts.get("entity", 0),
            "properties": counts.get("property", 0),
            "triples": len(self._store),
            "manifest": self.manifest,
            "embedding_indices": self._vectors.cached_indices() if self._vectors else None,
        }

    # ---- search ----------------------------------------------------------------------------
    @staticmethod
    def _kinds(kind: str | None) -> list[str]:
        if kind is None:
            return list(KINDS)
        if kind not in KINDS:
            raise UserError(f"unknown kind {kind!r}; use 'entity', 'property' or None")
        return [kind]

    def search(self, query: str, *, kind: str | None = None, mode: str = "fused", k: int = 5) -> list[KBHit]:
        """Best ``k`` records for ``query`` (see the module docstring for the modes)."""
        if mode not in MODES:
            raise UserError(f"unknown search mode {mode!r}; valid modes: {', '.join(MODES)}")
        kinds = self._kinds(kind)
        query = (query or "").strip()
        if mode == "example":
            kinds = [x for x in kinds if x == "property"]
        if not query or not kinds or k <= 0:
            return []
        exact = self._lex.exact(query, kinds) if mode in ("label", "fused") else []
        demote = set() if wants_identifier(query) else self._lex.identifiers()
        if mode == "label":
            fuzzy = self._fuzzy(query, kinds)
            close = _demoted([x for x in fuzzy if x[1] >= FUZZY_MIN], demote)
            similar = _demoted(self._embedding(query, kinds, "label", fuzzy, demote), demote)
            ranked = (
                [(r, 1.0, how) for r, how in exact]
                + [(r, s, "fuzzy") for r, s in close]
                + [(r, s, "embedding") for r, s in similar]
            )
        elif mode in ("description", "example"):
            similar = _demoted(self._embedding(query, kinds, mode, None, demote), demote)
            ranked = [(r, s, "embedding") for r, s in similar]
        else:
            fused: Ranked = []
            for kd in kinds:  # fused per kind (own weights), then merged by RRF score
                fuzzy = self._fuzzy(query, [kd])
                lists = [
                    fuzzy,
                    self._embedding(query, [kd], "label", fuzzy, demote),
                    self._embedding(query, [kd], "description", fuzzy, demote),
                ]
                fused += _rrf([_demoted(lst, demote) for lst in lists], FUSION_WEIGHTS[kd])
            fused.sort(key=lambda x: -x[1])
            ranked = [(r, 1.0, how) for r, how in exact] + [(r, s, "fused") for r, s in fused]
        return self._hits(ranked, k, mode)

    def _hits(self, ranked: list[tuple[int, float, str]], k: int, mode: str) -> list[KBHit]:
        chosen: dict[int, tuple[float, str]] = {}
        for rec, score, how in ranked:
            if rec not in chosen:
                chosen[rec] = (score, how)
            if len(chosen) == k:
                break
        recs = self._records(list(chosen))
        return [
            KBHit(record=recs[r], score=round(float(s), 4), matched=how, mode=mode)
            for r, (s, how) in chosen.items()
            if r in recs
        ]

    def _fuzzy(self, query: str, kinds: list[str]) -> Ranked:
        """Candidates from FTS5 + edit similarity, scored by WRatio, best first."""
        out: Ranked = []
        for kind in kinds:
            cands = list(
                dict.fromkeys(
                    self._lex.prefix(query, [kind], CANDIDATES // 2)
                    + self._lex.fts_names(query, [kind], 2 * CANDIDATES)
                    + self._lex.ratio_candidates(query, kind, CANDIDATES)
                )
            )
            out += self._lex.fuzzy_scores(query, kind, cands).items()
        return sorted(out, key=lambda x: -x[1])

    def _embedding(self, query: str, kinds: list[str], field: str, lexical: Ranked | None, demote: set[int]) -> Ranked:
        """Cosine ranking on one field: full index for properties, re-ranked candidates for entities."""
        qvec = self.vectors.query(query)
        out: Ranked = []
        if "property" in kinds:
            out += self._property_scores(qvec, field, demote)
        # lexical is None in "description" mode itself, where entity descriptions always count.
        descriptive = lexical is None or len(query.split()) >= DESCRIPTIVE_WORDS
        if "entity" in kinds and (field == "label" or (field == "description" and descriptive)):
            out += self._entity_scores(query, qvec, field, lexical)
        return sorted(out, key=lambda x: -x[1])

    def _property_scores(self, qvec: np.ndarray, field: str, demote: set[int], top: int = 100) -> Ranked:
        # Identifier properties (3/4 of the catalogue) live in separate indices that are only built
        # and searched when the query asks for an identifier; otherwise they would only fill the
        # ranks after every relation property anyway (and triple the first-use embedding time).
        groups = ("rel",) if demote else ("rel", "ids")
        recs: np.ndarray | None = None
        scores: np.ndarray | None = None
        for name in ("label", "example") if field == "example" else (field,):
            parts = [
                self.vectors.full(f"property_{name}_{g}", partial(self._property_rows, name, g == "ids"))
                for g in groups
            ]
            r = np.concatenate([p.recs for p in parts])
            s = np.concatenate([p.scores(qvec) for p in parts])
            if recs is None or not len(recs):
                recs, scores = r, s
            elif len(r):  # example mode: the better of example and label similarity
                dense = np.full(int(max(recs.max(), r.max())) + 1, -np.inf, dtype=np.float32)
                dense[recs] = scores
                dense[r] = np.maximum(dense[r], s)
                recs = np.flatnonzero(dense > -np.inf)
                scores = dense[recs]
        if recs is None or not len(recs):
            return []
        assert scores is not None  # set together with recs
        n = min(top, len(scores))
        part = np.argpartition(-scores, n - 1)[:n]
        order = part[np.argsort(-scores[part], kind="stable")]
        return list(zip(recs[order].tolist(), scores[order].tolist()))

    def _property_rows(self, field: str, identifiers: bool) -> list[tuple[int, str]]:
        rows = self._rows(
            "SELECT rowid, label, description, data FROM records "
            "WHERE kind = 'property' AND searchable = 1 AND identifier = ? ORDER BY rowid",
            (int(identifiers),),
        )
        out: list[tuple[int, str]] = []
        for r in rows:
            data = json.loads(r["data"])
            if field == "label":
                out += [(r["rowid"], t) for t in dict.fromkeys([r["label"], *data.get("aliases", [])]) if t]
            elif field == "description":
                out.append((r["rowid"], r["description"] or r["label"]))
            else:
                out += [(r["rowid"], t) for t in data.get("examples", [])]
        return out

    def _entity_scores(self, query: str, qvec: np.ndarray, field: str, lexical: Ranked | None) -> Ranked:
        lexical = lexical if lexical is not None else self._fuzzy(query, ["entity"])
        ent = [r for r, _ in lexical]
        cands = (
            ent[:EMBED_CANDIDATES]
            if field == "label"
            else list(
                dict.fromkeys(
                    self._lex.fts_descriptions(query, ["entity"], EMBED_CANDIDATES // 2) + ent[: EMBED_CANDIDATES // 2]
                )
            )
        )
        if not cands:
            return []
        col = "label" if field == "label" else "description"
        rows = self._rows(
            f"SELECT rowid, {col} AS t FROM records WHERE kind = 'entity' AND rowid IN ({','.join('?' * len(cands))})",
            cands,
        )
        items = [(r["rowid"], r["t"]) for r in rows if r["t"]]
        if not items:
            return []
        sims = self.vectors.texts(f"entity_{col}", items) @ qvec
        return [(r, float(s)) for (r, _), s in zip(items, sims)]


def _sorted_ids(values: Iterable[str]) -> list[str]:
    ids = {parse_wikidata_id(v) for v in values if isinstance(v, str) and (v.startswith(WD) or v.startswith(WDT))}
    return sorted((i for i in ids if i), key=lambda i: (i[0], int(i[1:])))


def _valid_id(value: str, prefix: str = "") -> str | None:
    rid = parse_wikidata_id(value) if isinstance(value, str) else None
    return rid if rid and rid.startswith(prefix) else None


def _demoted(ranked: Ranked, demote: set[int]) -> Ranked:
    """Stable partition: demoted records (identifier properties) after all others."""
    if not demote:
        return ranked
    return [x for x in ranked if x[0] not in demote] + [x for x in ranked if x[0] in demote]


def _rrf(lists: list[Ranked], weights: tuple[float, ...]) -> Ranked:
    """Weighted reciprocal-rank fusion: sum of weight / (RRF_K + rank)."""
    scores: dict[int, float] = {}
    for lst, weight in zip(lists, weights):
        for rank, (rec, _) in enumerate(lst):
            scores[rec] = scores.get(rec, 0.0) + weight / (RRF_K + rank + 1)
    return sorted(scores.items(), key=lambda x: -x[1])
