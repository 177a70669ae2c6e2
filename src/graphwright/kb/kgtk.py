"""Reading KGTK edge files (gzip TSV with a header row) and their string literals."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path

from graphwright.errors import DataNotFoundError

_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
_LANG = re.compile(r"@[A-Za-z][A-Za-z0-9-]*$")


def require_file(path: Path, what: str) -> Path:
    """Fail with the exact path and the environment variable that moves the data root."""
    if not path.is_file():
        raise DataNotFoundError(
            f"{what} not found: looked for {path.resolve()}. Point GRAPHWRIGHT_DATA_DIR at the data root "
            f"(the folder holding wikidata-properties/, wikidata-subgraph-arnold/, rebel-sample/) "
            f"or pass the path explicitly."
        )
    return path


def read_tsv(path: Path) -> Iterator[dict[str, str]]:
    """Rows of a KGTK TSV (plain or gzip) as dicts keyed by the header."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        for line in fh:
            cells = line.rstrip("\n").split("\t")
            if len(cells) >= 2:
                yield dict(zip(header, cells))


def parse_literal(value: str) -> str:
    """``'Arnold\\'s mother'@en`` -> ``Arnold's mother``.

    Some exports additionally wrap the literal CSV-style: ``"'say \\""hi\\""'@en"`` (outer double
    quotes, inner quotes doubled); both layers are removed.
    """
    text = value.strip()
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"' and text[1:2] == "'":
        text = text[1:-1].replace('""', '"')
    text = _LANG.sub("", text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)
