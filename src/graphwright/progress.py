"""Where a document's run is now ("extracting part 2 of 5", "linking"), for whoever shows it: the web app's
job table listens while a document runs; without a listener a report costs nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_listener: ContextVar[Callable[[str], None] | None] = ContextVar("graphwright_stage_listener", default=None)


def report(stage: str) -> None:
    """Tell the listener of the running document (the task's own: concurrent documents do not mix) its stage."""
    listener = _listener.get()
    if listener is not None:
        listener(stage)


@contextmanager
def listening(listener: Callable[[str], None] | None) -> Iterator[None]:
    """``listener`` hears the stages reported in this context (this task and the tasks it starts)."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)
