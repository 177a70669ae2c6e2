"""The one LLM interface every system uses.

A backend implements :meth:`LLM.chat`. Cache, retry, budget and tracing are
wrappers around any backend (see ``wrappers.py``), so systems never know which
concrete backend they talk to.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from pydantic import BaseModel, Field

from graphwright.errors import LLMResponseError, LLMUnavailableError
from graphwright.model.result import Usage

Message = dict[str, str]  # {"role": "system"|"user"|"assistant", "content": "..."}


class ChatResponse(BaseModel):
    """The text of one completion and what it cost."""

    text: str
    model: str
    usage: Usage = Field(default_factory=Usage)
    cached: bool = False
    finish_reason: str | None = None


class LLM(ABC):
    """An async chat model.

    ``json_schema``, when given, asks the backend for output constrained to that
    JSON Schema (grammar-constrained decoding where the backend supports it).
    ``adapter`` names one of ``adapters``, applied to this request only (a LoRA adapter the backend has
    loaded beside the model, so one loaded model serves tuned and untuned calls).
    """

    #: identifier recorded in provenance and cache keys, e.g. "embedded:qwen2.5-coder-1.5b"
    name: str = "llm"

    @abstractmethod
    async def chat(
        self,
        messages: list[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        adapter: str | None = None,
    ) -> ChatResponse: ...

    @property
    def adapters(self) -> dict[str, str]:
        """The adapters this model can apply, by name, each with its identity (file and digest), which
        provenance and cache keys record; none by default."""
        return {}

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release resources (servers, clients). Idempotent."""

    def describe(self) -> str:
        """Where this model lives, for error messages (e.g. "openai:gpt-4o at http://...")."""
        return self.name


def adapter_argument(adapter: str | None) -> dict[str, str]:
    """``adapter=`` for a model's ``chat`` only when one is asked for, so that models written before
    adapters existed (a test's or a script's) still take every untuned request."""
    return {"adapter": adapter} if adapter else {}


class TransientLLMError(LLMUnavailableError):
    """A failure that may pass on its own: no connection, timeout, HTTP 408/409/429/5xx.

    Backends raise it; ``RetryingLLM`` is the one layer that retries it.
    """

    def __init__(self, message: str, *, status_code: int | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.status_code = status_code
        self.retry_after = retry_after  # seconds the server asked us to wait, if it said


def json_schema_format(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAI ``response_format`` asking for output under ``schema``.

    ``strict`` is off: strict mode rejects schemas pydantic emits (defaults, optional keys).
    """
    # OpenAI allows only [a-zA-Z0-9_-]{1,64} as the name
    title = "".join(c if c.isalnum() or c in "_-" else "_" for c in str(schema.get("title", "output")))[:64]
    return {"type": "json_schema", "json_schema": {"name": title or "output", "schema": schema, "strict": False}}


def response_from_completion(data: Any, model: str, seconds: float) -> ChatResponse:
    """An OpenAI-shaped chat completion (a dict) as a ChatResponse, with what the server says of its
    prompt cache (``usage.prompt_tokens_details.cached_tokens``, or llama.cpp's ``timings.cache_n``) and
    of its time (llama.cpp's ``timings``: prompt and generation milliseconds)."""
    choices = data.get("choices") if isinstance(data, dict) else None
    if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
        raise LLMResponseError(f"{model} returned no choices")
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        message = {}
    usage = _mapping(data.get("usage"))
    timings = _mapping(data.get("timings"))
    content = message.get("content")
    return ChatResponse(
        text=content if isinstance(content, str) else "",
        model=model,
        finish_reason=choice.get("finish_reason"),
        usage=Usage(
            llm_calls=1,
            prompt_tokens=_count(usage.get("prompt_tokens")),
            completion_tokens=_count(usage.get("completion_tokens")),
            cached_prompt_tokens=_count(
                _mapping(usage.get("prompt_tokens_details")).get("cached_tokens", timings.get("cache_n"))
            ),
            prompt_seconds=_count(timings.get("prompt_ms"), float) / 1000,
            generation_seconds=_count(timings.get("predicted_ms"), float) / 1000,
            seconds=seconds,
        ),
    )


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _count(value: Any, kind: type = int) -> Any:
    """A server's number, or 0 when it sent none or nonsense."""
    return kind(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else kind(0)
