"""What every command shares: the error line and exit code, settings from --set and --config, progress,
and closing a model in the loop that used it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from graphwright.errors import UserError

console = Console(stderr=True)

# the model options every command that calls a model takes, declared once
MODEL = typer.Option(None, "--model", "-m", help="embedded, embedded:qwen2.5-coder-0.5b, or a server's model name.")
BASE_URL = typer.Option(None, "--base-url", help="OpenAI-compatible server URL (or GRAPHWRIGHT_BASE_URL).")
API_KEY = typer.Option(None, "--api-key", help="API key (or GRAPHWRIGHT_API_KEY / OPENAI_API_KEY).")
NO_CACHE = typer.Option(False, "--no-cache", help="Do not reuse or store cached LLM responses.")
STATE = {"debug": False}


def fail(exc: BaseException) -> None:
    if STATE["debug"]:
        console.print_exception()
    console.print(f"error: {exc}", style="red", highlight=False, markup=False)
    raise typer.Exit(code=1)


def run_and_close(closes, work):
    """Run ``work`` and close ``closes`` (the model, the Ray engine's workers, a Run) in one event loop: an HTTP client's
    pooled connections belong to the loop that opened them, and closing them from a second
    ``asyncio.run`` fails ("Event loop is closed") once the first loop is gone."""

    async def both():
        try:
            return await work
        finally:
            if closes is not None:
                await closes.aclose()

    return asyncio.run(both())


def read_settings(pairs: list[str], config: Path | None = None) -> dict:
    """The ``--config`` file's settings, then ``KEY=VALUE`` pairs; values are read as JSON when they parse
    (numbers, booleans)."""
    import json

    from graphwright.systems.settings import read_settings_file

    settings = read_settings_file(config) if config else {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UserError(f"--set expects KEY=VALUE, got {pair!r}")
        try:
            settings[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            settings[key.strip()] = value
    return settings


def progress_bar() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )


def slug(text: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)
