"""The real 0.5B model in process and behind xllamacpp's HTTP server (slow: a few seconds each).

One thread: with other tests or jobs on the same cores, 2 llama.cpp threads run several times slower."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from graphwright.errors import LLMResponseError, LLMUnavailableError, UnknownNameError, UserError
from graphwright.llm import EmbeddedLLM, OpenAICompatLLM, start_http_server

MESSAGES = [
    {"role": "system", "content": "Extract (subject, relation, object) triples from the user's text as JSON."},
    {"role": "user", "content": "Angela Merkel was born in Hamburg."},
]


class Triple(BaseModel):
    subject: str
    relation: str
    object: str


class Triples(BaseModel):
    triples: list[Triple]


def test_embedded_unknown_model_fails_before_loading():
    with pytest.raises(UnknownNameError):
        EmbeddedLLM("qwen-9000")


async def test_embedded_missing_model_file_is_a_user_error(tmp_path):
    llm = EmbeddedLLM(model_path=tmp_path / "absent.gguf")
    with pytest.raises(UserError, match="model file not found"):
        await llm.chat(MESSAGES)
    await llm.aclose()
    with pytest.raises(LLMUnavailableError, match="is closed"):
        await llm.chat(MESSAGES)


@pytest.mark.slow
async def test_embedded_json_schema_output_validates(small_model):
    llm = EmbeddedLLM(model_path=small_model, n_ctx=512, threads=1)
    assert llm.name == "embedded:qwen2.5-coder-0.5b"
    try:
        response = await llm.chat(MESSAGES, json_schema=Triples.model_json_schema(), max_tokens=120)
        Triples.model_validate_json(response.text)
        assert response.usage.prompt_tokens > 10 and response.usage.completion_tokens > 0
        assert response.usage.prompt_seconds > 0 and response.usage.generation_seconds > 0  # llama.cpp's own split
        assert llm.load_seconds is not None
        again = await llm.chat(MESSAGES, json_schema=Triples.model_json_schema(), max_tokens=120)
        assert again.usage.cached_prompt_tokens >= again.usage.prompt_tokens - 1  # the prompt came from the KV cache
        with pytest.raises(LLMResponseError, match="context size"):
            await llm.chat([{"role": "user", "content": "word " * 1000}], max_tokens=4)
    finally:
        await llm.aclose()


@pytest.mark.slow
async def test_embedded_http_server_serves_the_openai_backend(small_model):
    with start_http_server(model_path=small_model, n_ctx=1024, threads=1) as server:
        assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")
        llm = OpenAICompatLLM(server.model, base_url=server.base_url, timeout=60)
        try:
            response = await llm.chat(MESSAGES, json_schema=Triples.model_json_schema(), max_tokens=120)
        finally:
            await llm.aclose()
    Triples.model_validate_json(response.text)
    assert response.model == "openai:qwen2.5-coder-0.5b" and response.usage.completion_tokens > 0


@pytest.mark.slow
async def test_embedded_schema_max_length_closes_a_runaway_string(small_model):
    from graphwright.papers.agentre.outputs import THOUGHT_CHARS, react_step_model

    step = react_step_model(["SearchSamples", "Finish"], ["Work_For"])
    prompt = [
        {
            "role": "user",
            "content": "Answer in JSON. The thought is the word 'ha' repeated 500 times. Then choose Finish.",
        }
    ]
    llm = EmbeddedLLM(model_path=small_model, n_ctx=1024, threads=1)
    try:
        response = await llm.chat(prompt, json_schema=step.model_json_schema(), max_tokens=400)
    finally:
        await llm.aclose()
    assert response.finish_reason == "stop", "the string closed at the bound and the JSON went on"
    answer = step.model_validate_json(response.text)
    assert len(answer.thought) == THOUGHT_CHARS


@pytest.mark.slow
async def test_embedded_ngram_speculation_gives_the_plain_greedy_answer(small_model):
    """Drafts only propose tokens the model then checks: at temperature 0 the answer is the one without."""
    answers = []
    for speculative in (None, "ngram"):
        llm = EmbeddedLLM(model_path=small_model, n_ctx=1024, threads=1, speculative=speculative)
        try:
            response = await llm.chat(MESSAGES, json_schema=Triples.model_json_schema(), temperature=0.0, max_tokens=96)
        finally:
            await llm.aclose()
        answers.append(response.text)
    assert answers[0] == answers[1] and Triples.model_validate_json(answers[0]).triples


async def test_embedded_unknown_speculation_is_a_user_error(small_model):
    llm = EmbeddedLLM(model_path=small_model, n_ctx=512, threads=1, speculative="telepathy")
    with pytest.raises(UserError, match="unknown speculative decoding 'telepathy'"):
        await llm.chat(MESSAGES)
    await llm.aclose()


@pytest.mark.slow
async def test_the_embedded_model_ends_an_answer_where_a_stop_condition_holds():
    from graphwright.llm.streaming import stopping

    llm = EmbeddedLLM("qwen2.5-coder-0.5b", threads=2, n_ctx=1024, adapters={})
    try:
        with stopping(lambda text: text.count("\n") >= 5):
            response = await llm.chat(
                [{"role": "user", "content": "Count from 1 to 100, one number per line."}], max_tokens=300
            )
    finally:
        await llm.aclose()
    assert response.finish_reason == "length" and response.text.count("\n") == 5
    assert 0 < response.usage.completion_tokens < 40 and response.usage.prompt_tokens > 10


@pytest.mark.slow
async def test_a_streamed_request_the_embedded_server_refuses_raises(small_model):
    from graphwright.llm.streaming import stopping

    llm = EmbeddedLLM(model_path=small_model, n_ctx=256, threads=1)
    try:
        with stopping(lambda text: False), pytest.raises(LLMResponseError, match="context"):
            await llm.chat([{"role": "user", "content": "Angela Merkel was born in Hamburg. " * 80}], max_tokens=8)
    finally:
        await llm.aclose()
