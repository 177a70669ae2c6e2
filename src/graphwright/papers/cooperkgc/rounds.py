"""The round protocol of paper 003: in round 0 every expert extracts alone; in rounds 1..T each one
reads its own last answer and its peers' simplified answers and revises. Rounds are synchronous: round
t reads only round t-1, so the experts of one round are asked together.

Two shortcuts change no answer: a round that changes nothing ends the collaboration (at temperature 0
the next round's prompts, and so its answers, would be the same), and in the last round only the
experts whose answers are the output speak (the others' would be read by no one).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

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
    log = Rounds()
    first = await asyncio.gather(*(ask(e, None, None) for e in experts))
    log.answers.append(review({e.id: answer or _empty(e) for e, answer in zip(experts, first)}))
    log.spoke.append([e.id for e in experts])
    for t in range(1, rounds + 1):
        last = log.answers[-1]
        speakers = [e for e in experts if t <= last_round[e.id] and (t < rounds or output is None or e.task in output)]
        replies = await asyncio.gather(
            *(ask(e, [(p, last[p.id]) for p in experts if p is not e], last[e.id]) for e in speakers)
        )
        now = dict(last)
        now.update({e.id: answer for e, answer in zip(speakers, replies) if answer is not None})
        now = review(now)
        log.answers.append(now)
        log.spoke.append([e.id for e in speakers])
        # whoever speaks next spoke now, so unchanged answers mean unchanged prompts and answers
        if settle and now == last:
            log.settled_after = t
            break
    return log


def _empty(expert: Expert) -> BaseModel:
    return ANSWER_TYPES[expert.task]()
