"""A training run's checkpoint on disk: the adapter, the optimiser's state and the position, in one folder
renamed over the last, so that a kill at any moment leaves one whole checkpoint (graphwright.train.adapter
writes it, graphwright.train.gguf_adapter exports it)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path


def latest_checkpoint(out: Path) -> Path | None:
    """The checkpoint to resume from: a kill between the two renames of a save leaves it under another name
    (position.json is written last, so a folder that has it is whole)."""
    for name in ("checkpoint", "checkpoint.new", "checkpoint.old"):
        if (out / name / "position.json").is_file():
            return out / name
    return None


def save_checkpoint(out: Path, model, optimizer, position: dict, state_dict, torch) -> None:
    """A new checkpoint folder beside the old, then swapped in: a kill at any point leaves a whole one."""
    fresh, old, current = out / "checkpoint.new", out / "checkpoint.old", out / "checkpoint"
    if not current.exists() and fresh.exists():  # the last save was cut between its renames
        fresh.rename(current)
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir()
    torch.save(state_dict(model), fresh / "adapter.pt")
    torch.save(optimizer.state_dict(), fresh / "optimizer.pt")
    (fresh / "position.json").write_text(json.dumps(position))
    shutil.rmtree(old, ignore_errors=True)
    if current.exists():
        current.rename(old)
    fresh.rename(current)
    shutil.rmtree(old, ignore_errors=True)
