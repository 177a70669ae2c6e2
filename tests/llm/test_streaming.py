"""An answer streamed as it is generated: a listener set around a call gets the text so far after each
piece, through the wrappers, from a real HTTP server on 127.0.0.1 streaming server-sent events; a
backend or an answer that cannot stream gives the whole text once."""

from __future__ import annotations

import asyncio

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
