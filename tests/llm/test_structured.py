from __future__ import annotations

import pytest
from pydantic import BaseModel

from graphwright.errors import ModelOutputError
from graphwright.llm import ScriptedLLM, chat_structured, parse_output

MESSAGES = [{"role": "system", "content": "Reply in JSON."}, {"role": "user", "content": "Who?"}]


class Person(BaseModel):
    name: str
    age: int


async def test_structured_feeds_the_parse_error_back_and_recovers():
    llm = ScriptedLLM(["Sure! Here it is: name=Ada", '{"name": "Ada", "age": 36}'])
    reply = await chat_structured(llm, MESSAGES, Person)
    assert reply.parsed == Person(name="Ada", age=36)
    assert reply.attempts == 2 and reply.text == '{"name": "Ada", "age": 36}'
    assert len(reply.errors) == 1 and "not valid JSON" in reply.errors[0]
    retry = llm.calls[1]["messages"]
    assert retry[:2] == MESSAGES
    assert retry[2] == {"role": "assistant", "content": "Sure! Here it is: name=Ada"}
    assert retry[3]["role"] == "user" and reply.errors[0] in retry[3]["content"]
    assert reply.usage.llm_calls == 2


async def test_structured_validation_error_names_the_field():
    llm = ScriptedLLM(['{"name": "Ada", "age": "old"}', '{"name": "Ada", "age": 36}'])
    reply = await chat_structured(llm, MESSAGES, Person)
    assert "at age: Input should be a valid integer" in reply.errors[0]
    assert "'old'" in llm.calls[1]["messages"][-1]["content"]


async def test_structured_gives_up_after_max_retries():
    llm = ScriptedLLM(["nope", "{", '{"name": 1}'])
    with pytest.raises(ModelOutputError, match="no valid Person after 3 attempts") as info:
        await chat_structured(llm, MESSAGES, Person, max_retries=2)
    assert len(llm.calls) == 3 and len(info.value.errors) == 3
    assert "at name: Input should be a valid string" in str(info.value)


async def test_structured_sends_the_schema_unless_told_not_to():
    llm = ScriptedLLM(['{"name": "Ada", "age": 36}'] * 2)
    await chat_structured(llm, MESSAGES, Person)
    await chat_structured(llm, MESSAGES, Person, use_schema=False)
    assert llm.calls[0]["json_schema"] == Person.model_json_schema()
    assert llm.calls[1]["json_schema"] is None


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"name": "Ada", "age": 36}\n```',
        '```\n{"name": "Ada", "age": 36}```',
        'Here you go:\n```json\n{"name": "Ada", "age": 36}\n```\nAnything else?',
        'The answer is {"name": "Ada", "age": 36}.',
        '  {"name": "Ada", "age": 36}\n',
    ],
)
def test_structured_tolerates_fences_and_surrounding_text(text):
    assert parse_output(text, Person) == Person(name="Ada", age=36)


class _CutOffOnce(ScriptedLLM):
    """The first answer stops at the token limit, as a long extraction does."""

    async def chat(self, messages, **kwargs):
        response = await super().chat(messages, **kwargs)
        cut = len(self.calls) == 1
        return response.model_copy(update={"finish_reason": "length" if cut else "stop"})


async def test_structured_asks_for_a_shorter_answer_after_a_cut_off():
    llm = _CutOffOnce(['{"name": "Ada Lovelace, Countess of', '{"name": "Ada", "age": 36}'])
    reply = await chat_structured(llm, MESSAGES, Person)
    assert reply.parsed == Person(name="Ada", age=36)
    feedback = llm.calls[1]["messages"][-1]["content"]
    assert "cut off at the token limit" in feedback and "shorter" in feedback


async def test_a_cut_off_answer_is_echoed_only_in_part_so_retries_fit_the_context():
    looping = '{"name": "' + "In vitro, " * 1000
    llm = _CutOffOnce([looping, '{"name": "Ada", "age": 36}'])
    await chat_structured(llm, MESSAGES, Person)
    echoed = llm.calls[1]["messages"][-2]
    assert echoed["role"] == "assistant" and looping.startswith(echoed["content"][:-2])
    assert len(echoed["content"]) < len(looping) // 5


def test_salvage_keeps_the_complete_items_of_a_cut_off_list():
    from graphwright.llm.structured import salvage

    class Triple(BaseModel):
        s: str
        p: str

    class Triples(BaseModel):
        triples: list[Triple]

    class Names(BaseModel):
        names: list[str]

    cut = '{"triples": [{"s": "a", "p": "b"}, {"s": "c}", "p": "d"}, {"s": "e", "p'
    assert [t.s for t in salvage(cut, Triples)[0].triples] == ["a", "c}"]  # {"s": "e"} lacks its p
    assert salvage('{"names": ["Ada", "Alan", "Gra', Names)[1] == '{"names": ["Ada", "Alan"]}'
    assert salvage('{"name": "Ada', Names) is None


def test_salvage_skips_closed_halves_that_do_not_validate():
    from graphwright.llm.structured import salvage

    class People(BaseModel):
        people: list[Person]

    cut = '{"people": [{"name": "Ada", "age": 36}, {"name": "Alan", "age": 41}, {"name": "Gra'
    parsed, text = salvage(cut, People)
    assert [p.name for p in parsed.people] == ["Ada", "Alan"]  # not {"name": "Gra"} closed without its age
    assert salvage('{"people": [{"name": "Ada"', People) is None
    cut_in_a_number = '{"people": [{"name": "Ada", "age": 36}, {"name": "Bo", "age": 4'
    assert [(p.name, p.age) for p in salvage(cut_in_a_number, People)[0].people] == [("Ada", 36)]  # 4 may be 41


async def test_a_looping_string_list_is_salvaged_in_one_call():
    class Names(BaseModel):
        names: list[str]

    looping = '{"names": ["instance of", "occupation", ' + '"instance of", ' * 300 + '"instance o'
    reply = await chat_structured(_CutOffOnce([looping]), MESSAGES, Names, salvage_cut_off=True)
    assert reply.attempts == 1 and reply.salvaged and reply.parsed.names[:2] == ["instance of", "occupation"]


async def test_a_cut_off_list_is_salvaged_when_asked_and_retried_otherwise():
    class People(BaseModel):
        people: list[Person]

    cut = '{"people": [{"name": "Ada", "age": 36}, {"name": "Alan", "age": 41}, {"name": "Gra'
    salvaged = await chat_structured(_CutOffOnce([cut]), MESSAGES, People, salvage_cut_off=True)
    assert salvaged.salvaged and [p.name for p in salvaged.parsed.people] == ["Ada", "Alan"]
    assert salvaged.attempts == 1
    retried = _CutOffOnce([cut, '{"people": []}'])
    reply = await chat_structured(retried, MESSAGES, People)
    assert not reply.salvaged and reply.attempts == 2
