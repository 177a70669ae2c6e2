"""JSON Lines files that are appended to as work finishes, so an interrupted run loses at most the
line it was writing: readers skip a line cut short, and the work it recorded is simply redone."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from graphwright.failpoints import armed, failpoint
from graphwright.paths import write_atomic


def append_jsonl(path: Path, row: dict[str, Any]) -> None:
    line = json.dumps(row, ensure_ascii=False) + "\n"
    with path.open("a", encoding="utf-8") as fh:
        if armed("jsonl.half-line"):  # crash tests: die with half the line on disk
            fh.write(line[: len(line) // 2])
            fh.flush()
            failpoint("jsonl.half-line")
            line = line[len(line) // 2 :]
        fh.write(line)
    failpoint("jsonl.appended")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every complete line of ``path`` (gzip-compressed where its name ends in .gz); nothing when the file
    does not exist yet."""
    if not path.is_file():
        return []
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return _rows(data.decode("utf-8"))


def _rows(text: str) -> list[dict[str, Any]]:
    rows = []
    # split on "\n" only: str.splitlines() also splits at U+2028, U+0085 and other separators that
    # json.dumps(ensure_ascii=False) leaves raw inside strings, and would lose those rows
    for line in text.split("\n"):
        if not line:
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut by an interruption
    return rows


def rewrite_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Replace ``path`` with ``rows`` all at once: a crash leaves the old file or the new, never half."""
    write_atomic(path, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


def keep_rows(path: Path, keep: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Replace ``path`` by ``keep`` of its complete rows (``keep`` only drops rows) when that drops any or
    when its last line was cut short, so that appends start on a clean line; returns the kept rows."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    rows = _rows(text)
    kept = keep(rows)
    if len(kept) != len(rows) or (text and not text.endswith("\n")):
        rewrite_jsonl(path, kept)
    return kept


def last_per_key(rows: Iterable[dict[str, Any]], *fields: str) -> list[dict[str, Any]]:
    """One row per value of ``fields``, the last one written (a rerun replaces a row), in the order written."""
    latest: dict[tuple, dict[str, Any]] = {}
    for row in rows:
        key = tuple(row.get(f) for f in fields)
        latest.pop(key, None)
        latest[key] = row
    return list(latest.values())


def open_text(path: Path):
    """A UTF-8 text file, gunzipped when its name ends in .gz."""
    return (gzip.open if path.suffix == ".gz" else open)(path, "rt", encoding="utf-8")


def read_json(path: Path):
    """JSON, or JSON Lines for *.jsonl(.gz); gzip by suffix."""
    with open_text(path) as fh:
        return (
            json.load(fh)
            if not path.name.endswith((".jsonl", ".jsonl.gz"))
            else [json.loads(x) for x in fh if x.strip()]
        )
