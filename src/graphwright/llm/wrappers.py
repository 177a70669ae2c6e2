"""Behaviour around any backend: retry, cache, metering, tracing.

Each wrapper is an ``LLM`` holding another one, so they stack. The usual order
(see ``factory.make_llm``) is ``Tracing(Cached(Retrying(backend)))``: a cache
hit skips the retry loop, and the trace shows hits too. ``MeteredLLM`` goes on
top per document. Only ``RetryingLLM`` retries; backends and SDKs do not.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphwright.errors import BudgetExceededError, LLMUnavailableError
from graphwright.llm import attribution
from graphwright.llm.base import LLM, ChatResponse, Message, TransientLLMError, adapter_argument
from graphwright.model.result import Usage
from graphwright.paths import cache_dir
from graphwright.retry import Backoff


class WrapperLLM(LLM):
    """Passes everything to ``inner``; subclasses override ``chat``."""

    def __init__(self, inner: LLM):
        self.inner = inner
        self.name = inner.name  # wrappers are invisible in provenance and cache keys

    async def chat(
        self,
        messages: list[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        adapter: str | None = None,
    ) -> ChatResponse:
        return await self.inner.chat(
            messages,
            json_schema=json_schema,
            temperature=temperature,
            max_tokens=max_tokens,
            **adapter_argument(adapter),
        )

    @property
    def adapters(self) -> dict[str, str]:
        return self.inner.adapters

    async def aclose(self) -> None:
        await self.inner.aclose()

    def describe(self) -> str:
        return self.inner.describe()


class RetryingLLM(WrapperLLM):
    """Retries ``TransientLLMError`` (no connection, timeout, 408/409/429/5xx) with jittered backoff.

    The delays are graphwright.retry's ``Backoff(max_attempts, base_delay, max_delay)``.
    Other errors pass through at once.
    """

    def __init__(self, inner: LLM, *, max_attempts: int = 4, base_delay: float = 1.0, max_delay: float = 30.0):
        super().__init__(inner)
        self.backoff = Backoff(max_attempts, base_delay, max_delay)
        self.max_attempts = max_attempts
        self.retries = 0  # retries done so far, for reports

    async def chat(self, messages: list[Message], **kwargs: Any) -> ChatResponse:
        try:
            async for attempt in self.backoff.async_retrying(TransientLLMError, on_retry=self._count_retry):
                with attempt:
                    return await self.inner.chat(messages, **kwargs)
        except TransientLLMError as e:
            raise LLMUnavailableError(
                f"{self.describe()} failed {self.max_attempts} time(s); last error: {e}. "
                "Check that the server is running and reachable at that URL, that the model name "
                "is right, and that the API key and rate limits allow the request."
            ) from e
        raise AssertionError("unreachable")  # the attempts return or raise

    def _count_retry(self) -> None:
        self.retries += 1


def cache_key(name: str, messages: list[Message], json_schema: dict[str, Any] | None, **params: Any) -> str:
    """sha256 over everything that shapes the answer; the "v" bumps when the format changes."""
    payload = {"v": 1, "model": name, "messages": messages, "schema": json_schema, "params": params}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def request_key(
    llm: LLM,
    messages: list[Message],
    json_schema: dict[str, Any] | None,
    *,
    temperature: float,
    max_tokens: int | None,
    adapter: str | None = None,
) -> str:
    """The cache key of a request to ``llm``: with an adapter, its identity (a new adapter file is a new
    key); without one, nothing more, so the keys of untuned requests are as before adapters existed."""
    extra = {"adapter": llm.adapters.get(adapter, adapter)} if adapter else {}
    return cache_key(llm.name, messages, json_schema, temperature=temperature, max_tokens=max_tokens, **extra)


class CachedLLM(WrapperLLM):
    """Answers repeated requests from an SQLite file; only successful answers are stored.

    A hit costs no model time: ``cached=True``, ``usage.cached_calls == 1``, and
    the token counts of the original answer, so budgets and reports come out the
    same with or without the cache. Safe for concurrent use in one process (one
    connection behind a lock) and across processes (SQLite WAL).
    """

    def __init__(self, inner: LLM, path: Path | str | None = None):
        super().__init__(inner)
        self.path = Path(path) if path else cache_dir() / "llm-cache.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS responses "
            "(key TEXT PRIMARY KEY, model TEXT NOT NULL, response TEXT NOT NULL, created TEXT NOT NULL)"
        )

    async def chat(
        self,
        messages: list[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        adapter: str | None = None,
    ) -> ChatResponse:
        key = request_key(
            self.inner, messages, json_schema, temperature=temperature, max_tokens=max_tokens, adapter=adapter
        )
        hit = self._get(key)
        if hit is not None:
            self.hits += 1
            usage = hit.usage.model_copy(
                update={
                    "llm_calls": 1,
                    "cached_calls": 1,
                    "seconds": 0.0,
                    "prompt_seconds": 0.0,
                    "generation_seconds": 0.0,
                }
            )
            return hit.model_copy(update={"cached": True, "usage": usage})
        self.misses += 1
        response = await self.inner.chat(
            messages,
            json_schema=json_schema,
            temperature=temperature,
            max_tokens=max_tokens,
            **adapter_argument(adapter),
        )
        self._put(key, response)
        return response

    def _get(self, key: str) -> ChatResponse | None:
        with self._lock:
            row = self._db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
        return ChatResponse.model_validate_json(row[0]) if row else None

    def _put(self, key: str, response: ChatResponse) -> None:
        created = datetime.now(UTC).isoformat(timespec="seconds")
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                (key, self.name, response.model_dump_json(), created),
            )

    async def aclose(self) -> None:
        with self._lock:
            self._db.close()
        await self.inner.aclose()


class MeteredLLM(WrapperLLM):
    """Sums the usage of every answer (one instance per document) and enforces a token budget.

    The budget is checked before each request: the call that crosses it still
    returns, the next one raises ``BudgetExceededError``. ``aclose`` is a no-op
    because the metered model is shared with other documents.
    """

    def __init__(self, inner: LLM, *, budget: int | None = None):  # budget: total tokens
        super().__init__(inner)
        self.budget = budget
        self.usage = Usage()

    async def chat(self, messages: list[Message], **kwargs: Any) -> ChatResponse:
        if self.budget is not None and self.usage.total_tokens >= self.budget:
            raise BudgetExceededError(
                f"token budget of {self.budget} is spent ({self.usage.total_tokens} tokens in "
                f"{self.usage.llm_calls} calls); raise the budget or shorten the document"
            )
        started = time.perf_counter()
        try:
            response = await self.inner.chat(messages, **kwargs)
        except BaseException:
            self._count(Usage(seconds=time.perf_counter() - started))  # failed time still counts
            raise
        self._count(response.usage.model_copy(update={"seconds": time.perf_counter() - started}))
        return response

    def _count(self, usage: Usage) -> None:
        self.usage = self.usage + usage
        attribution.record(usage)  # the document's per-agent ledger, when one is open

    async def aclose(self) -> None:
        pass


class TracingLLM(WrapperLLM):
    """Appends one JSON line per call (request, answer or error, usage) to ``path``."""

    def __init__(self, inner: LLM, path: Path | str):
        super().__init__(inner)
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    async def chat(self, messages: list[Message], **kwargs: Any) -> ChatResponse:
        record: dict[str, Any] = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "model": self.name,
            "agent": attribution.current_agent(),
            "messages": messages,
            "json_schema": kwargs.get("json_schema"),
            "temperature": kwargs.get("temperature", 0.0),
            "max_tokens": kwargs.get("max_tokens"),
        }
        if kwargs.get("adapter"):
            record["adapter"] = self.inner.adapters.get(kwargs["adapter"], kwargs["adapter"])
        started = time.perf_counter()
        try:
            response = await self.inner.chat(messages, **kwargs)
        except BaseException as e:  # cancellations are worth a line too
            record |= {"response": None, "usage": None, "cached": False, "error": f"{type(e).__name__}: {e}"}
            raise
        else:
            record |= {"response": response.text, "usage": response.usage.model_dump(), "cached": response.cached}
            record["error"] = None
            return response
        finally:
            record["seconds"] = round(time.perf_counter() - started, 4)
            self._write(record)

    def _write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as f:
            f.write(line)
