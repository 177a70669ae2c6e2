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
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import from_json

from graphwright.errors import ModelOutputError
from graphwright.llm.base import LLM, Message, adapter_argument
from graphwright.model.result import Usage

T = TypeVar("T", bound=BaseModel)

_FENCE_LANGUAGE = re.compile(r"[a-zA-Z0-9_-]*")

# An answer longer than this is refused unread. Completion budgets here are 512-1024 tokens (~4k
# characters) and servers seldom allow more than ~128k tokens (~500k characters), so a longer answer
# is a runaway loop; parsing JSON into models costs ~17 bytes a character (87 MB for 5 MB of items).
MAX_ANSWER_CHARS = 1_000_000
# a cut inside a number (or, rarely, a string that ends like one: then one complete item is lost)
_ENDS_IN_A_NUMBER = re.compile(r"[:,\[]\s*-?[0-9][0-9.eE+-]*$")
# items dropped from the end of a cut-off answer before giving up: a cut item takes two or three
MAX_DROPS = 16
ERROR_CHARS = 2000  # longest error fed back to the model (and recorded)


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
    """The JSON part of an answer: the body of the first code fence if there is one, else the text stripped."""
    # str.find, not a regex with .*? and \s*: those backtrack quadratically on a long unclosed fence
    opening = text.find("```")
    if opening >= 0:
        language = _FENCE_LANGUAGE.match(text, opening + 3)
        assert language is not None  # the pattern also matches the empty string
        body = language.end()
        closing = text.find("```", body)
        if closing >= 0:
            return text[body:closing].strip()
    return text.strip()


def parse_output(text: str, output_type: type[T]) -> T:
    """Validate an answer against ``output_type``; raises ``ModelOutputError`` written for the model."""
    if len(text) > MAX_ANSWER_CHARS:
        raise ModelOutputError(
            f"the answer is {len(text):,} characters long, more than the {MAX_ANSWER_CHARS:,} accepted; it was not read"
        )
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


def salvage(text: str, output_type: type[T]) -> tuple[T, str] | None:
    """The longest complete part of a cut-off answer that validates, with its text; None if none does.

    pydantic_core reads the answer as far as it goes (``allow_partial``: a string, key or value the cut fell
    in is left out, open brackets are closed); where what is left still does not validate (a triple cut
    after its second name), the last item is dropped, ``MAX_DROPS`` times at most. Only the first
    ``MAX_ANSWER_CHARS`` of an answer are read; one nested deeper than pydantic reads is not salvaged."""
    body = extract_json(text[:MAX_ANSWER_CHARS])
    start = body.find("{")
    if start < 0:
        return None
    try:
        value = from_json(body[start:], allow_partial=True)
    except ValueError:  # not JSON where it stops, or nested too deep
        return None
    if _ENDS_IN_A_NUMBER.search(body):  # "36" cut after its 3 would be read as 3
        _drop_last(value)
    for _ in range(MAX_DROPS):
        if not _holds_a_value(value):  # brackets closed around nothing: ask again instead
            return None
        kept = json.dumps(value, ensure_ascii=False)
        try:
            return output_type.model_validate_json(kept), kept
        except ValidationError:
            if not _drop_last(value):
                return None
    return None


def _holds_a_value(value: Any) -> bool:
    """Whether a string, number, true, false or null is anywhere inside ``value``."""
    stack = [value]
    while stack:
        node = stack.pop()
        if not isinstance(node, (list, dict)):
            return True
        stack.extend(node if isinstance(node, list) else node.values())
    return False


def _drop_last(value: Any) -> bool:
    """Drop the last item of ``value``'s last branch, where the cut fell, and the list items it leaves empty;
    False when there is nothing to drop."""
    path = [value]
    while isinstance(path[-1], (list, dict)) and path[-1]:
        node = path[-1]
        last = node[-1] if isinstance(node, list) else next(reversed(node.values()))
        if not (isinstance(last, (list, dict)) and last):
            break
        path.append(last)
    node = path.pop()
    if not isinstance(node, (list, dict)) or not node:
        return False
    node.pop() if isinstance(node, list) else node.popitem()
    while not node and path and isinstance(path[-1], list):  # an item left empty goes too
        node = path.pop()
        node.pop()
    return True


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
    return _clip("; ".join(lines), ERROR_CHARS)  # a location can hold a key of any length


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + " …"


CUT_OFF_ECHO = 1500  # characters of a cut-off answer shown back to the model with the error
REJECTED_ECHO = 8000  # characters of another rejected answer shown back: a whole 2k-token answer, not MBs


def _feedback(error: str, cut_off: bool = False) -> str:
    # at temperature 0 the same request is cut off at the same place: only a shorter answer fits
    again = (
        "Answer again, shorter: fewer list items and short strings, so the whole JSON fits."
        if cut_off
        else "Answer again with the corrected JSON only, matching the schema, with no other text."
    )
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
    adapter: str | None = None,
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
        response = await llm.chat(
            history, json_schema=schema, temperature=temperature, max_tokens=max_tokens, **adapter_argument(adapter)
        )
        usage = usage + response.usage
        try:
            output = parse_output(response.text, output_type)
        except ModelOutputError as e:
            errors.append(str(e))
            cut_off = response.finish_reason == "length"
            kept = salvage(response.text, output_type) if cut_off and salvage_cut_off else None
            if kept is not None:
                return StructuredReply(
                    parsed=kept[0], text=kept[1], attempts=attempt, errors=errors, usage=usage, salvaged=True
                )
            if cut_off:
                errors[-1] += " (the answer was cut off at the token limit)"
            history += [
                # a cut-off answer is mostly a loop, a huge one is prose or a loop: echoing all of it can
                # overflow the context window
                {
                    "role": "assistant",
                    "content": response.text[:CUT_OFF_ECHO] + " …" if cut_off else _clip(response.text, REJECTED_ECHO),
                },
                {"role": "user", "content": _feedback(errors[-1], cut_off)},
            ]
            continue
        return StructuredReply(parsed=output, text=response.text, attempts=attempt, errors=errors, usage=usage)
    error = ModelOutputError(f"no valid {output_type.__name__} after {max_retries + 1} attempts: {errors[-1]}")
    error.errors = errors  # type: ignore[attr-defined]  # every attempt's error, for the failure record
    error.usage = usage  # type: ignore[attr-defined]  # tokens spent on the failed answers still count
    raise error
