from __future__ import annotations

import asyncio
import json

import pytest

from graphwright.errors import BudgetExceededError, LLMResponseError
from graphwright.llm import CachedLLM, MeteredLLM, ScriptedLLM, TracingLLM

MESSAGES = [{"role": "user", "content": "Extract triples from: Merkel was born in Hamburg."}]
SCHEMA = {"type": "object", "properties": {"triples": {"type": "array"}}}


async def test_wrappers_cache_hit_skips_the_backend(tmp_path):
    inner = ScriptedLLM(['{"triples": []}'])  # one reply only: a second backend call would fail
    llm = CachedLLM(inner, tmp_path / "cache.sqlite")
    first = await llm.chat(MESSAGES, json_schema=SCHEMA)
    second = await llm.chat(MESSAGES, json_schema=SCHEMA)
    assert second.text == first.text and len(inner.calls) == 1
    assert (first.cached, second.cached) == (False, True)
    assert second.usage.cached_calls == 1 and second.usage.llm_calls == 1
    assert second.usage.total_tokens == first.usage.total_tokens > 0
    assert (llm.hits, llm.misses) == (1, 1)
    await llm.aclose()


async def test_wrappers_cache_persists_and_keys_on_request(tmp_path):
    path = tmp_path / "cache.sqlite"
    first = CachedLLM(ScriptedLLM(["a"]), path)
    await first.chat(MESSAGES)
    await first.aclose()
    inner = ScriptedLLM(["b", "c", "d"])
    again = CachedLLM(inner, path)
    assert (await again.chat(MESSAGES)).text == "a", "a new instance reads the same file"
    assert (await again.chat(MESSAGES, json_schema=SCHEMA)).text == "b"
    assert (await again.chat(MESSAGES, temperature=0.7)).text == "c"
    other_model = CachedLLM(ScriptedLLM(["e"], name="other"), path)
    assert (await other_model.chat(MESSAGES)).text == "e", "the model name is part of the key"
    await again.aclose()
    await other_model.aclose()


async def test_wrappers_cache_does_not_store_errors(isolated_env):
    inner = ScriptedLLM([LLMResponseError("bad request"), "ok"])
    llm = CachedLLM(inner)
    assert llm.path == isolated_env / "llm-cache.sqlite"
    with pytest.raises(LLMResponseError):
        await llm.chat(MESSAGES)
    assert (await llm.chat(MESSAGES)).text == "ok"
    await llm.aclose()


async def test_wrappers_cache_handles_concurrent_calls(tmp_path):
    llm = CachedLLM(ScriptedLLM(lambda messages, schema: messages[0]["content"].upper()), tmp_path / "c.sqlite")
    requests = [[{"role": "user", "content": f"text {i}"}] for i in range(30)]
    replies = await asyncio.gather(*(llm.chat(m) for m in requests + requests))
    assert [r.text for r in replies] == [f"TEXT {i}" for i in range(30)] * 2
    await llm.aclose()


async def test_wrappers_budget_exceeded_before_the_next_request():
    inner = ScriptedLLM(["x" * 40, "never sent"])
    meter = MeteredLLM(inner, budget=20)
    await meter.chat(MESSAGES)  # crosses the budget but was allowed to start
    assert meter.usage.total_tokens > 20
    with pytest.raises(BudgetExceededError, match="token budget of 20 is spent"):
        await meter.chat(MESSAGES)
    assert len(inner.calls) == 1


async def test_wrappers_meter_sums_usage_per_document():
    meter = MeteredLLM(ScriptedLLM(["one", "two", "three"]))
    responses = [await meter.chat(MESSAGES) for _ in range(3)]
    assert meter.usage.llm_calls == 3
    assert meter.usage.completion_tokens == sum(r.usage.completion_tokens for r in responses)
    assert meter.usage.seconds > 0


async def test_wrappers_trace_writes_one_json_line_per_call(tmp_path):
    path = tmp_path / "trace" / "llm.jsonl"
    llm = TracingLLM(ScriptedLLM(["fine", LLMResponseError("server said no")]), path)
    await llm.chat(MESSAGES, json_schema=SCHEMA)
    with pytest.raises(LLMResponseError):
        await llm.chat(MESSAGES)
    ok, failed = (json.loads(line) for line in path.read_text().splitlines())
    assert ok["model"] == "scripted" and ok["messages"] == MESSAGES and ok["json_schema"] == SCHEMA
    assert ok["response"] == "fine" and ok["error"] is None and ok["usage"]["llm_calls"] == 1 and ok["cached"] is False
    assert failed["response"] is None and failed["error"] == "LLMResponseError: server said no"


async def test_a_cache_hit_spends_no_model_time(tmp_path):
    class Timed(ScriptedLLM):
        async def chat(self, messages, **kwargs):
            response = await super().chat(messages, **kwargs)
            return response.model_copy(
                update={
                    "usage": response.usage.model_copy(
                        update={
                            "seconds": 3.0,
                            "prompt_seconds": 2.0,
                            "generation_seconds": 1.0,
                            "cached_prompt_tokens": 5,
                        }
                    )
                }
            )

    llm = CachedLLM(Timed(["{}"]), tmp_path / "cache.sqlite")
    first, hit = await llm.chat(MESSAGES), await llm.chat(MESSAGES)
    assert (first.usage.prompt_seconds, first.usage.generation_seconds) == (2.0, 1.0)
    assert (hit.usage.seconds, hit.usage.prompt_seconds, hit.usage.generation_seconds) == (0.0, 0.0, 0.0)
    assert (first.usage + hit.usage).cached_prompt_tokens == 10  # the token counts add up as before
    await llm.aclose()
