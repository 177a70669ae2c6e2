"""One writer per output folder.

Two runs appending to one results.jsonl, documents.jsonl or memory folder would interleave and
duplicate their lines; the second run therefore stops at once with a clear message. The lock is the
operating system's (``flock`` / ``msvcrt.locking``) on a file in the folder, so a run that is killed
releases it with its process, and no stale lock file ever needs deleting by hand.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graphwright.errors import UserError

LOCK_FILE = ".graphwright.lock"

if sys.platform != "win32":  # a platform check rather than ImportError, so the type checker sees each branch
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
else:  # Windows
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True


class FolderInUseError(UserError):
    """Another graphwright process is writing to the folder."""


@contextmanager
def folder_lock(folder: Path, option: str) -> Iterator[None]:
    """Hold ``folder`` for this process while the block runs; ``option`` names the CLI option to change."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not _try_lock(fd):
            holder = os.read(fd, 32).decode(errors="replace").strip()
            raise FolderInUseError(
                f"{folder} is in use by another graphwright run{f' (process {holder})' if holder else ''}; "
                f"wait for it to finish or give this run another {option}"
            )
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())  # who holds it, for the message above
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
