"""Huge, deeply nested and cut-off model answers end in a parsed result or a short error that is fed
back, in bounded time and memory: never a RecursionError, never MBs echoed into the next prompt."""

from __future__ import annotations

import json
import time
import tracemalloc

import pytest
from pydantic import BaseModel

from graphwright.errors import ModelOutputError
from graphwright.llm import ScriptedLLM, chat_structured, parse_output, structured
from graphwright.llm.structured import (
    CUT_OFF_ECHO,
    ERROR_CHARS,
    MAX_ANSWER_CHARS,
    MAX_DROPS,
    REJECTED_ECHO,
    extract_json,
    salvage,
)

MESSAGES = [{"role": "user", "content": "Who?"}]
DEEP = 100_000


class Person(BaseModel):
    name: str
    age: int


class People(BaseModel):
    people: list[Person]


class Names(BaseModel):
    names: list[str]


class Nested(BaseModel):
    a: Nested | int | None = None


class Counts(BaseModel):
    counts: dict[str, int]


class _CutOff(ScriptedLLM):
    """Every answer stops at the token limit."""

    async def chat(self, messages, **kwargs):
        response = await super().chat(messages, **kwargs)
        return response.model_copy(update={"finish_reason": "length"})


def _people(chars: int, tail: str = "") -> str:
    item = '{"name": "Ada", "age": 36}, '
    return '{"people": [' + item * (chars // len(item)) + tail


def _peak(fn) -> tuple[object, int]:
    tracemalloc.start()
    try:
        return fn(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _bounded(llm: ScriptedLLM) -> None:
    """Nothing sent back to the model is longer than the echo and error caps."""
    for call in llm.calls[1:]:
        for message in call["messages"][len(MESSAGES) :]:
            assert len(message["content"]) <= max(REJECTED_ECHO, CUT_OFF_ECHO) + ERROR_CHARS + 200


@pytest.mark.parametrize(
    "answer",
    [
        "[" + "1, " * 2_000_000 + "1]",  # 6 MB of JSON
        "The model rambles on about Graz {and [Austria]. " * 110_000,  # 5 MB of prose
    ],
)
def test_an_answer_of_megabytes_is_refused_unread_with_its_size(answer):
    assert len(answer) > 5_000_000
    tracemalloc.start()
    try:
        with pytest.raises(
            ModelOutputError,
            match=rf"{len(answer):,} characters long, more than the "
            rf"{MAX_ANSWER_CHARS:,} accepted",
        ) as info:
            parse_output(answer, Person)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # nothing of it was parsed or copied
    assert len(str(info.value)) < 200


async def test_megabyte_answers_are_not_echoed_into_the_retries():
    prose = "Sure, here is everything I know. " * 160_000  # 5 MB
    llm = ScriptedLLM([prose, prose[:900_000], '{"name": "Ada", "age": 36}'])
    reply = await chat_structured(llm, MESSAGES, Person)
    assert reply.parsed.name == "Ada" and reply.attempts == 3
    assert "more than the 1,000,000 accepted" in reply.errors[0] and "not valid JSON" in reply.errors[1]
    _bounded(llm)
    assert sum(len(m["content"]) for m in llm.calls[2]["messages"]) < 2 * (REJECTED_ECHO + 500)


async def test_a_megabyte_answer_that_is_cut_off_keeps_its_complete_part():
    answer = _people(5_000_000, '{"name": "Gra')
    reply = await chat_structured(_CutOff([answer]), MESSAGES, People, salvage_cut_off=True)
    assert reply.salvaged and reply.attempts == 1
    assert len(reply.text) <= MAX_ANSWER_CHARS  # the complete items of the first MAX_ANSWER_CHARS
    assert len(reply.parsed.people) > 30_000 and all(p.name == "Ada" for p in reply.parsed.people)


@pytest.mark.parametrize(
    "answer",
    [
        "[" * DEEP + "]" * DEEP,
        "[" * DEEP,
        '{"a":' * DEEP + "1" + "}" * DEEP,
        '{"a":' * DEEP + "1",
    ],
)
async def test_deep_nesting_is_a_parse_error_not_a_recursion_error(answer):
    with pytest.raises(ModelOutputError, match="recursion limit exceeded"):
        parse_output(answer, Nested)
    assert salvage(answer, Nested) is None
    llm = _CutOff([answer] * 3)
    with pytest.raises(ModelOutputError, match="no valid Nested after 3 attempts: .*recursion limit exceeded"):
        await chat_structured(llm, MESSAGES, Nested, salvage_cut_off=True)
    _bounded(llm)


def test_an_answer_nested_deeper_than_pydantic_reads_is_not_salvaged_and_one_as_deep_is():
    assert salvage('{"names": ["Ada", "Alan", ' + "[" * DEEP, Names) is None  # asked again instead
    nested = '{"a":' * 150 + "1" + "}" * 150
    assert salvage(nested, Nested)[1] == json.dumps(json.loads(nested))


def test_a_long_string_field_parses_and_a_long_wrong_one_is_quoted_in_part():
    name = "x" * 900_000
    assert parse_output(json.dumps({"name": name, "age": 36}), Person).name == name
    with pytest.raises(ModelOutputError, match=r"at age: .*valid integer") as info:
        parse_output(json.dumps({"name": "Ada", "age": name}), Person)
    assert len(str(info.value)) < 300


def test_an_error_naming_a_huge_key_is_clipped():
    answer = json.dumps({"counts": {"k" * 900_000: "many"}})
    with pytest.raises(ModelOutputError, match="at counts.kkk") as info:
        parse_output(answer, Counts)
    assert len(str(info.value)) <= ERROR_CHARS + 2


@pytest.mark.parametrize(
    "answer",
    [
        '{"name": "Ada',
        '{"name": "' + "x" * 900_000,
        '{"names": ["' + "a}" * 450_000,  # every brace inside the open string: once a full scan per brace
        '{"name": "Ada\\',
        '{"name": "Ada\\"',
    ],
)
def test_an_unterminated_string_is_a_parse_error_and_nothing_to_salvage(answer):
    with pytest.raises(ModelOutputError, match="EOF while parsing a string"):
        parse_output(answer, Person)
    assert salvage(answer, Person) is None


def test_braces_inside_a_long_open_string_cost_one_scan():
    answer = '{"names": ["' + "a}" * 2_500_000  # 5 MB: the old code scanned it once per brace, 400 times
    started = time.perf_counter()
    assert salvage(answer, Names) is None  # no complete name: asked again
    assert time.perf_counter() - started < 5  # generous: ~0.01 s now, ~60 s before


def test_complete_items_before_an_unterminated_string_are_salvaged():
    answer = '{"names": ["Ada", "Al\\"an", "' + "x" * 900_000
    assert salvage(answer, Names)[0].names == ["Ada", 'Al"an']


def test_salvage_drops_a_bounded_number_of_items(monkeypatch: pytest.MonkeyPatch):
    """Items that parse but never validate: salvage drops at most MAX_DROPS of them from the end, then gives up."""
    drops: list[int] = []
    drop = structured._drop_last
    monkeypatch.setattr(structured, "_drop_last", lambda value: drops.append(1) or drop(value))
    answer = '{"people": [' + '{"name": "Ada"}, ' * 55_000 + '{"na'  # 0.9 MB, no item has its age
    assert salvage(answer, People) is None
    assert 1 <= len(drops) <= MAX_DROPS


def test_salvage_keeps_complete_values_and_stops_after_the_first_json_value():
    class Loose(BaseModel):
        a: str | int
        b: list = []

    parsed, text = salvage('{"a": "x", "b": [1, "y"], "c', Loose)
    assert (parsed.a, parsed.b) == ("x", [1, "y"]) and text == '{"a": "x", "b": [1, "y"]}'  # the cut key left out
    assert salvage('{"a": 1} and then {"b": 2}', Loose)[1] == '{"a": 1}'
    assert salvage('{"b": [1, 2', Loose) is None  # complete values, but never what the model needs


@pytest.mark.parametrize(
    "text",
    [
        "```json\n" + " \n" * 2_500_000,  # an unclosed fence over 5 MB of blank lines: minutes with the old regex
        "```" + "x```" * 1_250_000,
        "```json\n" + "{" * 5_000_000,
    ],
)
def test_extract_json_is_linear_on_pathological_fences(text):
    started = time.perf_counter()
    extract_json(text)
    salvage(text, Person)
    assert time.perf_counter() - started < 5  # generous: linear takes ~0.05 s; quadratic took minutes


@pytest.mark.parametrize(
    "text, body",
    [
        ('```json\n{"a": 1}\n```', '{"a": 1}'),
        ('```{"a": 1}```', '{"a": 1}'),
        ('text ```json {"a": 1}``` more ```x```', '{"a": 1}'),
        ('```json\n{"a": 1}', '```json\n{"a": 1}'),  # an unclosed fence: the whole text
        ("``````", ""),
    ],
)
def test_extract_json_reads_the_first_fence(text, body):
    assert extract_json(text) == body


def test_a_five_megabyte_cut_off_answer_is_handled_in_bounded_time_and_memory():
    answer = _people(5_000_000, '{"name": "Gra')
    started = time.perf_counter()
    (parsed, text), peak = _peak(lambda: salvage(answer, People))
    assert time.perf_counter() - started < 20  # generous: ~0.3 s untraced; the old code took minutes
    assert len(text) <= MAX_ANSWER_CHARS
    assert peak < 40 * MAX_ANSWER_CHARS  # ~20 bytes a character of the 1 MB actually parsed
