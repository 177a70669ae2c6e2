"""How every agent calls the model: ``ask_for`` a parsed answer, ``ask_text`` for a free one.

Both output protocols give the same pydantic model: schema-constrained JSON (reliable on small local
models) or the XML tags of the CIExMAS prompts. A malformed answer is fed back with the parse error, a
bounded number of times; then ModelOutputError goes up to the agent, which incorporates it. No system
calls graphwright.llm.structured or a model's ``chat`` itself (import-linter keeps the first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel

from graphwright.agents.tags import parse_tagged
from graphwright.errors import ModelOutputError
from graphwright.llm.base import LLM, ChatResponse, Message
from graphwright.llm.structured import StructuredReply, chat_structured
from graphwright.model.result import Usage

M = TypeVar("M", bound=BaseModel)
OutputFormat = Literal["json", "xml"]


@dataclass
class AgentReply(Generic[M]):
    output: M
    raw: str
    errors: list[str] = field(default_factory=list)


def format_instructions(output_type: type[BaseModel], fmt: OutputFormat) -> str:
    """How to answer, derived from the output model so prompt and parser agree."""
    fields = []
    for name, f in output_type.model_fields.items():
        fields.append(f"- {name}: {f.description or ''}".rstrip(": "))
    if fmt == "json":
        return "Answer with one JSON object with these fields, in this order:\n" + "\n".join(fields)
    tags = "".join(f"<{name}>...</{name}>" for name in output_type.model_fields)
    return (
        "Answer with these XML tags, in this order: "
        + tags
        + "\n"
        + "\n".join(fields)
        + "\nTags holding lists hold a JSON array."
    )


async def ask_for(
    llm: LLM,
    messages: list[Message],
    output_type: type[M],
    *,
    fmt: OutputFormat = "json",
    **options: Any,
) -> StructuredReply[M]:
    """The one way an agent asks the model for a parsed answer: JSON validated against ``output_type`` (its
    JSON Schema constrains decoding; graphwright.llm.structured), or the XML tags of the CIExMAS prompts. A
    malformed answer is fed back with its error, ``max_retries`` times (default 2). ``options`` go to the
    model call as given (``max_tokens``, ``schema``, ``salvage_cut_off``, ``adapter``, ...), so two agents
    asking the same thing make the same request."""
    if fmt == "json":
        return await chat_structured(llm, messages, output_type, **options)
    max_retries, max_tokens = options.get("max_retries", 2), options.get("max_tokens")
    messages = list(messages)
    errors: list[str] = []
    usage = Usage()
    for attempt in range(1, max_retries + 2):
        response = await llm.chat(messages, max_tokens=max_tokens)
        usage = usage + response.usage
        try:
            parsed = parse_tagged(response.text, output_type)
            return StructuredReply(parsed, response.text, attempt, errors, usage)
        except ModelOutputError as exc:
            errors.append(str(exc))
            messages += [
                {"role": "assistant", "content": response.text},
                {"role": "user", "content": f"ERROR: {exc}"},
            ]
    raise ModelOutputError(errors[-1])


async def ask_text(llm: LLM, messages: list[Message], **options: Any) -> ChatResponse:
    """The model's free answer (a tagged sentence, a written prompt, a policy's turn it parses itself):
    one call, ``options`` as given."""
    return await llm.chat(messages, **options)


async def call_agent(
    llm: LLM,
    system: str,
    user: str,
    output_type: type[M],
    *,
    fmt: OutputFormat = "json",
    max_retries: int = 2,
    max_tokens: int | None = 768,
    schema: dict | None = None,
    salvage_cut_off: bool = False,
    history: list[dict[str, str]] | None = None,
) -> AgentReply[M]:
    """An agent's turn from its system and user messages (``history``: turns between them, worked examples
    as exchanges), through ``ask_for``."""
    messages: list[Message] = [
        {"role": "system", "content": system},
        *(history or []),
        {"role": "user", "content": user},
    ]
    options: dict[str, Any] = {"max_retries": max_retries, "max_tokens": max_tokens}
    if fmt == "json":
        options |= {"schema": schema, "salvage_cut_off": salvage_cut_off}
    reply = await ask_for(llm, messages, output_type, fmt=fmt, **options)
    return AgentReply(output=reply.parsed, raw=reply.text, errors=list(reply.errors))


def dump_output(output: BaseModel) -> str:
    return json.dumps(output.model_dump(), ensure_ascii=False)
