"""What one sentence's extraction records, and the helpers every mode shares: one model call with
its trace step, and grounding the answer's arguments in the sentence."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from graphwright.agents.call import call_agent
from graphwright.agents.prompts import PromptTemplate
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM
from graphwright.model import TraceStep
from graphwright.model.labelled import RETriple

M = TypeVar("M", bound=BaseModel)


@dataclass
class SentenceRun:
    """Triples of one sentence, the steps that produced them, and the agent's trajectory (thought,
    action, input, observation per step) for distillation."""

    triples: list[RETriple] = field(default_factory=list)
    steps: list[TraceStep] = field(default_factory=list)
    trajectory: list[dict[str, str]] = field(default_factory=list)
    dropped: list[RETriple] = field(default_factory=list)  # arguments the sentence does not contain
    ruled_out: list[RETriple] = field(default_factory=list)  # argument types their relation does not allow

    def tool(self, name: str, query: str, observation: str) -> None:
        self.steps.append(TraceStep(step=len(self.steps) + 1, node=name, kind="tool", input=query, output=observation))

    def agent(self, node: str, output: str | None = None, error: str | None = None) -> None:
        self.steps.append(TraceStep(step=len(self.steps) + 1, node=node, kind="agent", output=output, error=error))


@dataclass
class Caller:
    """One model call per agent turn, with the bounded parse-error feedback of ``call_agent``."""

    llm: LLM
    max_tokens: int
    parse_retries: int

    async def ask(
        self,
        run: SentenceRun,
        node: str,
        prompt: PromptTemplate,
        output_type: type[M],
        turns: list[dict[str, str]] | None = None,
        **values: Any,
    ) -> M:
        system, user = prompt.render(**values)
        with for_agent(node):
            reply = await call_agent(
                self.llm,
                system,
                user,
                output_type,
                max_retries=self.parse_retries,
                max_tokens=self.max_tokens,
                salvage_cut_off=True,
                history=turns,
            )
        for error in reply.errors:
            run.agent(node, error=error)
        run.agent(node, output=reply.raw)
        return reply.output


def ground(run: SentenceRun, answer: list[Any], sentence: str) -> None:
    """Keep the answer's triples whose head and tail the sentence contains, in the sentence's spelling
    (a small model may change the case or the spacing); the rest are recorded as dropped."""
    for t in answer:
        head, tail = find_argument(t.head, sentence), find_argument(t.tail, sentence)
        triple = RETriple(head or t.head.strip(), t.relation, tail or t.tail.strip())
        target = run.triples if head and tail else run.dropped
        if triple not in target:
            target.append(triple)


def find_argument(argument: str, sentence: str) -> str | None:
    """The argument as the sentence writes it, or None when the sentence does not contain it."""
    text = " ".join(argument.split())
    if not text:
        return None
    if text in sentence:
        return text
    # case aside, and spaces ignored: tokenized corpora split punctuation off ("N.J .", "Maryland 's")
    # where models write it joined, or the other way round
    found = re.search(r"\s*".join(re.escape(c) for c in text if not c.isspace()), sentence, re.IGNORECASE)
    return found.group(0) if found else None


def triples_json(triples: list[RETriple]) -> str:
    return json.dumps([{"head": h, "relation": r, "tail": t} for h, r, t in triples], ensure_ascii=False)
