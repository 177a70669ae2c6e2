"""The one LLM interface every system uses.

A backend implements :meth:`LLM.chat`. Cache, retry, budget and tracing are
wrappers around any backend (see ``wrappers.py``), so systems never know which
concrete backend they talk to.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from pydantic import BaseModel, Field

from graphwright.errors import LLMUnavailableError
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
    ) -> ChatResponse: ...

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release resources (servers, clients). Idempotent."""

    def describe(self) -> str:
        """Where this model lives, for error messages (e.g. "openai:gpt-4o at http://...")."""
        return self.name


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
