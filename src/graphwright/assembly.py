"""Putting a run together, in one place (issue 45).

A run is a system built on a model and a KB, given the graph grown so far when its tools read it, on
the local engine or spread over Ray workers. `extract`, the web app's jobs, the Python API and
`eval run` build their systems here, and `extract_batch` (graphwright.pipeline) runs the documents with
the same chunking, resume and failure records wherever it is called from.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphwright.errors import UserError
from graphwright.systems.base import SYSTEMS, System, load_builtin_systems, make_system

ENGINES = ("local", "ray")


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

        return make_llm(self.model, base_url=self.base_url, api_key=self.api_key, cache=self.cache,
                        trace_path=self.trace_path)


def check_system(name: str) -> None:
    """Fail on an unknown system name before any model or KB is loaded."""
    load_builtin_systems()
    SYSTEMS.get(name)


def build_system(name: str, llm, kb: Any, settings: dict | None = None, store=None) -> System:
    """The named system with its settings (open-world linking and the stated check around it: make_system),
    reading the graph grown so far in ``store`` when its tools do."""
    system = make_system(name, llm, kb, settings)
    if store is not None:
        attach_store(system, store)
    return system


def with_dataset(system: str, settings: dict, dataset_settings: dict) -> dict:
    """A system that reads its data's schema, pool or domain (agentre, agenticner) gets the dataset's
    settings under the user's own."""
    check_system(system)
    return {**dataset_settings, **settings} if getattr(SYSTEMS.get(system), "takes_dataset", False) else settings


@dataclass
class Run:
    """A system ready for `extract_batch`, and what to close once the batch is over (the model, or the Ray
    workers, which are closed the same way)."""

    system: System
    closes: Any  # None when the caller gave the model and closes it itself
    model_name: str

    async def aclose(self) -> None:
        if self.closes is not None:
            await self.closes.aclose()


def open_run(system: str, settings: dict, model: ModelChoice, kb: str, *, engine: str = "local",
             address: str | None = None, workers: int = 2, trace_folder: Path | None = None, llm=None,
             knowledge: Any = None) -> Run:
    """The system on the local engine, on ``llm`` and ``knowledge`` when given (else the model and KB are
    opened here, and the model is closed with the run), or on Ray workers that each open their own. The store is attached by `attach_store`
    once it is open."""
    check_system(system)
    model.check()
    if engine not in ENGINES:
        raise UserError(f"--engine must be local or ray, not {engine!r}")
    if engine == "ray":
        runner = _ray_runner(system, settings, model, kb, trace_folder or Path("."), address, workers)
        return Run(runner, runner, runner.describe())
    if knowledge is None:
        from graphwright.kb import open_kb

        knowledge = open_kb(kb)
    opened = None if llm is not None else model.open()
    llm = llm or opened
    return Run(make_system(system, llm, knowledge, settings), opened, llm.name)


def _ray_runner(system: str, settings: dict, model: ModelChoice, kb: str, trace_folder: Path, address: str | None,
                workers: int):
    """Start or join Ray and build the workers; Ray is imported only here, when asked for."""
    try:
        import ray
    except ImportError as exc:
        raise UserError(f"--engine ray needs Ray: pip install 'graphwright[ray]' ({exc})") from exc
    from graphwright.ray_engine import RaySystem, WorkerSpec, prepare

    kb_spec = kb if kb in ("default", "none", "rebel", "wikidata") else str(Path(kb).resolve())
    # the embedded model's threads: GRAPHWRIGHT_THREADS, else this machine's cores shared by the workers
    threads = int(os.environ.get("GRAPHWRIGHT_THREADS") or max(1, (os.cpu_count() or 1) // workers))
    spec = WorkerSpec(system=system, settings=settings, model=model.model, base_url=model.base_url,
                      api_key=model.api_key, kb=kb_spec, cache=model.cache, trace_folder=str(trace_folder.resolve()),
                      threads=threads)
    prepare(spec)
    if not ray.is_initialized():
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # offline: no usage report
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    return RaySystem(spec, workers)


def attach_store(system: System, store) -> None:
    """Give a system whose tools read the grown graph the graph ``store`` holds (the local engine only)."""
    if getattr(system, "uses_grown_graph", False):
        from graphwright.growth import load

        system.attach(load(store))
