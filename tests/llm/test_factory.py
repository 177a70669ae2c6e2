from __future__ import annotations

import pytest

from graphwright.errors import UnknownNameError, UserError
from graphwright.llm import CachedLLM, EmbeddedLLM, OpenAICompatLLM, RetryingLLM, TracingLLM, make_llm


def test_factory_default_is_the_embedded_1_5b_model_behind_a_cache(isolated_env):
    llm = make_llm()
    assert isinstance(llm, CachedLLM) and isinstance(llm.inner, EmbeddedLLM)
    assert llm.name == "embedded:qwen2.5-coder-1.5b"
    assert llm.path == isolated_env / "llm-cache.sqlite"


def test_factory_embedded_model_by_name():
    assert make_llm("embedded:qwen2.5-coder-0.5b", cache=False).name == "embedded:qwen2.5-coder-0.5b"
    assert make_llm("qwen2.5-coder-0.5b", cache=False).name == "embedded:qwen2.5-coder-0.5b"
    assert isinstance(make_llm("embedded", cache=False), EmbeddedLLM), "no retry layer for the embedded model"


def test_factory_unknown_embedded_model_lists_the_valid_names():
    with pytest.raises(UnknownNameError, match="valid names: qwen2.5-coder-0.5b, qwen2.5-coder-1.5b"):
        make_llm("embedded:llama-70b")


def test_factory_openai_spec_builds_cache_over_retry_over_backend(tmp_path):
    llm = make_llm(
        "openai:gpt-test", base_url="http://127.0.0.1:8000/v1", api_key="k",
        cache_path=tmp_path / "c.sqlite", retries=2, trace_path=tmp_path / "trace.jsonl",
    )  # fmt: skip
    assert isinstance(llm, TracingLLM) and isinstance(llm.inner, CachedLLM)
    retrying = llm.inner.inner
    assert isinstance(retrying, RetryingLLM) and retrying.max_attempts == 3
    backend = retrying.inner
    assert isinstance(backend, OpenAICompatLLM) and backend.name == "openai:gpt-test" == llm.name
    assert backend.base_url == "http://127.0.0.1:8000/v1/"


def test_factory_reads_the_environment(monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_LLM", "qwen2.5:7b")  # an Ollama-style name with a colon
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "from-openai-env")
    llm = make_llm(cache=False, retries=0)
    assert isinstance(llm, OpenAICompatLLM) and llm.name == "openai:qwen2.5:7b"
    assert llm.base_url == "http://127.0.0.1:11434/v1/" and llm._client.api_key == "from-openai-env"
    monkeypatch.setenv("GRAPHWRIGHT_BASE_URL", "http://127.0.0.1:9999/v1")
    monkeypatch.setenv("GRAPHWRIGHT_API_KEY", "ours")
    llm = make_llm("m", cache=False, retries=0)
    assert llm.base_url == "http://127.0.0.1:9999/v1/" and llm._client.api_key == "ours"


def test_factory_local_server_needs_no_api_key():
    llm = make_llm("m", base_url="http://127.0.0.1:8080/v1", cache=False, retries=0)
    assert llm._client.api_key == "not-needed"


def test_factory_model_name_without_a_server_is_a_user_error():
    with pytest.raises(UserError, match="give a base URL"):
        make_llm("gpt-4o")
