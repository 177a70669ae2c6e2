"""The benchmarks: their data loaders (``bench.data``), their scoring (``bench.eval``) and one module per
benchmark run, each started with ``python -m graphwright.bench.<name>`` from the repository root (the
Makefile's ``bench-*`` targets). Runs resume from runs/bench/ and keep their ledgers in docs/bench-ledger/.

Nothing in the product core imports this package: the systems that take a dataset get it through the
``graphwright.datasets`` entry point (graphwright.systems.datasets).
"""

from __future__ import annotations

from pathlib import Path


def repository_root() -> Path:
    """The checkout the benchmarks write to: the one this package sits in (an editable install), else the
    working directory."""
    here = Path(__file__).resolve().parents[3]
    return here if (here / "pyproject.toml").is_file() else Path.cwd()


ROOT = repository_root()
