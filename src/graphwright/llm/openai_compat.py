"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, llama.cpp server, Ollama, ...).

The SDK's own retries are off (``max_retries=0``): ``RetryingLLM`` is the one
layer that retries, so attempts and backoff are counted in one place. SDK
exceptions are translated here, at the boundary, into ``errors.LLMError``
subclasses, with the original chained.

The answer is read as a stream and parsed here, so that a broken server or proxy is bounded: the
whole exchange has one deadline however slowly bytes arrive, a body above ``MAX_ANSWER_BYTES`` is
refused unread, and a body cut short or not JSON is a transient failure (retried), never a crash.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import openai

from graphwright.errors import LLMResponseError, UserError, response_error
from graphwright.llm.base import (
    LLM,
    ChatResponse,
    Message,
    TransientLLMError,
    json_schema_format,
    response_from_completion,
)
from graphwright.llm.streaming import ChunkCollector, listener, stop_condition

#: HTTP statuses worth another try: request timeout, conflict, rate limit, server errors
RETRYABLE_STATUS = frozenset({408, 409, 429})

#: The largest answer read. A chat completion within any max_tokens is a few hundred KB at most; a
#: larger body is a misbehaving server or proxy, and reading it would let it fill our memory.
MAX_ANSWER_BYTES = 8 * 1024 * 1024


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
        adapter: str | None = None,
    ) -> ChatResponse:
        if adapter:
            raise UserError(f"{self.describe()} has no adapter {adapter!r}: ask only for one in .adapters")
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature}
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if json_schema is not None:
            kwargs["response_format"] = json_schema_format(json_schema)
        if self.extra_body:
            kwargs["extra_body"] = self.extra_body
        started = time.perf_counter()
        on_text, stop_when = listener(), stop_condition()
        collector = ChunkCollector(on_text, stop_when) if on_text is not None or stop_when is not None else None
        if collector is not None:
            kwargs |= {"stream": True, "stream_options": {"include_usage": True}}
        try:
            async with asyncio.timeout(self.timeout):  # the whole exchange, however slowly the answer trickles
                body = await self._post(kwargs, collector)
        except TimeoutError as e:
            raise TransientLLMError(f"{self.describe()}: no answer within {self.timeout:g} s") from e
        except openai.OpenAIError as e:
            raise self._translate(e) from e
        if collector is not None:
            return collector.response(self.name, time.perf_counter() - started)
        return response_from_completion(self._completion(body), self.name, time.perf_counter() - started)

    async def aclose(self) -> None:
        if self._own_http:
            await self._client.close()

    async def _post(self, kwargs: dict[str, Any], collector: ChunkCollector | None = None) -> bytes:
        """The answer's body, read up to MAX_ANSWER_BYTES; HTTP errors raise from the SDK as usual. With
        ``collector`` the body is server-sent events, each data line a chunk handed to it as it comes."""
        chunks, size = [], 0
        async with self._client.chat.completions.with_streaming_response.create(**kwargs) as response:
            try:
                if collector is not None:
                    async for line in response.iter_lines():
                        size += len(line)
                        if size > MAX_ANSWER_BYTES:
                            raise TransientLLMError(f"{self.describe()}: the streamed answer is too large")
                        if (
                            line.startswith("data:")
                            and line[5:].strip() != "[DONE]"
                            and collector.add(json.loads(line[5:]))
                        ):
                            break  # its stop condition holds: closing the stream ends the answer
                    return b""
                async for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > MAX_ANSWER_BYTES:
                        raise TransientLLMError(
                            f"{self.describe()}: the answer is larger than {MAX_ANSWER_BYTES // 2**20} MiB and was "
                            "refused; a chat completion is far smaller (is the URL a chat-completions endpoint?)"
                        )
                    chunks.append(chunk)
            except TransientLLMError:
                raise
            except Exception as e:  # the SDK's HTTP library's own errors: the connection broke mid-answer
                raise TransientLLMError(
                    f"{self.describe()}: the connection broke while the answer was read ({type(e).__name__}: {e})"
                ) from e
        return b"".join(chunks)

    def _completion(self, body: bytes) -> Any:
        try:
            return json.loads(body)
        except (ValueError, RecursionError) as e:  # RecursionError: JSON nested deeper than Python parses
            raise TransientLLMError(
                f"{self.describe()}: the answer is not JSON ({str(e)[:200]}); it began {body[:120]!r}"
            ) from e

    def _translate(self, e: openai.OpenAIError) -> Exception:
        where = self.describe()
        if isinstance(e, openai.APITimeoutError):
            return TransientLLMError(f"{where}: no answer within {self.timeout:g} s")
        if isinstance(e, openai.APIConnectionError):
            cause = e.__cause__ or e
            # httpx's (or httpx2's) ConnectError: nothing listens there; anything else broke after connecting
            what = "cannot connect" if type(cause).__name__ == "ConnectError" else "no answer"
            return TransientLLMError(f"{where}: {what} ({type(cause).__name__}: {cause})")
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
