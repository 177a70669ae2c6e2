"""Every LLM test gets its own cache dir and a clean environment; the real 0.5B model is
assembled once per session in the shared (user) cache so its 469 MB are written once."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
import pytest

from graphwright.llm.assemble import ensure_model

_LLM_ENV = ("GRAPHWRIGHT_LLM", "GRAPHWRIGHT_BASE_URL", "OPENAI_BASE_URL", "GRAPHWRIGHT_API_KEY", "OPENAI_API_KEY")


@pytest.fixture(scope="session")
def shared_model_dir() -> Path:
    # read before any test points GRAPHWRIGHT_CACHE_DIR at a tmp dir
    root = os.environ.get("GRAPHWRIGHT_CACHE_DIR") or platformdirs.user_cache_dir("graphwright")
    return Path(root) / "models"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_model_dir: Path) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(cache))
    for name in _LLM_ENV:
        monkeypatch.delenv(name, raising=False)
    return cache


@pytest.fixture(scope="session")
def small_model(shared_model_dir: Path) -> Path:
    """The real Qwen2.5-Coder-0.5B GGUF (assembled on first use, about 2 s)."""
    return ensure_model("qwen2.5-coder-0.5b", directory=shared_model_dir, progress=False)
