"""Which agent a model call is for, and what each agent's calls cost in one document.

A system names the agent around its turn (``with for_agent("extractor"): ...``); the metering wrapper
adds every call's usage to the document's ledger under that name, and the tracing wrapper writes the
name into each trace line. Context variables carry both, so names need not be passed through every
call, and documents run concurrently (one asyncio task each) keep separate ledgers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from graphwright.model.result import Usage

#: the name calls outside any named agent are counted under
UNNAMED = "model"

_agent: ContextVar[str | None] = ContextVar("graphwright_agent", default=None)
_ledger: ContextVar[dict[str, Usage] | None] = ContextVar("graphwright_usage_ledger", default=None)


def current_agent() -> str:
    return _agent.get() or UNNAMED


@contextmanager
def for_agent(name: str) -> Iterator[None]:
    token = _agent.set(name)
    try:
        yield
    finally:
        _agent.reset(token)


@contextmanager
def usage_by_agent() -> Iterator[dict[str, Usage]]:
    """A ledger for the calls made inside the block: ``{agent: Usage}``, filled as calls finish."""
    ledger: dict[str, Usage] = {}
    token = _ledger.set(ledger)
    try:
        yield ledger
    finally:
        _ledger.reset(token)


def record(usage: Usage) -> None:
    """Count one call's usage for the current agent, when a ledger is open."""
    ledger = _ledger.get()
    if ledger is not None:
        agent = current_agent()
        ledger[agent] = ledger.get(agent, Usage()) + usage
