"""The one LLM interface every system uses.

A backend implements :meth:`LLM.chat`. Cache, retry, budget and tracing are
wrappers around any backend (see ``wrappers.py``), so systems never know which
concrete backend they talk to.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from pydantic import BaseModel, Field

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
