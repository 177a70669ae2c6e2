"""The default KB is built once per machine in the shared user cache (like the test LLM model),
so its property embedding indices (~2-3 min on 2 cores) are computed only on the first run."""

from __future__ import annotations

import pytest

from graphwright.kb import LocalKB, default_kb


@pytest.fixture(scope="session")
def kb() -> LocalKB:
    return default_kb()
