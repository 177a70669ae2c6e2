"""LoRA adapters for the embedded models: the ones graphwright ships, and the user's own files.

An adapter is a llama.cpp GGUF file (``graphwright.train.gguf_adapter`` writes them) loaded beside its model
and applied per request, so one loaded model serves tuned and untuned calls. Its identity, the file name and
the first 12 hex digits of its sha256, goes into provenance and cache keys: a new adapter is a new model.

A shipped adapter lives in this package's ``adapters`` folder and is checked against the sha256 recorded
here before it is used; one that is missing or altered is refused with the reason.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from graphwright.errors import UserError


@dataclass(frozen=True)
class AdapterSpec:
    name: str  # what a system asks for: "facts"
    model: str  # the embedded model it was trained on
    filename: str
    sha256: str


#: the adapters that ship, by (model, name); `graphwright train facts` makes them (docs/decisions.md, issue 60)
SHIPPED: dict[tuple[str, str], AdapterSpec] = {}


def shipped_adapters(model: str) -> dict[str, Path]:
    """The shipped adapters of an embedded model, by name, each checked against its recorded sha256."""
    found = {}
    for (base, name), spec in SHIPPED.items():
        if base != model:
            continue
        path = Path(str(resources.files("graphwright.llm").joinpath("adapters", spec.filename)))
        if not path.is_file():
            raise UserError(
                f"the {name} adapter of {model} ({path}) is missing: reinstall graphwright "
                "(make install), or turn it off with GRAPHWRIGHT_ADAPTERS=none"
            )
        if digest(path) != spec.sha256:
            raise UserError(
                f"{path} is not the {name} adapter graphwright ships (its sha256 differs): reinstall "
                "graphwright (make install), or turn it off with GRAPHWRIGHT_ADAPTERS=none"
            )
        found[name] = path
    return found


def parse_adapters(value: str) -> dict[str, Path]:
    """``GRAPHWRIGHT_ADAPTERS``: ``none``, or ``name=file.gguf`` pairs separated by commas."""
    if value.strip().casefold() == "none":
        return {}
    adapters = {}
    for part in filter(None, (p.strip() for p in value.split(","))):
        name, sep, file = part.partition("=")
        if not sep or not name.strip() or not file.strip():
            raise UserError(f"adapter {part!r}: write name=file.gguf (or none)")
        path = Path(file.strip()).expanduser()
        if not path.is_file():
            raise UserError(f"adapter file {path} not found")
        adapters[name.strip()] = path
    return adapters


def identity(path: Path) -> str:
    """``<file name>@<sha256[:12]>``: what provenance and cache keys record of an adapter."""
    return f"{path.name}@{digest(path)[:12]}"


def digest(path: Path) -> str:
    stat = path.stat()
    return _digest(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=32)
def _digest(path: str, size: int, mtime: int) -> str:  # size and mtime: a rewritten file is hashed again
    sha = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            sha.update(block)
    return sha.hexdigest()
