from __future__ import annotations

import datetime as dt
import enum
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from graphwright.llm import SchemaLLM, ScriptedLLM, ScriptExhaustedError, minimal_instance
from graphwright.llm.structured import chat_structured


async def test_fake_scripted_replays_in_order_and_records_calls():
    llm = ScriptedLLM(["one", "two"])
    messages = [{"role": "user", "content": "hi"}]
    assert (await llm.chat(messages)).text == "one"
    messages.append({"role": "assistant", "content": "one"})
    assert (await llm.chat(messages, json_schema={"type": "string"}, max_tokens=5)).text == "two"
    assert len(llm.calls[0]["messages"]) == 1, "calls keep a copy of what was sent"
    assert llm.calls[1]["json_schema"] == {"type": "string"} and llm.calls[1]["max_tokens"] == 5
    with pytest.raises(ScriptExhaustedError, match="only 2 scripted replies but got call 3"):
        await llm.chat(messages)


async def test_fake_scripted_function_and_raised_replies():
    llm = ScriptedLLM(lambda messages, schema: f"{len(messages)} {schema is not None}")
    assert (await llm.chat([{"role": "user", "content": "a"}], json_schema={})).text == "1 True"
    failing = ScriptedLLM([TimeoutError("scripted")])
    with pytest.raises(TimeoutError):
        await failing.chat([{"role": "user", "content": "a"}])


async def test_fake_scripted_reports_plausible_usage():
    response = await ScriptedLLM(["y" * 40]).chat([{"role": "user", "content": "x" * 400}])
    assert (response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.llm_calls) == (100, 10, 1)


class Kind(enum.StrEnum):
    person = "person"
    place = "place"


class Entity(BaseModel):
    name: Annotated[str, Field(min_length=2)]
    kind: Kind
    aliases: list[str] = []


class Triple(BaseModel):
    subject: Entity
    relation: Literal["born in", "member of"]
    object: Entity | None
    confidence: Annotated[float, Field(gt=0, le=1)]
    rank: Annotated[int, Field(ge=1)]
    when: dt.date | None = None


class Graph(BaseModel):
    triples: Annotated[list[Triple], Field(min_length=1)]
    pair: tuple[int, str]
    counts: dict[str, int]
    done: bool
    note: str = Field(description="free text")


async def test_fake_schema_llm_answers_a_valid_instance_of_a_nested_model():
    reply = await chat_structured(SchemaLLM(), [{"role": "user", "content": "go"}], Graph)
    assert reply.attempts == 1
    graph = reply.parsed
    assert len(graph.triples) == 1 and graph.triples[0].subject.name == "xx" and graph.triples[0].rank == 1
    assert 0 < graph.triples[0].confidence <= 1


def test_fake_minimal_instance_covers_common_keywords():
    assert minimal_instance({"type": ["string", "null"]}) is None
    assert minimal_instance({"const": "x"}) == "x"
    assert minimal_instance({"type": "integer", "exclusiveMinimum": 3}) == 4
    assert minimal_instance({"type": "number", "maximum": -2}) == -2
    assert minimal_instance({"type": "string", "format": "date-time"}) == "1970-01-01T00:00:00Z"
    assert minimal_instance({"type": "array", "items": {"type": "boolean"}, "minItems": 2}) == [False, False]


async def test_fake_schema_llm_without_schema_returns_its_text():
    assert (await SchemaLLM(text="plain").chat([{"role": "user", "content": "x"}])).text == "plain"
