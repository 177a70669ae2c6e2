"""Shared fixtures. The default KB is built once per machine in the user cache
(its property embedding indices take a few minutes the first time)."""

from __future__ import annotations

import pytest

from graphwright.kb import LocalKB, default_kb as _default_kb


@pytest.fixture(scope="session")
def default_kb() -> LocalKB:
    return _default_kb()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", help="also run the long reliability runs (marker soak)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--soak"):
        return
    skip = pytest.mark.skip(reason="a long reliability run: pass --soak to run it")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)
