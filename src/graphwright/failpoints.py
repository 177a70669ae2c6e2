"""Named crash points, for testing that an interrupted run recovers (as databases test recovery).

``GRAPHWRIGHT_FAILPOINTS="store.writing:3,jsonl.half-line:1"`` makes the process kill itself with
SIGKILL the 3rd time it passes ``store.writing`` or the 1st time it passes ``jsonl.half-line``:
no ``finally`` blocks, no flushes, exactly what a power cut or the OOM killer leaves behind.
Unset (always, outside tests), a failpoint costs one dictionary lookup.
"""

from __future__ import annotations

import os
import signal
import threading

_ENV = "GRAPHWRIGHT_FAILPOINTS"
_lock = threading.Lock()
_armed: dict[str, int] | None = None  # point -> passes left before the kill; read from the env once


def _parse(spec: str) -> dict[str, int]:
    armed = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, count = item.partition(":")
        armed[name] = int(count or 1)
    return armed


def armed(name: str) -> bool:
    """Whether ``name`` is set to fire at some pass (lets a writer split a write to crash inside it)."""
    global _armed
    if _armed is None:
        _armed = _parse(os.environ.get(_ENV, ""))
    return name in _armed


def failpoint(name: str) -> None:
    """Kill this process here when ``name`` is armed and this is the pass it was armed for."""
    if not armed(name):
        return
    with _lock:
        assert _armed is not None
        _armed[name] -= 1
        if _armed[name] == 0:
            os.kill(os.getpid(), signal.SIGKILL)
