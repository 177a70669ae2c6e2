"""WikidataKB: the LocalKB API over the live Wikidata Action API and SPARQL endpoint.

* search: ``wbsearchentities`` (labels and aliases) for the "label"/"fused" modes; CirrusSearch
  full text (``list=search``, which also covers descriptions and statements) for "description"
  and "example" ("example" searches properties only).
* get: ``wbgetentities`` (label, aliases, description, P31, P1647, datatype, P1855 examples with
  their value qualifier, rendered with labels).
* hierarchy, types and label look-ups: SPARQL. Ids are validated and strings escaped before they
  enter a query.
Every response is cached on disk (SQLite under ``paths.cache_dir()``) for ``ttl`` seconds, and
requests carry a descriptive User-Agent as Wikimedia's policy asks.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from graphwright import paths
from graphwright.environment import package_version
from graphwright.errors import GraphwrightError, UserError
from graphwright.kb.namespaces import is_wikidata_id, parse_wikidata_id
from graphwright.kb.rdf import SPARQL_PREFIXES
from graphwright.kb.records import KINDS, KBHit, KBRecord
from graphwright.retry import Backoff
from graphwright.sparql import sparql_literal

API_URL = "https://www.wikidata.org/w/api.php"
SPARQL_URL = "https://query.wikidata.org/sparql"
# Wikimedia asks for a descriptive agent with contact details: pass user_agent=... to add yours.
USER_AGENT = (
    f"graphwright/{package_version()} (knowledge-graph extraction from text; "
    f"set a contact with WikidataKB(user_agent=...)) python-httpx/{httpx.__version__}"
)
MODES = ("label", "description", "example", "fused")


class KBUnavailableError(GraphwrightError):
    """The remote knowledge base could not be reached or answered with an error, after retries."""


class _ResponseCache:
    """(method, url, params) -> response text, in SQLite (WAL: several processes may share it)."""

    def __init__(self, path: Path, ttl: float):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path, self.ttl = path, ttl
        self._con = sqlite3.connect(path, check_same_thread=False, timeout=30)
        self._con.execute("PRAGMA journal_mode=WAL")
        self._con.execute("CREATE TABLE IF NOT EXISTS responses(key TEXT PRIMARY KEY, created REAL, body TEXT)")
        self._lock = threading.Lock()

    @staticmethod
    def key(method: str, url: str, params: dict) -> str:
        blob = json.dumps([method, url, sorted(params.items())], ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._con.execute("SELECT created, body FROM responses WHERE key = ?", (key,)).fetchone()
        return row[1] if row and time.time() - row[0] < self.ttl else None

    def put(self, key: str, body: str) -> None:
        with self._lock:
            self._con.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?)", (key, time.time(), body))
            self._con.commit()

    def count(self) -> int:
        with self._lock:
            return self._con.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        self._con.close()


class _Busy(Exception):
    """The service answered 429 or 5xx: try again, after ``retry_after`` seconds when it said."""

    def __init__(self, message: str, retry_after: float | None):
        super().__init__(message)
        self.retry_after = retry_after


class WikidataKB:
    """Live Wikidata with the LocalKB search/get/hierarchy API (English labels)."""

    def __init__(
        self,
        *,
        api_url: str = API_URL,
        sparql_url: str = SPARQL_URL,
        user_agent: str = USER_AGENT,
        cache_path: Path | str | None = None,
        ttl: float = 30 * 86400,
        timeout: float = 30.0,
        retries: int = 3,
        language: str = "en",
    ):
        self.api_url, self.sparql_url, self.language = api_url, sparql_url, language
        self.backoff = Backoff(attempts=retries, base=1.0, cap=10.0)
        self._http = httpx.Client(headers={"User-Agent": user_agent}, timeout=timeout, follow_redirects=True)
        cache = Path(cache_path) if cache_path else paths.cache_dir() / "wikidata" / "http.sqlite"
        self._cache = _ResponseCache(cache, ttl)

    def close(self) -> None:
        self._http.close()
        self._cache.close()

    def __enter__(self) -> WikidataKB:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- HTTP ------------------------------------------------------------------------------
    def _request(self, url: str, params: dict[str, str], *, accept: str = "application/json") -> Any:
        # Long SPARQL goes by POST (URL length limits); the cache key is the same either way.
        method = "POST" if len(params.get("query", "")) > 1500 else "GET"
        key = self._cache.key(method, url, params)
        cached = self._cache.get(key)
        if cached is not None:
            return json.loads(cached)
        try:
            for attempt in self.backoff.retrying((httpx.TransportError, _Busy)):
                with attempt:
                    resp = self._send(method, url, params, accept)
        except (httpx.TransportError, _Busy) as exc:
            raise KBUnavailableError(f"{url} unreachable after {self.backoff.attempts} attempts: {exc}") from exc
        if resp.status_code >= 400:
            raise KBUnavailableError(f"{url} answered HTTP {resp.status_code}: {resp.text[:300]}")
        try:
            data = resp.json()
        except ValueError as exc:
            raise KBUnavailableError(f"{url} answered non-JSON: {resp.text[:200]!r}") from exc
        if isinstance(data, dict) and "error" in data:
            raise KBUnavailableError(f"{url} error: {data['error']}")
        self._cache.put(key, resp.text)
        return data

    def _send(self, method: str, url: str, params: dict[str, str], accept: str) -> httpx.Response:
        """One request; a 429 or 5xx answer is ``_Busy`` (retried, after its Retry-After when it gave one)."""
        headers = {"Accept": accept}
        resp = (
            self._http.post(url, data=params, headers=headers)
            if method == "POST"
            else self._http.get(url, params=params, headers=headers)
        )
        if resp.status_code == 429 or resp.status_code >= 500:
            asked = resp.headers.get("Retry-After", "")
            raise _Busy(f"HTTP {resp.status_code}", float(asked) if asked.isdigit() else None)
        return resp

    def _api(self, **params: str) -> Any:
        return self._request(self.api_url, {"format": "json", **params})

    def sparql(self, query: str):
        """Run SPARQL (common prefixes predeclared). SELECT -> list of {var: value}; ASK -> bool."""
        data = self._request(
            self.sparql_url,
            {"query": SPARQL_PREFIXES + query, "format": "json"},
            accept="application/sparql-results+json",
        )
        if "boolean" in data:
            return bool(data["boolean"])
        names = data.get("head", {}).get("vars", [])
        bindings = data.get("results", {}).get("bindings", [])
        return [{n: b[n]["value"] if n in b else None for n in names} for b in bindings]

    # ---- records ---------------------------------------------------------------------------
    def _entities(self, ids: list[str], props: str = "labels|descriptions|aliases|claims|datatype") -> dict[str, dict]:
        out: dict[str, dict] = {}
        ids = [i for i in dict.fromkeys(ids) if is_wikidata_id(i)]
        for start in range(0, len(ids), 50):  # the API's batch limit
            data = self._api(
                action="wbgetentities", ids="|".join(ids[start : start + 50]), props=props, languages=self.language
            )
            for eid, ent in (data.get("entities") or {}).items():
                if "missing" not in ent:
                    out[eid] = ent
        return out

    def _text(self, ent: dict, field: str) -> str:
        return ((ent.get(field) or {}).get(self.language) or {}).get("value", "")

    def _record(self, ent: dict, with_examples: bool = True) -> KBRecord:
        rid = ent["id"]
        claims = ent.get("claims") or {}
        rec = KBRecord(
            id=rid,
            kind="property" if rid.startswith("P") else "entity",
            label=self._text(ent, "labels"),
            description=self._text(ent, "descriptions"),
            aliases=[a["value"] for a in (ent.get("aliases") or {}).get(self.language, [])],
            types=_item_values(claims.get("P31", [])),
            datatype=ent.get("datatype"),
            super_properties=_item_values(claims.get("P1647", [])),
            **_type_constraints(claims.get("P2302", [])),
        )
        if with_examples and rec.kind == "property":
            rec.examples = self._examples(rec, claims.get("P1855", []))
        return rec

    def _examples(self, prop: KBRecord, statements: list[dict], limit: int = 3) -> list[str]:
        """P1855 statements: subject = main value, object = the qualifier on the property itself."""
        pairs = []
        for st in statements[:limit]:
            subj = _snak_value(st.get("mainsnak", {}))
            quals = (st.get("qualifiers") or {}).get(prop.id) or []
            pairs.append((subj, _snak_value(quals[0]) if quals else None))
        ids = [v for pair in pairs for v in pair if isinstance(v, str) and is_wikidata_id(v)]
        labels = {i: self._text(e, "labels") for i, e in self._entities(ids, props="labels").items()} if ids else {}
        out = []
        for subj, obj in pairs:
            s = labels.get(subj, subj) if subj else None
            o = labels.get(obj, obj) if obj else "…"
            if s:
                out.append(f"{s} {prop.label} {o}")
        return out

    def get(self, id_or_iri: str) -> KBRecord | None:
        rid = parse_wikidata_id(id_or_iri) if isinstance(id_or_iri, str) else None
        if rid is None:
            return None
        found = self._entities([rid])
        ent = found.get(rid) or next(iter(found.values()), None)  # a redirect answers under its target id
        return self._record(ent) if ent else None

    def contains(self, id_or_iri: str) -> bool:
        return self.get(id_or_iri) is not None

    def label(self, id_or_iri: str) -> str | None:
        rec = self.get(id_or_iri)
        return rec.label if rec and rec.label else None

    def _records(self, ids: list[str]) -> list[KBRecord]:
        ents = self._entities(ids)
        return [
            self._record(ents[i], with_examples=False)
            if i in ents
            else KBRecord(id=i, kind="property" if i.startswith("P") else "entity")
            for i in ids
        ]

    # ---- hierarchy (SPARQL) ----------------------------------------------------------------
    def _ids(self, query: str, var: str) -> list[str]:
        ids = {parse_wikidata_id(r[var]) for r in self.sparql(query) if r.get(var)}
        return sorted((i for i in ids if i), key=lambda i: (i[0], int(i[1:])))

    def super_properties(self, pid: str) -> list[KBRecord]:
        p = _checked(pid, "P")
        return self._records(self._ids(f"SELECT ?p WHERE {{ wd:{p} wdt:P1647 ?p }}", "p")) if p else []

    def sub_properties(self, pid: str) -> list[KBRecord]:
        p = _checked(pid, "P")
        return self._records(self._ids(f"SELECT ?p WHERE {{ ?p wdt:P1647 wd:{p} }}", "p")) if p else []

    def types(self, qid: str) -> list[str]:
        q = _checked(qid)
        return self._ids(f"SELECT ?t WHERE {{ wd:{q} wdt:P31 ?t }}", "t") if q else []

    def superclasses(self, qid: str, depth: int = 1) -> list[str]:
        q = _checked(qid)
        seen, frontier, out = {q}, [q] if q else [], []
        for _ in range(min(max(depth, 0), 16)):
            if not frontier:
                break
            values = " ".join(f"wd:{c}" for c in frontier)  # every c passed _checked or came from our parser
            nxt = [
                c
                for c in self._ids(f"SELECT ?c WHERE {{ VALUES ?x {{ {values} }} ?x wdt:P279 ?c }}", "c")
                if c not in seen
            ]
            seen.update(nxt)
            out += nxt
            frontier = nxt
        return out

    def find_label(self, label: str, *, kind: str | None = None, limit: int = 20) -> list[KBRecord]:
        """Items/properties whose English label or alias is exactly ``label`` (via SPARQL)."""
        lit = sparql_literal(label, language=self.language)
        ids = self._ids(
            f"SELECT DISTINCT ?x WHERE {{ VALUES ?p {{ rdfs:label skos:altLabel }} ?x ?p {lit} }} LIMIT {int(limit)}",
            "x",
        )
        ids = [i for i in ids if kind is None or (i[0] == "P") == (kind == "property")]
        return self._records(ids)

    # ---- search ----------------------------------------------------------------------------
    def search(self, query: str, *, kind: str | None = None, mode: str = "fused", k: int = 5) -> list[KBHit]:
        if mode not in MODES:
            raise UserError(f"unknown search mode {mode!r}; valid modes: {', '.join(MODES)}")
        if kind is not None and kind not in KINDS:
            raise UserError(f"unknown kind {kind!r}; use 'entity', 'property' or None")
        kinds = [kind] if kind else list(KINDS)
        if mode == "example":
            kinds = [x for x in kinds if x == "property"]
        query = (query or "").strip()
        if not query or not kinds or k <= 0:
            return []
        if mode in ("label", "fused"):
            ranked = [h for kd in kinds for h in self._wbsearch(query, kd, k, mode)]
            ranked.sort(key=lambda h: (h.matched not in ("exact", "alias"), -h.score))
            return ranked[:k]
        return self._fulltext(query, kinds, k, mode)

    def _wbsearch(self, query: str, kind: str, k: int, mode: str) -> list[KBHit]:
        data = self._api(
            action="wbsearchentities",
            search=query,
            language=self.language,
            uselang=self.language,
            type="item" if kind == "entity" else "property",
            limit=str(min(k, 50)),
        )
        hits = []
        for rank, r in enumerate(data.get("search", [])):
            if not is_wikidata_id(str(r.get("id", ""))):
                continue
            rec = KBRecord(
                id=r["id"],
                kind=kind,
                label=r.get("label", ""),
                description=r.get("description", ""),
                aliases=list(r.get("aliases", [])),
                datatype=r.get("datatype"),
            )
            match = r.get("match") or {}
            same = match.get("text", "").casefold() == query.casefold()
            matched = ("exact" if match.get("type") == "label" else "alias") if same else "api"
            score = 1.0 if same else round(1.0 / (rank + 1), 4)  # the API gives ranks, not scores
            hits.append(KBHit(record=rec, score=score, matched=matched, mode=mode))
        return hits

    def _fulltext(self, query: str, kinds: list[str], k: int, mode: str) -> list[KBHit]:
        namespaces = "|".join("0" if kd == "entity" else "120" for kd in kinds)
        data = self._api(action="query", list="search", srsearch=query, srnamespace=namespaces, srlimit=str(min(k, 50)))
        parsed = [parse_wikidata_id(r.get("title", "")) for r in data.get("query", {}).get("search", [])]
        ids = [i for i in parsed if i]
        recs = self._records(ids)
        return [KBHit(record=r, score=round(1.0 / (n + 1), 4), matched="api", mode=mode) for n, r in enumerate(recs)]

    def stats(self) -> dict:
        return {
            "api": self.api_url,
            "sparql": self.sparql_url,
            "cache": str(self._cache.path),
            "cached_responses": self._cache.count(),
        }


def _checked(value: str, prefix: str = "") -> str | None:
    """A validated id (``Q42``/``P31`` in any IRI form) or None: nothing else reaches a query."""
    rid = parse_wikidata_id(value) if isinstance(value, str) else None
    return rid if rid and is_wikidata_id(rid) and rid.startswith(prefix) else None


def _snak_value(snak: dict) -> str | None:
    value = (snak.get("datavalue") or {}).get("value")
    if isinstance(value, dict):
        return value.get("id") or value.get("text") or value.get("time") or value.get("amount")
    return value if isinstance(value, str) else None


def _item_values(statements: list[dict]) -> list[str]:
    out = []
    for st in statements:
        v = _snak_value(st.get("mainsnak", {}))
        if isinstance(v, str) and is_wikidata_id(v) and v not in out:
            out.append(v)
    return out


#: P2302 values that restrict types: subject type constraint, value-type constraint
_CONSTRAINT_FIELDS = {"Q21503250": "subject_types", "Q21510865": "value_types"}


def _type_constraints(statements: list[dict]) -> dict[str, list[str]]:
    """Subject and value classes from P2302 statements and their P2308 (class) qualifiers."""
    out: dict[str, list[str]] = {"subject_types": [], "value_types": []}
    for st in statements:
        target = _CONSTRAINT_FIELDS.get(_snak_value(st.get("mainsnak", {})) or "")
        if target is None:
            continue
        for q in (st.get("qualifiers") or {}).get("P2308", []):
            v = _snak_value(q)
            if isinstance(v, str) and is_wikidata_id(v) and v not in out[target]:
                out[target].append(v)
    return out
