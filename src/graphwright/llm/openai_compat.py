"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, llama.cpp server, Ollama, ...).

The SDK's own retries are off (``max_retries=0``): ``RetryingLLM`` is the one
layer that retries, so attempts and backoff are counted in one place. SDK
exceptions are translated here, at the boundary, into ``errors.LLMError``
subclasses, with the original chained.
"""

from __future__ import annotations

import time
from typing import Any

import openai

from graphwright.errors import LLMResponseError, response_error
from graphwright.llm.base import LLM, ChatResponse, Message, TransientLLMError, json_schema_format
from graphwright.model.result import Usage

#: HTTP statuses worth another try: request timeout, conflict, rate limit, server errors
RETRYABLE_STATUS = frozenset({408, 409, 429})


class OpenAICompatLLM(LLM):
    """Chat completions over HTTP with the ``openai`` SDK."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 120.0,
        http_client: Any = None,
        extra_body: dict[str, Any] | None = None,
    ):
        self.model = model
        self.name = f"openai:{model}"
        self.extra_body = extra_body  # backend-specific request fields, e.g. {"top_k": 1}
        self._own_http = http_client is None  # an injected client belongs to the caller
        self._client = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or "not-needed",  # local servers ignore it; the SDK insists on one
            timeout=timeout,
            max_retries=0,
            http_client=http_client,
        )
        self.base_url = str(self._client.base_url)
        self.timeout = timeout

    def describe(self) -> str:
        return f"{self.name} at {self.base_url}"

    async def chat(
        self,
        messages: list[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> ChatResponse:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature}
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if json_schema is not None:
            kwargs["response_format"] = json_schema_format(json_schema)
        if self.extra_body:
            kwargs["extra_body"] = self.extra_body
        started = time.perf_counter()
        try:
            completion = await self._client.chat.completions.create(**kwargs)
        except openai.OpenAIError as e:
            raise self._translate(e) from e
        return self._to_response(completion, time.perf_counter() - started)

    async def aclose(self) -> None:
        if self._own_http:
            await self._client.close()

    def _to_response(self, completion: Any, seconds: float) -> ChatResponse:
        if not getattr(completion, "choices", None):
            raise LLMResponseError(f"{self.describe()} returned no choices")
        choice = completion.choices[0]
        usage = completion.usage
        return ChatResponse(
            text=choice.message.content or "",
            model=self.name,
            finish_reason=choice.finish_reason,
            usage=Usage(
                llm_calls=1,
                prompt_tokens=usage.prompt_tokens if usage else 0,
                completion_tokens=usage.completion_tokens if usage else 0,
                seconds=seconds,
            ),
        )

    def _translate(self, e: openai.OpenAIError) -> Exception:
        where = self.describe()
        if isinstance(e, openai.APITimeoutError):
            return TransientLLMError(f"{where}: no answer within {self.timeout:g} s")
        if isinstance(e, openai.APIConnectionError):
            cause = e.__cause__ or e
            return TransientLLMError(f"{where}: cannot connect ({type(cause).__name__}: {cause})")
        if isinstance(e, openai.APIStatusError):
            status = e.status_code
            message = f"{where}: HTTP {status}: {_server_message(e)}"
            if status in RETRYABLE_STATUS or status >= 500:
                return TransientLLMError(message, status_code=status, retry_after=_retry_after(e))
            return response_error(message)
        return LLMResponseError(f"{where}: {type(e).__name__}: {e}")


def _server_message(e: openai.APIStatusError) -> str:
    """The server's own words: OpenAI-style {"error": {"message": ...}} or whatever the body was."""
    body = e.body
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
        if isinstance(error, str):
            return error
    text = e.response.text.strip() if e.response is not None else ""
    return text[:500] or e.message


def _retry_after(e: openai.APIStatusError) -> float | None:
    value = e.response.headers.get("retry-after") if e.response is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:  # an HTTP date; rare enough to fall back to our own backoff
        return None
