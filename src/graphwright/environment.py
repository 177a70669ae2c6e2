"""Every setting graphwright reads from the environment, read and checked in one place.

``Environment.read()`` reads them at the moment it is called (a test, or a Ray worker, may set them just
before); an explicit option (``--model``, ``make_llm(base_url=...)``) always wins over the variable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import TypeVar, overload

from graphwright.errors import UserError

#: each variable and what it sets (README, "Models"; tests/core/test_environment.py keeps this complete)
VARIABLES = {
    "GRAPHWRIGHT_LLM": "the model when --model is not given: embedded, embedded:<model>, openai:<model> or a server's name",
    "GRAPHWRIGHT_BASE_URL": "an OpenAI-compatible server's URL (else OPENAI_BASE_URL)",
    "GRAPHWRIGHT_API_KEY": "the server's API key (else OPENAI_API_KEY)",
    "GRAPHWRIGHT_TIMEOUT": "seconds per request to a server (default 120)",
    "GRAPHWRIGHT_RETRIES": "retries of a failed request to a server after the first attempt (default 3)",
    "GRAPHWRIGHT_RETRY_DELAY": "the first backoff before a retry, in seconds (default 1)",
    "GRAPHWRIGHT_THREADS": "CPU threads of the embedded model (default: the cores other work leaves free)",
    "GRAPHWRIGHT_SLOTS": "requests the embedded model decodes together (default 1)",
    "GRAPHWRIGHT_SPECULATIVE": "speculative decoding of the embedded model: ngram or draft:<model>",
    "GRAPHWRIGHT_ADAPTERS": "LoRA adapters of the embedded model: none, or name=file.gguf pairs (default: the shipped ones)",
    "GRAPHWRIGHT_CACHE_DIR": "models, KB indices and cached answers (default: the user cache folder)",
    "GRAPHWRIGHT_DATA_DIR": "benchmark and KB source data (default: ../shared/data)",
    "GRAPHWRIGHT_API_TOKEN": "the token `graphwright serve` asks of clients (needed off loopback)",
    "GRAPHWRIGHT_FAILPOINTS": "crash tests only: kill the process at named points (graphwright.failpoints)",
}


def text(*names: str) -> str | None:
    """The first of ``names`` that is set and not empty."""
    return next((os.environ[n] for n in names if os.environ.get(n)), None)


N = TypeVar("N", int, float)


@overload
def number(name: str, kind: type[N], default: N, least: float = 0) -> N: ...
@overload
def number(name: str, kind: type[N], default: None, least: float = 0) -> N | None: ...
def number(name: str, kind: type[N], default: N | None, least: float = 0) -> N | None:
    """A numeric variable, ``default`` when unset; a value that is not a number of at least ``least`` is a
    clear error naming the variable."""
    value = text(name)
    if value is None:
        return default
    try:
        parsed = kind(value)
    except ValueError:
        raise UserError(f"{name}={value!r} is not a {'whole ' if kind is int else ''}number") from None
    if parsed < least:
        raise UserError(f"{name} must be at least {least:g}, not {value!r}")
    return parsed


@dataclass(frozen=True)
class Environment:
    llm: str | None
    base_url: str | None
    api_key: str | None
    timeout: float | None
    retries: int
    retry_delay: float
    threads: int | None
    slots: int | None
    speculative: str | None
    adapters: str | None
    cache_dir: str | None
    data_dir: str | None

    @classmethod
    def read(cls) -> Environment:
        return cls(
            llm=text("GRAPHWRIGHT_LLM"),
            base_url=text("GRAPHWRIGHT_BASE_URL", "OPENAI_BASE_URL"),
            api_key=text("GRAPHWRIGHT_API_KEY", "OPENAI_API_KEY"),
            timeout=number("GRAPHWRIGHT_TIMEOUT", float, None),
            retries=number("GRAPHWRIGHT_RETRIES", int, 3),
            retry_delay=number("GRAPHWRIGHT_RETRY_DELAY", float, 1.0),
            threads=number("GRAPHWRIGHT_THREADS", int, None, least=1),
            slots=number("GRAPHWRIGHT_SLOTS", int, None, least=1),
            speculative=text("GRAPHWRIGHT_SPECULATIVE"),
            adapters=text("GRAPHWRIGHT_ADAPTERS"),
            cache_dir=text("GRAPHWRIGHT_CACHE_DIR"),
            data_dir=text("GRAPHWRIGHT_DATA_DIR"),
        )


def package_version() -> str:
    """The installed graphwright's version (for a User-Agent), read without importing graphwright's top,
    which reaches the API."""
    try:
        return version("graphwright")
    except PackageNotFoundError:
        return "unknown"
