"""An expert's background (paper 003): its task, the schema it extracts under, and the labelled pool
its demonstrations come from. A background is named by a dataset (``conll2003``, ``nyt``,
``wikievents``), by a schema file of the user's (an entity domain, a relation schema or an event
schema as YAML), or is ``news``: the schema shipped for the task (CoNLL-2003's entity types, NYT-style
relations, ACE 2005's event types: the paper's English defaults). A schema file has no pool, so its
expert runs zero-shot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeGuard

from pydantic import BaseModel

from graphwright.errors import UserError
from graphwright.model.domain import EntityDomain, load_domain
from graphwright.model.events import EventSchema, EventType, load_event_schema
from graphwright.model.schema import RelationSchema, RelationType, load_schema
from graphwright.papers.cooperkgc import answers as a
from graphwright.retrieval import make_index
from graphwright.systems.datasets import datasets

Task = Literal["ner", "re", "ee"]
TASKS: tuple[Task, ...] = ("ner", "re", "ee")
TASK_NAMES = {"ner": "named entity recognition", "re": "relation extraction", "ee": "event extraction"}
SHIPPED = "news"  # the packaged schemas/<task>-news.yaml
POOL_LIMIT = 1000  # demonstrations come from the first 1,000 labelled samples, as agentre's do


def is_task(name: str) -> TypeGuard[Task]:
    return name in TASKS


@dataclass
class Background:
    task: Task
    name: str
    schema: EntityDomain | RelationSchema | EventSchema
    pool: Sequence[tuple[str, BaseModel]] = field(default_factory=list)  # (text, its answer) for demonstrations

    @property
    def labels(self) -> list[str]:
        """Entity types, relations or event types, in the schema's order."""
        if isinstance(self.schema, EntityDomain):
            return list(self.schema.types)
        return self.schema.names

    @property
    def relation_schema(self) -> RelationSchema:
        """The schema of an ``re`` background."""
        assert isinstance(self.schema, RelationSchema), f"{self.name} is a {self.task} background"
        return self.schema

    @property
    def event_schema(self) -> EventSchema:
        """The schema of an ``ee`` background."""
        assert isinstance(self.schema, EventSchema), f"{self.name} is a {self.task} background"
        return self.schema

    def _type(self, name: str) -> RelationType | EventType:
        """A relation or event type by name: the labels a background is asked about are its schema's."""
        assert not isinstance(self.schema, EntityDomain), f"{self.name} has entity types, not relations or events"
        found = self.schema.get(name)
        assert found is not None, f"{name!r} is not in the {self.name} schema"
        return found

    def _event_type(self, name: str) -> EventType:
        found = self.event_schema.get(name)
        assert found is not None, f"{name!r} is not an event type of {self.name}"
        return found

    @property
    def relation_types(self) -> dict[str, tuple[list[str], list[str]]]:
        """Relation -> (head types, tail types), for a relation schema."""
        return (
            {r.name: (r.head, r.tail) for r in self.schema.relations} if isinstance(self.schema, RelationSchema) else {}
        )

    def guidelines(self, labels: list[str] | None = None) -> str:
        """The schema as prompt lines; ``labels`` keeps only those (in that order)."""
        wanted = self.labels if labels is None else labels
        if isinstance(self.schema, EntityDomain):
            return "\n".join(f"- {t}: {self.schema.types[t]}" for t in wanted)
        return "\n".join(f"- {self._type(name).guideline()}" for name in wanted)

    def json_schema(self, labels: list[str] | None = None) -> dict[str, Any]:
        wanted = self.labels if labels is None else labels
        if self.task == "ner":
            return a.ner_schema(wanted)
        if self.task == "re":
            return a.re_schema(wanted)
        roles = sorted({r for name in wanted for r in self._event_type(name).roles}) or ["none"]
        return a.ee_schema(wanted, roles)

    def simplify(self, answer: BaseModel, text: str, labels: list[str] | None = None) -> BaseModel:
        """The simplifier S: what is valid under the schema (or only ``labels`` of it) and in the text."""
        wanted = self.labels if labels is None else labels
        if self.task == "ner":
            return a.simplify_ner(a.as_answer(answer, a.NERAnswer), text, wanted)
        if self.task == "re":
            cues = {r.name: r.cues for r in self.relation_schema.relations}
            return a.simplify_re(a.as_answer(answer, a.REAnswer), text, wanted, cues)
        roles_of = {name: self._event_type(name).roles for name in wanted}
        return a.simplify_ee(a.as_answer(answer, a.EEAnswer), text, roles_of)

    @cached_property
    def _index(self):
        return make_index("embedding", [text for text, _ in self.pool[:POOL_LIMIT]])

    def demos(self, text: str, k: int) -> list[tuple[str, BaseModel]]:
        """The ``k`` samples nearest to ``text`` among the pool's first POOL_LIMIT (sentence embeddings, the
        order of Euclidean distance for unit vectors; never the text itself)."""
        if k <= 0 or not self.pool:
            return []
        hits = [self.pool[i] for i in self._index.top(text, k + 1)]
        return [h for h in hits if h[0].strip() != text.strip()][:k]


def load_background(task: Task, source: str) -> Background:
    """The background of a ``task`` agent from a dataset name or a schema file."""
    path = Path(source)
    if source == SHIPPED:
        with resources.as_file(resources.files(__package__).joinpath("schemas", f"{task}-{SHIPPED}.yaml")) as shipped:
            return load_background(task, str(shipped))
    if path.suffix in {".yaml", ".yml", ".json"}:
        loader: Callable[[Path], Any] = {"ner": load_domain, "re": load_schema, "ee": load_event_schema}[task]
        schema = loader(path)
        return Background(task, schema.name, schema)
    if dataset_task(source) == task:
        return _FROM_DATASET[task](source)
    raise UserError(f"{source!r} is neither '{SHIPPED}', a {TASK_NAMES[task]} dataset nor a schema file (.yaml/.json)")


def dataset_task(name: str) -> Task | None:
    """Which expert a dataset is for: the one whose background it can be."""
    return datasets().task(name)


def _ner(name: str) -> Background:
    data = datasets().entities(name)
    pool = [(s.text, a.NERAnswer(entities=[[t, s.text[b:e]] for b, e, t in s.char_spans()])) for s in data.train]
    return Background("ner", name, data.domain, pool)


def _re(name: str) -> Background:
    data = datasets().relations(name)
    pool = [(s.text, a.REAnswer(triples=[list(t) for t in s.triples])) for s in data.pool]
    return Background("re", name, data.schema, pool)


def _ee(name: str) -> Background:
    data = datasets().events(name)
    pool = [
        (
            s.text,
            a.EEAnswer(
                events=[
                    a.EventItem(type=e.type, trigger=e.trigger, arguments=[[g.role, g.surface] for g in e.arguments])
                    for e in s.events
                ]
            ),
        )
        for s in data.pool
    ]
    return Background("ee", name, data.schema, pool)


_FROM_DATASET: dict[Task, Callable[[str], Background]] = {"ner": _ner, "re": _re, "ee": _ee}
