"""Fake LLMs for tests and dry runs; they ship in the package so users can test their systems too.

``ScriptedLLM`` replays given replies (or computes them); ``SchemaLLM`` answers
every schema with its smallest valid instance, which exercises the wiring of a
system without a model. Both report token usage of about 4 characters a token.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from graphwright.llm.base import LLM, ChatResponse, Message
from graphwright.model.result import Usage

Reply = str | BaseException
ReplyFunction = Callable[[list[Message], dict[str, Any] | None], str]


class ScriptExhaustedError(AssertionError):
    """The test asked the scripted model more often than it planned; a bug in the test or the code."""


def _usage(messages: list[Message], text: str) -> Usage:
    prompt_chars = sum(len(m.get("content") or "") for m in messages)
    return Usage(llm_calls=1, prompt_tokens=max(1, prompt_chars // 4), completion_tokens=max(1, len(text) // 4))


class ScriptedLLM(LLM):
    """Returns the given replies in order, or ``fn(messages, json_schema)`` for every call.

    A reply that is an exception is raised instead, to script failures.
    ``calls`` records every request (messages, json_schema, temperature, max_tokens).
    """

    def __init__(
        self,
        replies: Sequence[Reply] | ReplyFunction,
        *,
        name: str = "scripted",
        adapters: dict[str, str] | None = None,
    ):
        self.name = name
        self._adapters = adapters or {}  # the adapters it claims to apply, by name -> identity
        self._fn = replies if callable(replies) else None
        self._replies = [] if callable(replies) else list(replies)
        self.calls: list[dict[str, Any]] = []

    @property
    def adapters(self) -> dict[str, str]:
        return self._adapters

    @property
    def remaining(self) -> int:
        return len(self._replies) - len(self.calls) if self._fn is None else 0

    async def chat(
        self,
        messages: list[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        adapter: str | None = None,
    ) -> ChatResponse:
        index = len(self.calls)
        self.calls.append(
            {
                "messages": [dict(m) for m in messages],  # copies: callers often extend their list afterwards
                "json_schema": json_schema,
                "temperature": temperature,
                "max_tokens": max_tokens,
                "adapter": adapter,
            }
        )
        if self._fn is not None:
            reply: Reply = self._fn(messages, json_schema)
        elif index < len(self._replies):
            reply = self._replies[index]
        else:
            last = messages[-1].get("content", "") if messages else ""
            raise ScriptExhaustedError(
                f"{self.name} has only {len(self._replies)} scripted replies but got call {index + 1}; "
                f"its last message was: {last[:200]!r}"
            )
        if isinstance(reply, BaseException):
            raise reply
        return ChatResponse(text=reply, model=self.name, usage=_usage(messages, reply), finish_reason="stop")


class SchemaLLM(LLM):
    """Answers with the smallest JSON instance of the requested schema; ``text`` when none is given."""

    def __init__(self, *, text: str = "ok", name: str = "schema"):
        self.name = name
        self.text = text
        self.calls = 0

    async def chat(
        self,
        messages: list[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        adapter: str | None = None,
    ) -> ChatResponse:
        self.calls += 1
        text = self.text if json_schema is None else json.dumps(minimal_instance(json_schema))
        return ChatResponse(text=text, model=self.name, usage=_usage(messages, text), finish_reason="stop")


_STRING_FORMATS = {
    "date-time": "1970-01-01T00:00:00Z",
    "date": "1970-01-01",
    "time": "00:00:00",
    "duration": "P0D",
    "uri": "http://example.org/",
    "email": "a@example.org",
    "uuid": "00000000-0000-0000-0000-000000000000",
    "ipv4": "127.0.0.1",
}


def minimal_instance(schema: dict[str, Any], root: dict[str, Any] | None = None) -> Any:
    """The smallest value valid under ``schema`` for what pydantic emits.

    Covers $ref/$defs, anyOf/oneOf/allOf, const, enum, objects (required keys
    only), arrays (minItems, prefixItems), strings (minLength, common formats),
    numbers (minimum, exclusiveMinimum), booleans and null. ``pattern`` and
    ``multipleOf`` are not honoured.
    """
    root = schema if root is None else root
    if "$ref" in schema:
        return minimal_instance(_resolve_ref(schema["$ref"], root), root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = schema[key]
            null = next((o for o in options if o.get("type") == "null"), None)
            return None if null is not None else minimal_instance(options[0], root)
    if "allOf" in schema:  # pydantic uses a one-element allOf to attach a description to a $ref
        return minimal_instance(schema["allOf"][0], root)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = "null" if "null" in kind else kind[0]
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "null"
    return _BY_TYPE[kind](schema, root)


def _resolve_ref(ref: str, root: dict[str, Any]) -> dict[str, Any]:
    if not ref.startswith("#/"):
        raise ValueError(f"only local $refs are supported, got {ref!r}")
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def _object(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties", {})
    return {name: minimal_instance(props.get(name, {}), root) for name in schema.get("required", [])}


def _array(schema: dict[str, Any], root: dict[str, Any]) -> list[Any]:
    prefix = [minimal_instance(s, root) for s in schema.get("prefixItems", [])]
    missing = max(0, schema.get("minItems", 0) - len(prefix))
    items = schema.get("items")
    filler = minimal_instance(items, root) if isinstance(items, dict) and missing else None
    return prefix + [filler] * missing


def _string(schema: dict[str, Any], root: dict[str, Any]) -> str:
    if schema.get("format") in _STRING_FORMATS:
        return _STRING_FORMATS[schema["format"]]
    return "x" * schema.get("minLength", 0)


def _number(schema: dict[str, Any], root: dict[str, Any]) -> int | float:
    """The value nearest 0 inside the bounds (0 when unbounded)."""
    integer = schema.get("type") == "integer"
    low, high = schema.get("minimum"), schema.get("maximum")
    x_low, x_high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    floor = max((b for b in (low, x_low) if b is not None), default=None)
    ceiling = min((b for b in (high, x_high) if b is not None), default=None)
    if floor is not None and floor >= 0:
        value = floor
        if floor == x_low:  # must be strictly above
            value = floor + 1 if integer else (floor + ceiling) / 2 if ceiling is not None else floor + 1
    elif ceiling is not None and ceiling <= 0:
        value = ceiling
        if ceiling == x_high:
            value = ceiling - 1 if integer else (floor + ceiling) / 2 if floor is not None else ceiling - 1
    else:
        value = 0
    return int(value) if integer else value


_BY_TYPE: dict[str, Callable[[dict[str, Any], dict[str, Any]], Any]] = {
    "object": _object,
    "array": _array,
    "string": _string,
    "integer": _number,
    "number": _number,
    "boolean": lambda schema, root: False,
    "null": lambda schema, root: None,
}
