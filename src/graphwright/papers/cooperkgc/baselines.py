"""The baselines paper 003 measures CooperKGC against, with the same experts, prompts and model:

* ``single``: one call per task (AutoKG's vanilla extraction);
* ``two-stage``: the labels the text holds first, then the extraction under those labels only (ChatIE);
* ``vote``: three members of the same task and a majority vote (self-consistency, the paper's Table 3).
  Sampling at a temperature would not make three answers here (the LLM cache and greedy backends return
  one), so the members differ the way prompt ensembles do: each lists the schema from another place,
  and with demonstrations each gets another neighbour.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, TypeGuard, TypeVar

from pydantic import BaseModel, Field

from graphwright.papers.cooperkgc.answers import ANSWER_TYPES, EEAnswer, EventItem, NERAnswer, REAnswer
from graphwright.papers.cooperkgc.team import VIEWS, Expert

if TYPE_CHECKING:
    from graphwright.papers.cooperkgc.turn import Turn

MEMBERS = VIEWS
A = TypeVar("A", bound=BaseModel)


class Labels(BaseModel):
    labels: list[str] = Field(default_factory=list)


async def run(mode: str, experts: list[Expert], turn: Turn) -> dict[str, BaseModel]:
    how = {"single": single, "two-stage": two_stage, "vote": vote}[mode]
    answers = await asyncio.gather(*(how(e, turn) for e in experts))
    return {e.id: answer or ANSWER_TYPES[e.task]() for e, answer in zip(experts, answers)}


async def single(expert: Expert, turn: Turn) -> BaseModel | None:
    return await turn.ask(expert, None, None)


async def two_stage(expert: Expert, turn: Turn) -> BaseModel | None:
    labels = expert.labels()
    schema = {
        "title": "labels",
        "type": "object",
        "required": ["labels"],
        "additionalProperties": False,
        "properties": {"labels": {"type": "array", "items": {"type": "string", "enum": labels}}},
    }
    chosen = await turn.answer(expert, expert.label_messages(turn.text), Labels, schema, simplify=False)
    assert chosen is None or isinstance(chosen, Labels)  # not simplified: the parsed answer as it came
    only = [x for x in labels if chosen is not None and x in chosen.labels]
    if not only:
        return ANSWER_TYPES[expert.task]()
    messages = expert.messages(turn.text, turn.config.demos, only=only)
    return await turn.answer(
        expert, messages, ANSWER_TYPES[expert.task], expert.background.json_schema(only), labels=only
    )


async def vote(expert: Expert, turn: Turn) -> BaseModel | None:
    members = [replace(expert, id=f"{expert.id}-{k + 1}" if k else expert.id, view=k) for k in range(MEMBERS)]
    answers = [
        a or ANSWER_TYPES[expert.task]() for a in await asyncio.gather(*(turn.ask(m, None, None) for m in members))
    ]
    return majority(answers)


def majority(answers: list[BaseModel]) -> BaseModel:
    """What more than half of the members said: entities and triples as they are; events by type and
    trigger, each with the arguments more than half of the members that found the event gave it."""
    need = len(answers) // 2 + 1
    if _all(answers, NERAnswer):
        return NERAnswer(entities=_kept([[tuple(x) for x in a.entities] for a in answers], need))
    if _all(answers, REAnswer):
        return REAnswer(triples=_kept([[tuple(x) for x in a.triples] for a in answers], need))
    assert _all(answers, EEAnswer)  # the members of a vote share one task, so one answer type
    found: dict[tuple[str, str], list[EventItem]] = {}
    for a in answers:
        for key in dict.fromkeys((e.type, e.trigger) for e in a.events):
            found.setdefault(key, []).append(next(e for e in a.events if (e.type, e.trigger) == key))
    events = [
        EventItem(
            type=t, trigger=w, arguments=_kept([[tuple(x) for x in e.arguments] for e in same], len(same) // 2 + 1)
        )
        for (t, w), same in found.items()
        if len(same) >= need
    ]
    return EEAnswer(events=events)


def _all(answers: list[BaseModel], kind: type[A]) -> TypeGuard[list[A]]:
    """Whether the (non-empty) members' answers are all of ``kind``."""
    return bool(answers) and all(isinstance(a, kind) for a in answers)


def _kept(lists: list[list[tuple[str, ...]]], need: int) -> list[list[str]]:
    counts = Counter(item for items in lists for item in dict.fromkeys(items))
    order = dict.fromkeys(item for items in lists for item in items)
    return [list(item) for item in order if counts[item] >= need]
