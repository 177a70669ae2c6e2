"""The KB's SQLite file: records, a normalised name table for exact look-up, FTS5 for lexical search.

One file, opened read-only by any number of processes; written once by the builder.
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from graphwright.kb.records import KBRecord
from graphwright.text import words

DB_NAME = "kb.sqlite"
#: KBRecord fields kept in the ``data`` JSON column (label, description, id, kind have columns).
STORED_FIELDS = {
    "aliases",
    "types",
    "examples",
    "datatype",
    "super_properties",
    "subject_types",
    "value_types",
    "unchecked_constraints",
    "sitelinks",
}  # a field missing from old KBs reads as its default

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE records(
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
  searchable INTEGER NOT NULL,  -- 0: kept for get()/label() only (e.g. classes in a closed-world KB)
  identifier INTEGER NOT NULL,  -- 1: external-identifier property (demoted for sentence queries)
  label TEXT NOT NULL, description TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE names(rowid INTEGER PRIMARY KEY, rec INTEGER NOT NULL, kind TEXT NOT NULL,
  name TEXT NOT NULL, norm TEXT NOT NULL, is_alias INTEGER NOT NULL);
CREATE INDEX names_norm ON names(norm);
CREATE VIRTUAL TABLE names_fts USING fts5(norm, content='names', content_rowid='rowid',
  tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE desc_fts USING fts5(description, content='records', content_rowid='rowid',
  tokenize='porter unicode61 remove_diacritics 2');
"""

_SPACE = re.compile(r"\s+")
# Function words only add millions of FTS matches; real names rarely consist of them alone.
_STOP = frozenset(
    "a an and are as at be by for from has have he her his in is it its of on or she that the their "
    "this to was were which who with".split()
)
# Properties without a datatype (newer than the 2021 KGTK export) are judged by their text:
# nearly all of them are identifiers, usernames, URLs or dictionary-entry links.
_IDENT_LABEL = re.compile(
    r"\b(IDs?|identifier|URL|URI|username|slug|entry|page|handle|GTIN|ISBN|ISSN)\b"
    r"|(\bcode|\bnumber)\s*(\(.*\))?\s*$",
    re.IGNORECASE,
)
_IDENT_DESC = re.compile(r"\bidentifier\b|\busername\b|\bURL\b|\bURI\b|\bslug\b", re.IGNORECASE)


def normalize(text: str) -> str:
    """The exact-match key: NFKC, case-folded, single spaces, no surrounding quotes/punctuation."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip(" \t\"'`.,;:!?()[]{}")


def fts_query(text: str) -> str | None:
    """An FTS5 OR-query over the content words of ``text`` (each quoted: input is data, not syntax)."""
    found = [w for w in words(normalize(text)) if w not in _STOP]
    if not found:
        found = words(normalize(text))
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(found)) or None


def is_identifier_property(rec: KBRecord) -> bool:
    """External-identifier properties (~8.9k of 11.7k) drown relation properties in sentence search."""
    if rec.kind != "property":
        return False
    if rec.datatype is not None:
        return rec.datatype in ("external-id", "url")
    return bool(_IDENT_LABEL.search(rec.label) or _IDENT_DESC.search(rec.description))


def write_db(path: Path, records: Iterable[tuple[KBRecord, bool]], meta: dict[str, str]) -> dict[str, int]:
    """Create the database from (record, searchable) pairs; returns counts."""
    con = sqlite3.connect(path)
    counts = {"entity": 0, "property": 0, "names": 0, "support": 0}
    try:
        con.executescript(_SCHEMA)
        rec_rows, name_rows = [], []
        for rowid, (rec, searchable) in enumerate(records, 1):
            data = rec.model_dump(include=STORED_FIELDS, exclude_defaults=True)
            rec_rows.append(
                (
                    rowid,
                    rec.id,
                    rec.kind,
                    int(searchable),
                    int(is_identifier_property(rec)),
                    rec.label,
                    rec.description,
                    json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                )
            )
            if not searchable:
                counts["support"] += 1
                continue
            counts[rec.kind] += 1
            seen: set[str] = set()
            for is_alias, name in [(0, rec.label)] + [(1, a) for a in rec.aliases]:
                key = normalize(name)
                if key and key not in seen:
                    seen.add(key)
                    name_rows.append((rowid, rec.kind, name, key, is_alias))
        con.executemany("INSERT INTO records VALUES (?,?,?,?,?,?,?,?)", rec_rows)
        con.executemany("INSERT INTO names(rec, kind, name, norm, is_alias) VALUES (?,?,?,?,?)", name_rows)
        counts["names"] = len(name_rows)
        con.execute("INSERT INTO names_fts(names_fts) VALUES ('rebuild')")
        con.execute("INSERT INTO desc_fts(desc_fts) VALUES ('rebuild')")
        con.executemany("INSERT INTO meta VALUES (?, ?)", list(meta.items()))
        con.commit()
    finally:
        con.close()
    return counts


def connect_ro(path: Path) -> sqlite3.Connection:
    # Read-only URI: many processes (workers, tests) may share one KB directory safely.
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    con.row_factory = sqlite3.Row
    return con


def row_to_record(row: sqlite3.Row) -> KBRecord:
    data = json.loads(row["data"])
    return KBRecord(id=row["id"], kind=row["kind"], label=row["label"], description=row["description"], **data)
