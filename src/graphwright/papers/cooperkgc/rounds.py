"""The round protocol of paper 003, as a LangGraph graph (round 0, then a revising round that repeats): in
round 0 every expert extracts alone; in rounds 1..T each one reads its own last answer and its peers'
simplified answers and revises. Rounds are synchronous: round t reads only round t-1, so the experts of
one round are asked together.

Two shortcuts change no answer: a round that changes nothing ends the collaboration (at temperature 0
the next round's prompts, and so its answers, would be the same), and in the last round only the
experts whose answers are the output speak (the others' would be read by no one).
"""

from __future__ import annotations

import asyncio
import operator
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command
from pydantic import BaseModel

from graphwright.papers.cooperkgc.answers import ANSWER_TYPES
from graphwright.papers.cooperkgc.backgrounds import Task
from graphwright.papers.cooperkgc.team import Expert

Ask = Callable[[Expert, list[tuple[Expert, BaseModel]] | None, BaseModel | None], Awaitable[BaseModel | None]]
Review = Callable[[dict[str, BaseModel]], dict[str, BaseModel]]


@dataclass
class Rounds:
    """Every expert's simplified answer after each round (an expert that did not speak keeps its last)."""

    answers: list[dict[str, BaseModel]] = field(default_factory=list)
    spoke: list[list[str]] = field(default_factory=list)  # who answered in each round
    settled_after: int | None = None  # the round after which nothing changed

    @property
    def final(self) -> dict[str, BaseModel]:
        return self.answers[-1]

    def at(self, t: int) -> dict[str, BaseModel]:
        """The answers after round ``t``; a settled collaboration keeps its last ones."""
        return self.answers[min(t, len(self.answers) - 1)]


@dataclass
class Collaboration:
    """What the rounds graph runs with: the experts, how each is asked, and how far each revises."""

    experts: list[Expert]
    ask: Ask
    rounds: int  # the last round anyone whose answer is read speaks in
    last_round: dict[str, int]  # expert id -> the last round it revises in
    settle: bool
    output: set[Task] | None
    review: Review


class RoundsState(TypedDict, total=False):
    answers: Annotated[list[dict[str, BaseModel]], operator.add]  # after each round
    spoke: Annotated[list[list[str]], operator.add]
    settled_after: int | None


async def alone(state: RoundsState, runtime: Runtime[Collaboration]) -> Command:
    """Round 0: every expert extracts on its own."""
    c = runtime.context
    first = await asyncio.gather(*(c.ask(e, None, None) for e in c.experts))
    answers = c.review({e.id: answer or _empty(e) for e, answer in zip(c.experts, first)})
    return Command(
        goto="revise" if c.rounds > 0 else END, update={"answers": [answers], "spoke": [[e.id for e in c.experts]]}
    )


async def revise(state: RoundsState, runtime: Runtime[Collaboration]) -> Command:
    """Round t: each expert still revising reads its own last answer and its peers', and answers again."""
    c, last = runtime.context, state["answers"][-1]
    t = len(state["answers"])
    speakers = [
        e for e in c.experts if t <= c.last_round[e.id] and (t < c.rounds or c.output is None or e.task in c.output)
    ]
    replies = await asyncio.gather(
        *(c.ask(e, [(p, last[p.id]) for p in c.experts if p is not e], last[e.id]) for e in speakers)
    )
    now = dict(last)
    now.update({e.id: answer for e, answer in zip(speakers, replies) if answer is not None})
    now = c.review(now)
    update: dict = {"answers": [now], "spoke": [[e.id for e in speakers]]}
    # whoever speaks next spoke now, so unchanged answers mean unchanged prompts and answers
    if c.settle and now == last:
        return Command(goto=END, update={**update, "settled_after": t})
    return Command(goto=END if t == c.rounds else "revise", update=update)


def build_rounds():
    graph = StateGraph(RoundsState, context_schema=Collaboration)
    graph.add_node("alone", alone, destinations=("revise", END))
    graph.add_node("revise", revise, destinations=("revise", END))
    graph.add_edge(START, "alone")
    return graph.compile()


ROUNDS = build_rounds()


async def collaborate(
    experts: list[Expert],
    ask: Ask,
    rounds: int,
    *,
    settle: bool = True,
    output: set[Task] | None = None,
    review: Review = lambda answers: answers,
    task_rounds: dict[Task, int] | None = None,
) -> Rounds:
    """Run round 0 and up to ``rounds`` collaboration rounds. ``ask(expert, peers, own)`` returns the
    expert's simplified answer (None when it gave no valid one: its last answer stands); ``review``
    checks a whole round's answers against each other before anyone reads them. ``output``: the tasks
    whose answers are the result (all by default); ``task_rounds``: the last round an expert of a task
    revises in."""
    last_round = {e.id: min(rounds, (task_rounds or {}).get(e.task, rounds)) for e in experts}
    rounds = max((last_round[e.id] for e in experts if output is None or e.task in output), default=0)
    context = Collaboration(experts, ask, rounds, last_round, settle, output, review)
    final = await ROUNDS.ainvoke({"answers": [], "spoke": []}, context=context, config={"recursion_limit": rounds + 5})
    return Rounds(answers=final["answers"], spoke=final["spoke"], settled_after=final.get("settled_after"))


def _empty(expert: Expert) -> BaseModel:
    return ANSWER_TYPES[expert.task]()
