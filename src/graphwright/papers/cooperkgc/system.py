"""``cooperkgc``: entity, relation and event experts that extract from the same text and revise their
answers in rounds by reading one another's (paper 003), and its baselines with the same experts and
prompts: one call per task, a two-stage call and a self-consistency vote (baselines.py)."""

from __future__ import annotations

import time

from pydantic import BaseModel

from graphwright.errors import LLMError
from graphwright.kb.protocol import KnowledgeBase
from graphwright.llm.base import LLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, ExtractionResult, Provenance
from graphwright.papers.cooperkgc import baselines, graph
from graphwright.papers.cooperkgc.answers import (
    ANSWER_TYPES,
    EEAnswer,
    NERAnswer,
    REAnswer,
    as_answer,
    check_events,
    check_relations,
    named,
    render,
)
from graphwright.papers.cooperkgc.config import CooperKGCConfig
from graphwright.papers.cooperkgc.rounds import Rounds, collaborate
from graphwright.papers.cooperkgc.team import EXPERT, Expert, build_team
from graphwright.papers.cooperkgc.turn import Turn


class CooperKGCSystem:
    def __init__(self, llm: LLM, kb: KnowledgeBase | None, config: CooperKGCConfig, name: str = "cooperkgc"):
        self.name, self.llm, self.config = name, llm, config
        self.experts, self.output_tasks = build_team(config)

    async def run(self, document: Document) -> ExtractionResult:
        started = time.perf_counter()
        meter = MeteredLLM(self.llm, budget=self.config.token_budget)
        result = ExtractionResult(document_id=document.id, system=self.name)
        turn = Turn(meter, self.config, document.text, result)
        try:
            if self.config.mode == "collaborate":
                log = await collaborate(
                    self.experts,
                    turn.ask,
                    self.config.rounds,
                    settle=self.config.settle,
                    output=self.output_tasks,
                    review=self.review,
                    task_rounds=self.config.task_rounds,
                )
                answers = log.final
                result.extra.update(
                    rounds=[graph.answer_dump(a) for a in log.answers], spoke=log.spoke, settled_after=log.settled_after
                )
            else:
                answers = self.review(await baselines.run(self.config.mode, self.primary(), turn))
        except LLMError as exc:  # backend down, budget spent: the document fails with its reason
            return ExtractionResult.from_error(
                document.id,
                self.name,
                exc,
                trace=result.trace,
                usage=meter.usage.model_copy(update={"seconds": time.perf_counter() - started}),
            )
        self.fill(result, document, answers)
        result.usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
        return result

    def review(self, answers: dict[str, BaseModel]) -> dict[str, BaseModel]:
        """One round's answers checked against the NER expert's: relation arguments of types the relation
        does not take, and triggers that are names, are dropped (answers.check_relations, check_events)."""
        ner = next((e for e in self.experts if e.task == "ner" and e.id in answers), None)
        typed = named(as_answer(answers[ner.id], NERAnswer)) if ner else {}
        checked = dict(answers)
        for e in self.experts:
            if e.id in answers and e.task == "re" and ner:
                checked[e.id] = check_relations(
                    as_answer(answers[e.id], REAnswer), typed, e.background.relation_types, ner.background.labels
                )
            elif e.id in answers and e.task == "ee":
                checked[e.id] = check_events(as_answer(answers[e.id], EEAnswer), typed)
        return checked

    def primary(self) -> list[Expert]:
        """The first expert of each output task: its answer is the result."""
        firsts: dict[str, Expert] = {}
        for e in self.experts:
            firsts.setdefault(e.task, e)
        return [e for task, e in firsts.items() if task in self.output_tasks]

    def fill(self, result: ExtractionResult, document: Document, answers: dict[str, BaseModel]) -> None:
        """The primary experts' answers as the result's entities, triples and events."""
        for expert in self.primary():
            answer = answers.get(expert.id)
            if answer is None:
                continue
            provenance = Provenance(
                system=self.name, agent=expert.id, model=self.llm.name, prompt_version=f"{EXPERT.id}@{EXPERT.sha}"
            )
            if expert.task == "ner":
                result.entities += graph.entities(document, expert, as_answer(answer, NERAnswer))
            elif expert.task == "re":
                result.triples += graph.triples(document, expert, as_answer(answer, REAnswer), provenance)
            else:
                result.events += graph.events(document, expert, as_answer(answer, EEAnswer), provenance, self.name)
        result.output = "\n".join(f"{e.id}: {render(answers[e.id])}" for e in self.primary() if e.id in answers)


def rounds_of(result: ExtractionResult) -> Rounds:
    """The per-round answers a collaborate run recorded (for the F1-per-round study)."""
    answers = [
        {k: ANSWER_TYPES[k.partition("-")[0]].model_validate(v) for k, v in r.items()}
        for r in result.extra.get("rounds", [])
    ]
    return Rounds(answers=answers, spoke=result.extra.get("spoke", []), settled_after=result.extra.get("settled_after"))
