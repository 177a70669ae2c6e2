"""Benchmark files, read from the data directory (``../shared/data``, or GRAPHWRIGHT_DATA_DIR) and never
copied; a missing file is a clear error naming it and the variable."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from graphwright.errors import DataNotFoundError
from graphwright.paths import data_dir


def data_file(*parts: str) -> Path:
    """A benchmark file under the data directory, or a DataNotFoundError naming the path and the variable."""
    path = data_dir().joinpath(*parts)
    if not path.is_file():
        raise DataNotFoundError(
            f"{path} not found: the {parts[0]} data is read from the data directory ({data_dir()}); "
            "set GRAPHWRIGHT_DATA_DIR to the folder that holds it")
    return path


def open_text(path: Path):
    """A UTF-8 text file, gunzipped when its name ends in .gz."""
    return (gzip.open if path.suffix == ".gz" else open)(path, "rt", encoding="utf-8")


def read_json(path: Path):
    """JSON, or JSON Lines for *.jsonl(.gz); gzip by suffix."""
    with open_text(path) as fh:
        return json.load(fh) if not path.name.endswith((".jsonl", ".jsonl.gz")) else [json.loads(x) for x in fh if x.strip()]
