"""Putting a system together, in one place (issue 45).

A system is built on a model and a KB, with open-world linking and the stated check around it, and given
the graph grown so far when its tools read it. `extract`, `eval run`, the web app's jobs, the Python API
and every Ray worker build their systems here; graphwright.engines chooses where they run, and
`extract_batch` (graphwright.pipeline) runs the documents with the same chunking, resume and failure
records wherever it is called from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from graphwright.errors import UserError
from graphwright.kb.protocol import KnowledgeBase
from graphwright.systems.base import SYSTEMS, System, make_system

if TYPE_CHECKING:
    from graphwright.growth.state import GrowthState


@dataclass(frozen=True)
class ModelChoice:
    """Which model answers, and how: the embedded one by default, or a server's model by name."""

    model: str | None = None  # embedded, embedded:qwen2.5-coder-0.5b, or a server's model name
    base_url: str | None = None
    api_key: str | None = None
    cache: bool = True  # reuse and store answers (graphwright.llm.cache)
    trace_path: Path | None = None  # every call, as JSON lines

    def check(self) -> None:
        if self.base_url and not self.model:
            raise UserError("--base-url needs --model: the name of the model to use on that server")

    def open(self):
        from graphwright.llm import make_llm

        return make_llm(
            self.model, base_url=self.base_url, api_key=self.api_key, cache=self.cache, trace_path=self.trace_path
        )


def check_system(name: str) -> None:
    """Fail on an unknown system name before any model or KB is loaded."""
    SYSTEMS.get(name)


def build_system(name: str, llm, kb: KnowledgeBase | None, settings: dict | None = None, store=None) -> System:
    """The named system with its settings (open-world linking and the stated check around it: make_system),
    reading the graph grown so far in ``store`` when its tools do."""
    system = make_system(name, llm, kb, settings)
    if store is not None:
        attach_store(name, system, store)
    return system


def with_dataset(system: str, settings: dict, dataset_settings: dict) -> dict:
    """A system that reads its data's schema, pool or domain (agentre, agenticner) gets the dataset's
    settings under the user's own."""
    check_system(system)
    return {**dataset_settings, **settings} if SYSTEMS.get(system).capabilities.takes_dataset else settings


class _ReadsGrownGraph(Protocol):
    """A system whose capabilities say ``uses_grown_graph``: its tools read the graph it is given."""

    def attach(self, memory: GrowthState) -> None: ...


def attach_store(name: str, system: System, store) -> None:
    """Give the named system, when its tools read the grown graph, the graph ``store`` holds (the local
    engine only)."""
    if SYSTEMS.get(name).capabilities.uses_grown_graph:
        from graphwright.growth import load

        # cast: the capability promises attach(); the linking wrappers forward it through __getattr__,
        # which neither System nor an isinstance check on a Protocol can see
        cast(_ReadsGrownGraph, system).attach(load(store))
