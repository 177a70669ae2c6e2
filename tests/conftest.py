"""Shared fixtures. The default KB is built once per machine in the user cache
(its property embedding indices take a few minutes the first time).

Markers (pyproject.toml): ``slow`` for a test that runs a real embedded model (any other test that starts
one fails at once: unit tests use a scripted model), ``live`` for one that needs the network, ``soak`` for
the long reliability runs."""

from __future__ import annotations

import pytest

from graphwright.kb import LocalKB
from graphwright.kb import default_kb as _default_kb


@pytest.fixture(scope="session")
def default_kb() -> LocalKB:
    return _default_kb()


@pytest.fixture(autouse=True)
def real_model_only_when_marked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that is not marked ``slow`` cannot start the embedded model: minutes of CPU hidden in a unit
    test, and a result that depends on a model's answer where a scripted one says what is tested."""
    if request.node.get_closest_marker("slow") is not None:
        return
    import graphwright.llm.embedded as embedded

    def refuse(*args, **kwargs):
        raise AssertionError(
            f"{request.node.nodeid} starts the real embedded model: mark it "
            "@pytest.mark.slow, or give it a scripted model (graphwright.llm.fake)"
        )

    monkeypatch.setattr(embedded, "_start", refuse)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", help="also run the long reliability runs (marker soak)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--soak"):
        return
    skip = pytest.mark.skip(reason="a long reliability run: pass --soak to run it")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)
