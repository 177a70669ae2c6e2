"""Where graphwright keeps caches and finds shared data."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def cache_dir() -> Path:
    """User cache directory (models, embedding indices, LLM responses).

    Override with GRAPHWRIGHT_CACHE_DIR.
    """
    root = os.environ.get("GRAPHWRIGHT_CACHE_DIR") or platformdirs.user_cache_dir("graphwright")
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path:
    """Benchmark and KB source data; default ``../shared/data`` from the working directory.

    Override with GRAPHWRIGHT_DATA_DIR.
    """
    return Path(os.environ.get("GRAPHWRIGHT_DATA_DIR") or Path("..") / "shared" / "data")
