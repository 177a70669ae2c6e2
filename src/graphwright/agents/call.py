"""One agent turn: prompt in, validated output model out.

Both output protocols give the same pydantic model: schema-constrained JSON
(reliable on small local models) or the XML tags of the CIExMAS prompts.
A malformed answer is fed back with the parse error, a bounded number of
times; then ModelOutputError goes up to the graph, which incorporates it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel

from graphwright.agents.tags import parse_tagged
from graphwright.errors import ModelOutputError
from graphwright.llm.base import LLM
from graphwright.llm.structured import chat_structured

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
    """``history``: turns between the system message and the user's (worked examples as exchanges)."""
    messages = [{"role": "system", "content": system}, *(history or []), {"role": "user", "content": user}]
    if fmt == "json":
        reply = await chat_structured(
            llm,
            messages,
            output_type,
            max_retries=max_retries,
            max_tokens=max_tokens,
            schema=schema,
            salvage_cut_off=salvage_cut_off,
        )
        return AgentReply(output=reply.parsed, raw=reply.text, errors=list(reply.errors))
    errors: list[str] = []
    for _ in range(max_retries + 1):
        response = await llm.chat(messages, max_tokens=max_tokens)
        try:
            return AgentReply(output=parse_tagged(response.text, output_type), raw=response.text, errors=errors)
        except ModelOutputError as exc:
            errors.append(str(exc))
            messages += [
                {"role": "assistant", "content": response.text},
                {"role": "user", "content": f"ERROR: {exc}"},
            ]
    raise ModelOutputError(errors[-1])


def dump_output(output: BaseModel) -> str:
    return json.dumps(output.model_dump(), ensure_ascii=False)
