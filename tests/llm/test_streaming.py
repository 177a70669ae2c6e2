"""An answer streamed as it is generated: a listener set around a call gets the text so far after each
piece, through the wrappers, from a real HTTP server on 127.0.0.1 streaming server-sent events; a
backend or an answer that cannot stream gives the whole text once."""

from __future__ import annotations

import asyncio

import pytest

from graphwright.llm import make_llm
from graphwright.llm.fake import ScriptedLLM
from graphwright.llm.streaming import streaming
from tests.support.openai_server import ScriptedOpenAIServer

ANSWER = "Duncan Farrier runs Kettlewick Marine."


async def ask(llm) -> tuple[str, list[str]]:
    seen: list[str] = []
    with streaming(seen.append):
        response = await llm.chat([{"role": "user", "content": "Who runs Kettlewick Marine?"}])
    return response.text, seen


def test_a_server_streams_the_text_so_far_through_the_wrappers(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path))

    async def twice(llm):
        try:
            return await ask(llm), await ask(llm)
        finally:
            await llm.aclose()

    with ScriptedOpenAIServer(lambda messages, fmt: ANSWER) as server:
        llm = make_llm("scripted", base_url=server.base_url, cache=True)  # retry, cache and trace wrappers
        (text, seen), (again, seen_again) = asyncio.run(twice(llm))
        assert text == ANSWER and len(seen) > 3 and seen[-1] == ANSWER
        assert all(ANSWER.startswith(part) for part in seen) and seen == sorted(seen, key=len)
        assert server.requests[0]["stream"] is True
        # the second time from the cache: nothing to stream, the whole text comes back
        assert again == ANSWER and seen_again == [] and len(server.requests) == 1


def test_without_a_listener_nothing_is_streamed_and_a_scripted_model_answers_as_before():
    text, seen = asyncio.run(ask(ScriptedLLM([ANSWER])))
    assert text == ANSWER and seen == []


def test_a_stop_condition_ends_a_streamed_answer_where_it_holds(tmp_path, monkeypatch):
    from graphwright.llm.streaming import stopping

    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path))
    loop = '{"triples": [' + ", ".join(['["A", "b", "C"]'] * 40) + "]}"

    async def ask_stopped(llm):
        try:
            with stopping(lambda text: text.count('["A", "b", "C"]') >= 3):
                return await llm.chat([{"role": "user", "content": "List the facts."}])
        finally:
            await llm.aclose()

    with ScriptedOpenAIServer(lambda messages, fmt: loop) as server:
        response = asyncio.run(ask_stopped(make_llm("scripted", base_url=server.base_url, cache=False)))
        assert response.text.count('["A", "b", "C"]') == 3 and len(response.text) < len(loop) / 5
        assert response.finish_reason == "length"  # as if cut off: the caller keeps the complete part
        assert server.requests[0]["stream"] is True


def test_an_answer_ended_early_counts_the_tokens_the_server_timed():
    from graphwright.llm.streaming import ChunkCollector

    collector = ChunkCollector(None, lambda text: text.endswith("stop"))

    def chunk(piece, n):
        return {
            "choices": [{"delta": {"content": piece}}],
            "timings": {"prompt_n": 40, "cache_n": 60, "predicted_n": n, "predicted_ms": 50.0 * n},
        }

    assert collector.add(chunk("go on ", 1)) is False
    assert collector.add(chunk("stop", 2)) is True
    response = collector.response("m", 1.0)
    assert response.text == "go on stop" and response.finish_reason == "length"
    assert (response.usage.prompt_tokens, response.usage.completion_tokens) == (100, 2)


def test_a_request_the_server_refuses_while_streaming_is_an_error_not_an_empty_answer():
    from graphwright.errors import ContextOverflowError
    from graphwright.llm.streaming import ChunkCollector

    collector = ChunkCollector(None)
    refusal = {"error": {"code": 400, "message": "the request exceeds the available context size", "type": "x"}}
    assert collector.add(refusal) is True
    with pytest.raises(ContextOverflowError, match="exceeds the available context"):
        collector.response("m", 0.1)
