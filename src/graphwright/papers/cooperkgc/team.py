"""The experts and what each one is asked: its background prompt (P_o + P_t + P_c of paper 003), the
text, and from round 1 on the collaboration prompt P_v with its own last answer and its peers'."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from string import Template

from pydantic import BaseModel

from graphwright.agents.prompts import load_prompt
from graphwright.errors import UserError
from graphwright.llm.base import Message
from graphwright.papers.cooperkgc.answers import render
from graphwright.papers.cooperkgc.backgrounds import (
    TASK_NAMES,
    Background,
    Task,
    dataset_task,
    is_task,
    load_background,
)
from graphwright.papers.cooperkgc.config import CooperKGCConfig

PACKAGE = "graphwright.papers.cooperkgc"
EXPERT = load_prompt(PACKAGE, "expert")
COLLABORATE = load_prompt(PACKAGE, "collaborate")
TYPES = load_prompt(PACKAGE, "types")
INSTRUCTIONS = {task: load_prompt(PACKAGE, task).static.strip() for task in ("ner", "re", "ee")}
KINDS = {"ner": "entity types", "re": "relations", "ee": "event types"}
VIEWS = 3  # self-consistency members: each lists the schema from another third of it


@dataclass
class Expert:
    id: str  # "ner", "re", "ee"; a second expert of a task is "ner-2"
    background: Background
    view: int = 0  # self-consistency members differ by the order of their schema and their demonstration

    @property
    def task(self) -> Task:
        return self.background.task

    def labels(self, only: list[str] | None = None) -> list[str]:
        """The schema's labels (or ``only`` those), rotated by the member's view."""
        labels = [x for x in self.background.labels if only is None or x in only]
        shift = (self.view * len(labels)) // VIEWS
        return labels[shift:] + labels[:shift]

    def prompt(self, text: str, demos: int, only: list[str] | None = None) -> tuple[str, str]:
        """(system, user) of the expert's own extraction: background and demonstrations, then the text."""
        examples = self.background.demos(text, demos + self.view)[self.view :] if demos else []
        shown = "".join(f"\n\nExample text: {t}\nAnswer: {render(answer)}" for t, answer in examples)
        return EXPERT.render(
            task=TASK_NAMES[self.task],
            instructions=INSTRUCTIONS[self.task],
            guidelines=self.background.guidelines(self.labels(only)),
            demos=shown,
            text=text,
        )

    def messages(
        self,
        text: str,
        demos: int,
        own: BaseModel | None = None,
        peers: Sequence[tuple[Expert, BaseModel]] = (),
        only: list[str] | None = None,
    ) -> list[Message]:
        system, user = self.prompt(text, demos, only)
        if own is not None:
            said = "\n".join(
                f"The {TASK_NAMES[p.task]} expert ({p.background.name}) answered: {render(answer)}"
                for p, answer in peers
            )
            user += "\n\n" + Template(COLLABORATE.dynamic).substitute(own=render(own), peers=said).strip()
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def label_messages(self, text: str) -> list[Message]:
        """The first question of the two-stage baseline: which labels the text holds."""
        system, user = TYPES.render(
            task=TASK_NAMES[self.task],
            kind=KINDS[self.task],
            guidelines=self.background.guidelines(self.labels()),
            text=text,
        )
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def build_team(config: CooperKGCConfig) -> tuple[list[Expert], set[Task]]:
    """The experts, and the tasks whose answers are the output (the target, or all tasks without one).

    The first expert of each task is its primary one: its answer goes into the graph; others only advise."""
    sources = {"ner": config.ner, "re": config.re, "ee": config.ee}
    target = config.target
    if config.dataset:
        task = dataset_task(config.dataset)
        if task is None:
            raise UserError(f"cooperkgc: {config.dataset!r} is not an NER, RE or EE dataset")
        target, sources[task] = target or task, config.dataset
    experts: list[Expert] = []
    for member in config.team:
        name, _, source = member.partition(":")
        assert is_task(name)  # the config's validator lets only ner, re and ee through
        taken = sum(e.task == name for e in experts)
        experts.append(
            Expert(name if not taken else f"{name}-{taken + 1}", load_background(name, source or sources[name]))
        )
    if target and not any(e.task == target for e in experts):
        experts.insert(0, Expert(target, load_background(target, sources[target])))
    return experts, {target} if target else {e.task for e in experts}
