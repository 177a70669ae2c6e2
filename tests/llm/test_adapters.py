"""Adapters chosen per request: parsed from GRAPHWRIGHT_ADAPTERS, in the cache key only when asked for (so the
keys of untuned requests stay as they were), refused by a model that lacks them, and checked when shipped."""

from __future__ import annotations

import hashlib

import pytest

from graphwright.errors import UserError
from graphwright.llm import adapters as adapters_module
from graphwright.llm.adapters import AdapterSpec, identity, parse_adapters, shipped_adapters
from graphwright.llm.fake import ScriptedLLM
from graphwright.llm.openai_compat import OpenAICompatLLM
from graphwright.llm.wrappers import CachedLLM, cache_key

MESSAGES = [{"role": "user", "content": "Ida Holm works for Holm Data."}]


def test_the_environment_names_adapter_files_or_none(tmp_path):
    file = tmp_path / "a.gguf"
    file.write_bytes(b"adapter")
    assert parse_adapters(f"facts={file}") == {"facts": file}
    assert parse_adapters("none") == {}
    with pytest.raises(UserError, match="not found"):
        parse_adapters(f"facts={tmp_path / 'missing.gguf'}")
    with pytest.raises(UserError, match="name=file.gguf"):
        parse_adapters("facts")
    assert identity(file) == "a.gguf@" + hashlib.sha256(b"adapter").hexdigest()[:12]


async def test_the_cache_keys_an_adapter_by_its_identity_and_leaves_untuned_keys_alone(tmp_path):
    inner = ScriptedLLM(lambda m, s: "answer", name="m", adapters={"facts": "facts.gguf@aaaaaaaaaaaa"})
    cached = CachedLLM(inner, tmp_path / "cache.sqlite")
    await cached.chat(MESSAGES)
    await cached.chat(MESSAGES, adapter="facts")
    assert [c["adapter"] for c in inner.calls] == [None, "facts"]  # the tuned answer is not the untuned one
    await cached.chat(MESSAGES, adapter="facts")
    assert len(inner.calls) == 2 and cached.hits == 1
    assert cache_key("m", MESSAGES, None, temperature=0.0, max_tokens=None) in {
        row[0] for row in cached._db.execute("SELECT key FROM responses")
    }
    inner._adapters = {"facts": "facts.gguf@bbbbbbbbbbbb"}  # a new adapter file is a new model
    await cached.chat(MESSAGES, adapter="facts")
    assert len(inner.calls) == 3
    await cached.aclose()


async def test_a_server_without_adapters_refuses_one():
    llm = OpenAICompatLLM("m", base_url="http://127.0.0.1:9/v1")
    assert llm.adapters == {}
    with pytest.raises(UserError, match="has no adapter 'facts'"):
        await llm.chat(MESSAGES, adapter="facts")
    await llm.aclose()


def test_a_shipped_adapter_is_used_only_as_recorded(tmp_path, monkeypatch):
    folder = tmp_path / "graphwright" / "llm"
    (folder / "adapters").mkdir(parents=True)
    (folder / "adapters" / "m-facts-adapter.gguf").write_bytes(b"weights")
    monkeypatch.setattr(adapters_module.resources, "files", lambda package: folder)

    good = hashlib.sha256(b"weights").hexdigest()
    monkeypatch.setattr(
        adapters_module, "SHIPPED", {("m", "facts"): AdapterSpec("facts", "m", "m-facts-adapter.gguf", good)}
    )
    assert shipped_adapters("m") == {"facts": folder / "adapters" / "m-facts-adapter.gguf"}
    assert shipped_adapters("other") == {}
    monkeypatch.setattr(
        adapters_module, "SHIPPED", {("m", "facts"): AdapterSpec("facts", "m", "m-facts-adapter.gguf", "0" * 64)}
    )
    with pytest.raises(UserError, match="sha256 differs"):
        shipped_adapters("m")
