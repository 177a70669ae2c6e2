"""Command line: thin commands over the library (graphwright.assembly builds every run). The library
raises; a command prints one line and exits non-zero (``--debug`` shows the traceback)."""

from graphwright.cli import ask, edits, evaluate, extract, graph, growth, kb, serve, train  # noqa: F401  (they register)
from graphwright.cli.app import app, main

__all__ = ["app", "main"]
