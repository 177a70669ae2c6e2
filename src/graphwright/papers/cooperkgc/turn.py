"""One expert's turn: its call with bounded parse-error feedback, the simplifier and the trace step. The
collaboration (system.py) and the baselines (baselines.py) both ask through it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from graphwright.agents.call import ask_for
from graphwright.errors import ModelOutputError
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM, Message
from graphwright.model import ExtractionResult, TraceStep
from graphwright.papers.cooperkgc.answers import ANSWER_TYPES
from graphwright.papers.cooperkgc.config import CooperKGCConfig
from graphwright.papers.cooperkgc.team import Expert


class Turn:
    """One expert's answer: the call with bounded parse-error feedback, the simplifier, the trace step."""

    def __init__(self, llm: LLM, config: CooperKGCConfig, text: str, result: ExtractionResult):
        self.llm, self.config, self.text, self.result = llm, config, text, result

    async def ask(
        self, expert: Expert, peers: list[tuple[Expert, BaseModel]] | None, own: BaseModel | None
    ) -> BaseModel | None:
        messages = expert.messages(self.text, self.config.demos, own, peers or [])
        return await self.answer(expert, messages, ANSWER_TYPES[expert.task], expert.background.json_schema())

    async def answer(
        self,
        expert: Expert,
        messages: list[Message],
        output_type: type[BaseModel],
        schema: dict[str, Any],
        simplify: bool = True,
        labels: list[str] | None = None,
    ) -> BaseModel | None:
        """The parsed answer, simplified under the schema (or its ``labels``); None when the expert gave no
        valid one."""
        try:
            with for_agent(expert.id):
                reply = await ask_for(
                    self.llm,
                    messages,
                    output_type,
                    schema=schema,
                    max_retries=self.config.parse_retries,
                    max_tokens=self.config.max_tokens,
                    salvage_cut_off=True,
                )
        except ModelOutputError as exc:
            self.step(expert.id, error=str(exc))
            self.result.warnings.append(f"{expert.id}: no valid answer ({exc})")
            return None
        answer = expert.background.simplify(reply.parsed, self.text, labels) if simplify else reply.parsed
        self.step(expert.id, output=reply.text)
        return answer

    def step(self, node: str, output: str | None = None, error: str | None = None) -> None:
        self.result.trace.append(TraceStep(step=len(self.result.trace) + 1, node=node, output=output, error=error))
