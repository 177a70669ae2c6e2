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


def test_factory_embedded_options_from_the_environment(monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_THREADS", "1")
    monkeypatch.setenv("GRAPHWRIGHT_SLOTS", "2")
    monkeypatch.setenv("GRAPHWRIGHT_SPECULATIVE", "ngram")
    llm = make_llm("embedded:qwen2.5-coder-0.5b", cache=False)
    assert (llm._threads, llm._parallel, llm._speculative) == (1, 2, "ngram")
    assert make_llm("embedded:qwen2.5-coder-0.5b", cache=False, threads=2)._threads == 2  # arguments win
    monkeypatch.setenv("GRAPHWRIGHT_SLOTS", "0")
    with pytest.raises(UserError, match="GRAPHWRIGHT_SLOTS must be at least 1"):
        make_llm("embedded:qwen2.5-coder-0.5b", cache=False)


def test_free_cores_leaves_the_busy_ones(monkeypatch):
    import os

    from graphwright.llm import embedded

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    for busy, free in ((2.2, 2), (9.0, 1), (0.1, 4)):  # never none
        monkeypatch.setattr(embedded, "busy_cores", lambda busy=busy: busy)
        assert embedded.free_cores() == free


def test_busy_cores_counts_other_processes_not_this_one():
    import subprocess
    import sys
    import threading

    from graphwright.llm.embedded import busy_cores

    stop = threading.Event()
    worker = threading.Thread(target=lambda: [None for _ in iter(stop.is_set, True)])  # spins in this process
    worker.start()
    try:
        mine = busy_cores()
    finally:
        stop.set()
        worker.join()
    # measured once the other process spins: its interpreter's start-up is no part of the window
    other = subprocess.Popen(
        [sys.executable, "-c", "print('spinning', flush=True)\nwhile True: pass"], stdout=subprocess.PIPE, text=True
    )
    try:
        other.stdout.readline()
        theirs = busy_cores(window=0.5)
    finally:
        other.kill()
        other.wait()
        other.stdout.close()
    assert theirs >= 0.8  # the other process holds about one core
    assert mine < theirs  # this process's own spinning threads are not "other work"
