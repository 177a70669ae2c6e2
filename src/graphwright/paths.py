"""Where graphwright keeps caches and finds shared data, and how it replaces files whole."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from graphwright.environment import text


def cache_dir() -> Path:
    """User cache directory (models, embedding indices, LLM responses).

    Override with GRAPHWRIGHT_CACHE_DIR.
    """
    root = text("GRAPHWRIGHT_CACHE_DIR") or platformdirs.user_cache_dir("graphwright")
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path:
    """Benchmark and KB source data; default ``../shared/data`` from the working directory.

    Override with GRAPHWRIGHT_DATA_DIR.
    """
    return Path(text("GRAPHWRIGHT_DATA_DIR") or Path("..") / "shared" / "data")


def write_atomic(path: Path, text: str) -> None:
    """Write ``path`` so that a crash leaves the old file or the new one, never half of it: readers of a run
    folder (a resumed run, ``eval compare``) then never meet a truncated run.json or aggregate.json."""
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(partial, path)
