"""Where a run's system runs: the local engine (this process, on the model and KB opened here) or Ray
workers that each open their own (graphwright.ray_engine). Both build the system with
graphwright.assembly."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphwright.assembly import ModelChoice, build_system, check_system
from graphwright.environment import Environment
from graphwright.errors import UserError
from graphwright.systems.base import System

ENGINES = ("local", "ray")


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


def open_run(
    system: str,
    settings: dict,
    model: ModelChoice,
    kb: str,
    *,
    engine: str = "local",
    address: str | None = None,
    workers: int = 2,
    trace_folder: Path | None = None,
    llm=None,
    knowledge: Any = None,
) -> Run:
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
    return Run(build_system(system, llm, knowledge, settings), opened, llm.name)


def _ray_runner(
    system: str, settings: dict, model: ModelChoice, kb: str, trace_folder: Path, address: str | None, workers: int
):
    """Start or join Ray and build the workers; Ray is imported only here, when asked for."""
    try:
        import ray
    except ImportError as exc:
        raise UserError(f"--engine ray needs Ray: pip install 'graphwright[ray]' ({exc})") from exc
    from graphwright.ray_engine import RaySystem, WorkerSpec, prepare

    kb_spec = kb if kb in ("default", "none", "rebel", "wikidata") else str(Path(kb).resolve())
    # the embedded model's threads: GRAPHWRIGHT_THREADS, else this machine's cores shared by the workers
    threads = Environment.read().threads or max(1, (os.cpu_count() or 1) // workers)
    spec = WorkerSpec(
        system=system,
        settings=settings,
        model=model.model,
        base_url=model.base_url,
        api_key=model.api_key,
        kb=kb_spec,
        cache=model.cache,
        trace_folder=str(trace_folder.resolve()),
        threads=threads,
    )
    prepare(spec)
    if not ray.is_initialized():
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # offline: no usage report
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    return RaySystem(spec, workers)
