"""Benchmark datasets by name, for the systems that take one (``dataset=conll04``: its schema, domain and
labelled pool).

A system asks here and the benchmarks answer through the ``graphwright.datasets`` entry point
(graphwright.bench.data.source), so no system imports a benchmark loader: `eval run` and the Makefile's
benchmarks name a dataset in the settings they assemble, and a user's own files (``schema_file``,
``pool_file``) need no dataset at all.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any, Literal, Protocol

from graphwright.errors import UserError
from graphwright.model.domain import EntityDomain
from graphwright.model.labelled import NERSample, RESample
from graphwright.model.schema import RelationSchema

GROUP = "graphwright.datasets"
Task = Literal["ner", "re", "ee"]


class RelationData(Protocol):
    name: str
    schema: RelationSchema
    pool: list[RESample]  # labelled samples for retrieval and memory; never the test split


class EntityData(Protocol):
    name: str
    domain: EntityDomain
    train: list[NERSample]  # few-shot examples and the grounding KB; never the test split


class EventData(Protocol):
    name: str
    schema: Any  # graphwright.model.events.EventSchema
    pool: list[Any]  # samples with .text and .events (type, trigger, arguments with role and surface)


class Datasets(Protocol):
    def relations(self, name: str) -> RelationData: ...

    def entities(self, name: str) -> EntityData: ...

    def events(self, name: str) -> EventData: ...

    def task(self, name: str) -> Task | None:
        """What ``name`` is a dataset of, or None when it is none."""


def datasets() -> Datasets:
    """The installed datasets (graphwright's benchmarks), or a UserError saying none are."""
    found = list(entry_points(group=GROUP))
    if not found:
        raise UserError(
            "no datasets are installed (the graphwright.datasets entry point): give the system your "
            "own files (schema_file=..., pool_file=...) instead of dataset=<name>"
        )
    return found[0].load()
