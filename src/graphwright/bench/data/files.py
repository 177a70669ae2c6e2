"""Benchmark files, read from the data directory (``../shared/data``, or GRAPHWRIGHT_DATA_DIR) and never
copied; a missing file is a clear error naming it and the variable."""

from __future__ import annotations

from pathlib import Path

from graphwright.errors import DataNotFoundError
from graphwright.jsonl import open_text, read_json
from graphwright.paths import data_dir

__all__ = ["data_file", "open_text", "read_json"]


def data_file(*parts: str) -> Path:
    """A benchmark file under the data directory, or a DataNotFoundError naming the path and the variable."""
    path = data_dir().joinpath(*parts)
    if not path.is_file():
        raise DataNotFoundError(
            f"{path} not found: the {parts[0]} data is read from the data directory ({data_dir()}); "
            "set GRAPHWRIGHT_DATA_DIR to the folder that holds it"
        )
    return path
