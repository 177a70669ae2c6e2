from __future__ import annotations

import json
import time

import httpx
import pytest

from graphwright.errors import LLMResponseError, LLMUnavailableError
from graphwright.llm import OpenAICompatLLM, RetryingLLM, TransientLLMError, make_llm

MESSAGES = [{"role": "user", "content": "Say hi."}]


def completion(text: str = "hi") -> httpx.Response:
    return httpx.Response(200, json={
        "id": "c1", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15},
    })  # fmt: skip


class Server:
    """A MockTransport handler answering from a list of responses (or exceptions)."""

    def __init__(self, *replies):
        self.replies, self.requests = list(replies), []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(json.loads(request.content))
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def backend(server: Server) -> OpenAICompatLLM:
    client = httpx.AsyncClient(transport=httpx.MockTransport(server))
    return OpenAICompatLLM("m", base_url="http://llm.test/v1", http_client=client)


async def test_openai_compat_sends_schema_and_reads_usage():
    server = Server(completion('{"a": 1}'))
    schema = {"title": "My Output", "type": "object", "properties": {"a": {"type": "integer"}}}
    response = await backend(server).chat(MESSAGES, json_schema=schema, max_tokens=20)
    assert response.text == '{"a": 1}' and response.model == "openai:m"
    assert (response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.llm_calls) == (12, 3, 1)
    sent = server.requests[0]
    assert sent["model"] == "m" and sent["messages"] == MESSAGES and sent["max_tokens"] == 20
    assert sent["response_format"] == {
        "type": "json_schema", "json_schema": {"name": "My_Output", "schema": schema, "strict": False},
    }  # fmt: skip


async def test_openai_compat_retries_429_then_succeeds():
    server = Server(httpx.Response(429, json={"error": {"message": "slow down"}}), completion("ok"))
    llm = RetryingLLM(backend(server), base_delay=0.001)
    assert (await llm.chat(MESSAGES)).text == "ok"
    assert len(server.requests) == 2 and llm.retries == 1


async def test_openai_compat_retries_5xx_then_succeeds():
    server = Server(httpx.Response(500, text="boom"), httpx.Response(503, text="busy"), completion("ok"))
    llm = RetryingLLM(backend(server), max_attempts=3, base_delay=0.001)
    assert (await llm.chat(MESSAGES)).text == "ok"
    assert len(server.requests) == 3


async def test_openai_compat_timeout_is_retryable():
    server = Server(httpx.ReadTimeout("slow"))
    with pytest.raises(TransientLLMError, match="no answer within"):
        await backend(server).chat(MESSAGES)


async def test_openai_compat_4xx_is_not_retried_and_keeps_the_server_message():
    server = Server(httpx.Response(400, json={"error": {"message": "response_format is not supported"}}))
    llm = RetryingLLM(backend(server), base_delay=0.001)
    with pytest.raises(LLMResponseError, match="HTTP 400: response_format is not supported") as info:
        await llm.chat(MESSAGES)
    assert not isinstance(info.value, LLMUnavailableError)
    assert len(server.requests) == 1


async def test_openai_compat_gives_up_after_max_attempts():
    server = Server(*[httpx.Response(502, text="bad gateway")] * 3)
    llm = RetryingLLM(backend(server), max_attempts=3, base_delay=0.001)
    with pytest.raises(LLMUnavailableError) as info:
        await llm.chat(MESSAGES)
    assert not isinstance(info.value, TransientLLMError), "callers must not retry again"
    assert "openai:m at http://llm.test/v1/ failed 3 time(s)" in str(info.value)
    assert "HTTP 502: bad gateway" in str(info.value)


async def test_openai_compat_unreachable_server_fails_fast_with_a_clear_message():
    llm = make_llm("openai:m", base_url="http://127.0.0.1:9/v1", cache=False, retries=2, retry_delay=0.01)
    started = time.perf_counter()
    with pytest.raises(LLMUnavailableError) as info:
        await llm.chat(MESSAGES)
    await llm.aclose()
    assert time.perf_counter() - started < 5
    message = str(info.value)
    assert "http://127.0.0.1:9/v1" in message and "cannot connect" in message
    assert "Check that the server is running" in message


def test_openai_compat_retry_after_is_honoured():
    llm = RetryingLLM(OpenAICompatLLM("m", base_url="http://llm.test/v1"), base_delay=0.001, max_delay=5)
    assert llm.backoff.delay(1, retry_after=2.0) == 2.0
    assert llm.backoff.delay(1, retry_after=60.0) == 5, "capped at max_delay"
    assert llm.backoff.delay(1, retry_after=None) <= 0.001


async def test_the_servers_prompt_cache_and_time_split_are_read():
    """OpenAI's cached_tokens and llama.cpp's timings (its server sends both) land in the usage."""
    body = {
        "choices": [{"message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 300, "completion_tokens": 20, "prompt_tokens_details": {"cached_tokens": 280}},
        "timings": {"cache_n": 280, "prompt_n": 20, "prompt_ms": 450.0, "predicted_n": 20, "predicted_ms": 1200.0},
    }
    usage = (await backend(Server(httpx.Response(200, json=body))).chat(MESSAGES)).usage
    assert (usage.prompt_tokens, usage.cached_prompt_tokens, usage.completion_tokens) == (300, 280, 20)
    assert (usage.prompt_seconds, usage.generation_seconds) == (0.45, 1.2)
    del body["usage"]["prompt_tokens_details"], body["timings"]["prompt_ms"]  # llama.cpp's cache_n alone will do
    usage = (await backend(Server(httpx.Response(200, json=body))).chat(MESSAGES)).usage
    assert usage.cached_prompt_tokens == 280 and usage.prompt_seconds == 0.0
    body["usage"] = {"prompt_tokens": "many", "completion_tokens": -3}  # nonsense counts are not trusted
    usage = (await backend(Server(httpx.Response(200, json=body))).chat(MESSAGES)).usage
    assert (usage.prompt_tokens, usage.completion_tokens) == (0, 0)
