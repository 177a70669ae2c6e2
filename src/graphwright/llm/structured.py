"""Ask for a pydantic model, parse it, and on failure feed the exact error back to the model.

Constrained decoding makes the syntax right on most backends, but not always
(servers that ignore ``response_format``, truncated answers, validators the
schema cannot express), so every answer is validated here and a bad one gets a
bounded number of corrections.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Generic, Iterator, TypeVar

from pydantic import BaseModel, ValidationError

from graphwright.errors import ModelOutputError
from graphwright.llm.base import LLM, Message
from graphwright.model.result import Usage

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```", re.DOTALL)


@dataclass
class StructuredReply(Generic[T]):
    """The parsed answer and how it was obtained."""

    parsed: T
    text: str  # the raw text of the accepted answer
    attempts: int  # model calls made, 1 when the first answer was valid
    errors: list[str] = field(default_factory=list)  # the error of each rejected answer, in order
    usage: Usage = field(default_factory=Usage)  # summed over all attempts
    salvaged: bool = False  # the answer was cut off and only its complete part was kept


def extract_json(text: str) -> str:
    """The JSON part of an answer: the body of a code fence if there is one, else the text stripped."""
    match = _FENCE.search(text)
    return (match.group(1) if match else text).strip()


def parse_output(text: str, output_type: type[T]) -> T:
    """Validate an answer against ``output_type``; raises ``ModelOutputError`` written for the model."""
    candidate = extract_json(text)
    try:
        return output_type.model_validate_json(candidate)
    except ValidationError as e:
        first_error = e
    # models sometimes wrap the JSON in prose: retry on the outermost {...} or [...]
    starts = [i for i in (candidate.find("{"), candidate.find("[")) if i >= 0]
    end = max(candidate.rfind("}"), candidate.rfind("]"))
    if starts and end > min(starts) and (min(starts), end) != (0, len(candidate) - 1):
        try:
            return output_type.model_validate_json(candidate[min(starts) : end + 1])
        except ValidationError:
            pass
    raise ModelOutputError(_describe(first_error)) from first_error


def closed_prefixes(text: str, limit: int = 400) -> Iterator[str]:
    """The prefixes of a cut-off JSON answer that end after a complete value, each closed with the
    brackets still open, longest first: ``{"triples": [{..}, {"subj`` -> ``{"triples": [{..}]}``;
    ``{"names": ["a", "b", "c`` -> ``{"names": ["a", "b"]}``. Only those that parse as JSON; the caller
    validates them against its model (a closed half object may parse but lack required fields)."""
    start = text.find("{")
    if start < 0:
        return
    # a complete value ends with a closing brace, bracket or quote; look back at most ``limit`` of them
    ends = [i for i in range(len(text) - 1, start, -1) if text[i] in '}]"'][:limit]
    for end in ends:
        prefix = text[start : end + 1]
        closers = _open_brackets(prefix)
        if closers is None:
            continue
        try:
            json.loads(prefix + closers)
        except json.JSONDecodeError:
            continue
        yield prefix + closers


def salvage(text: str, output_type: type[T]) -> tuple[T, str] | None:
    """The longest complete part of a cut-off answer that validates, with its text; None if none does."""
    for closed in closed_prefixes(extract_json(text)):
        try:
            return output_type.model_validate_json(closed), closed
        except ValidationError:
            continue
    return None


def _open_brackets(prefix: str) -> str | None:
    """The closing brackets a JSON prefix still needs; None if it ends inside a string or is unbalanced."""
    stack: list[str] = []
    in_string = escaped = False
    for ch in prefix:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack.pop() != ch:
                return None
    return None if in_string else "".join(reversed(stack))


def _describe(error: ValidationError, limit: int = 8) -> str:
    items = error.errors(include_url=False)
    lines = []
    for item in items[:limit]:  # a small model drowns in a long list; the first few are enough
        if item["type"] == "json_invalid":
            lines.append(f"the answer is not valid JSON: {item['msg']}")
            continue
        where = ".".join(str(part) for part in item["loc"]) or "the top level"
        got = repr(item.get("input"))
        lines.append(f"at {where}: {item['msg']} (got {got[:80]}{'...' if len(got) > 80 else ''})")
    if len(items) > limit:
        lines.append(f"and {len(items) - limit} more errors")
    return "; ".join(lines)


CUT_OFF_ECHO = 1500  # characters of a cut-off answer shown back to the model with the error


def _feedback(error: str, cut_off: bool = False) -> str:
    # at temperature 0 the same request is cut off at the same place: only a shorter answer fits
    again = ("Answer again, shorter: fewer list items and short strings, so the whole JSON fits."
             if cut_off else "Answer again with the corrected JSON only, matching the schema, with no other text.")
    return f"Your answer could not be used: {error}\n{again}"


async def chat_structured(
    llm: LLM,
    messages: list[Message],
    output_type: type[T],
    *,
    max_retries: int = 2,
    use_schema: bool = True,
    schema: dict[str, Any] | None = None,
    temperature: float = 0.0,
    max_tokens: int | None = None,
    salvage_cut_off: bool = False,
) -> StructuredReply[T]:
    """Get a valid ``output_type`` from ``llm``, with up to ``max_retries`` corrections.

    ``schema`` replaces the model's own JSON Schema (e.g. a narrower one for this
    turn); the answer is still validated against ``output_type``. ``use_schema=False`` sends no schema (for backends without constrained
    decoding); the prompt must then describe the format. ``LLMError`` from the
    backend propagates unchanged; only unusable answers are retried here.
    ``salvage_cut_off=True`` keeps the complete part of an answer cut off at the token limit (when it
    validates) instead of retrying: small models at temperature 0 loop on long lists and are cut off
    at the same place on every retry.
    """
    if use_schema and schema is None:
        schema = output_type.model_json_schema()
    elif not use_schema:
        schema = None
    history = list(messages)
    errors: list[str] = []
    usage = Usage()
    for attempt in range(1, max_retries + 2):
        response = await llm.chat(history, json_schema=schema, temperature=temperature, max_tokens=max_tokens)
        usage = usage + response.usage
        try:
            output = parse_output(response.text, output_type)
        except ModelOutputError as e:
            errors.append(str(e))
            cut_off = response.finish_reason == "length"
            kept = salvage(response.text, output_type) if cut_off and salvage_cut_off else None
            if kept is not None:
                return StructuredReply(parsed=kept[0], text=kept[1], attempts=attempt, errors=errors,
                                       usage=usage, salvaged=True)
            if cut_off:
                errors[-1] += " (the answer was cut off at the token limit)"
            history += [
                # a cut-off answer is mostly a loop; echoing all of it can overflow the context window
                {"role": "assistant", "content": (response.text[:CUT_OFF_ECHO] + " …") if cut_off else response.text},
                {"role": "user", "content": _feedback(errors[-1], cut_off)},
            ]
            continue
        return StructuredReply(parsed=output, text=response.text, attempts=attempt, errors=errors, usage=usage)
    error = ModelOutputError(f"no valid {output_type.__name__} after {max_retries + 1} attempts: {errors[-1]}")
    error.errors = errors  # type: ignore[attr-defined]  # every attempt's error, for the failure record
    error.usage = usage  # type: ignore[attr-defined]  # tokens spent on the failed answers still count
    raise error
