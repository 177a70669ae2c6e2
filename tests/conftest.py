"""Shared fixtures. The default KB is built once per machine in the user cache
(its property embedding indices take a few minutes the first time)."""

from __future__ import annotations

import pytest

from graphwright.kb import LocalKB, default_kb as _default_kb


@pytest.fixture(scope="session")
def default_kb() -> LocalKB:
    return _default_kb()
