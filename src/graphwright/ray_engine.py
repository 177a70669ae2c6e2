"""Extraction on a Ray cluster: many workers, one graph (``extract --engine ray``).

Each worker is a Ray actor that holds its own model (the embedded one, or a client of a model server),
KB and system, built once from a ``WorkerSpec``. The driver keeps everything that must have one writer:
it reads the inputs, skips what the store holds, sends each piece of text to an idle worker, and writes
every result to results.jsonl and the store, exactly as a local run does (``pipeline.extract_batch``
does all of that; ``RaySystem`` only stands in for the system). A worker that dies is restarted by Ray
(``max_restarts=-1``); the piece it held is sent again, to the first worker free. A piece whose workers
die more than ``retries`` times (or stay unavailable longer than ``patience``) is recorded as a
retryable failure, so a rerun takes it up.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from graphwright.environment import Environment
from graphwright.errors import LLMUnavailableError, UserError
from graphwright.model import Document, ExtractionResult

if TYPE_CHECKING:
    from ray.actor import ActorHandle


@dataclass(frozen=True)
class WorkerSpec:
    """What a worker needs to build its system; plain values, so Ray can send it to any machine."""

    system: str
    settings: dict[str, Any] = field(default_factory=dict)
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    kb: str = "default"  # a KB name, or a folder every worker machine can read
    cache: bool = True
    trace_folder: str | None = None  # each worker writes llm-trace.worker-N.jsonl here, on its own machine
    threads: int = 1  # CPU threads of a worker's embedded model; also the CPUs Ray reserves for it


_PAUSE = 0.5  # seconds between tries while the workers restart


class WorkerLostError(LLMUnavailableError):
    """The workers running a piece died more times than allowed (retryable: a rerun sends it again)."""


def prepare(spec: WorkerSpec) -> None:
    """Build what the workers share before they start, once, on the driver: the KB (the default one is
    built into the cache folder on first use) and the embedded model's file (assembled from its parts).
    Workers on this machine then only open them; on a cluster, each machine's first worker builds them."""
    from graphwright.kb import open_kb
    from graphwright.llm.assemble import DEFAULT_MODEL, ensure_model

    open_kb(spec.kb)
    model = model_name(spec)
    if is_embedded(model):
        ensure_model(model.partition(":")[2] or DEFAULT_MODEL)


def model_name(spec: WorkerSpec) -> str:
    return spec.model or Environment.read().llm or "embedded"


def is_embedded(model: str) -> bool:
    return model == "embedded" or model.startswith("embedded:")


class _Worker:
    """The actor's body (wrapped by ``ray.remote`` in ``RaySystem``): one system, run one piece at a time
    in the actor's own event loop."""

    def __init__(self, spec: WorkerSpec, index: int) -> None:
        from graphwright.assembly import ModelChoice, build_system
        from graphwright.kb import open_kb

        os.environ["GRAPHWRIGHT_THREADS"] = str(spec.threads)  # read by the embedded model as it loads
        self.loop = asyncio.new_event_loop()
        trace = None if spec.trace_folder is None else Path(spec.trace_folder) / f"llm-trace.worker-{index}.jsonl"
        self.llm = ModelChoice(spec.model, spec.base_url, spec.api_key, spec.cache, trace).open()
        self.kb = open_kb(spec.kb)
        self.system = build_system(spec.system, self.llm, self.kb, spec.settings)

    def run(self, piece: Document) -> ExtractionResult:
        from graphwright.pipeline import run_piece

        return self.loop.run_until_complete(run_piece(self.system, piece))

    def pid(self) -> int:
        return os.getpid()

    def warm_up(self) -> None:
        """Load the model and the KB's index now (both load on first use), so timings start warm."""
        if hasattr(self.kb, "warm_up"):
            self.kb.warm_up()
        self.loop.run_until_complete(self.llm.chat([{"role": "user", "content": "Say OK."}], max_tokens=4))


class RaySystem:
    """Stands in for the system in ``extract_batch``: ``run`` sends the piece to a Ray worker."""

    def __init__(self, spec: WorkerSpec, workers: int, *, retries: int = 3, patience: float = 300.0) -> None:
        """``retries``: deaths a piece may see before it is recorded as failed; ``patience``: seconds it may
        wait for restarting workers (a worker loading the embedded model takes a while)."""
        import ray

        from graphwright.systems.base import SYSTEMS

        if SYSTEMS.get(spec.system).capabilities.uses_grown_graph:
            raise UserError(
                f"{spec.system} reads the graph grown so far, which lives in the driver's store: "
                "run it with --engine local"
            )
        if not ray.is_initialized():
            raise UserError("Ray is not started: call ray.init() (the CLI does, with --address for a cluster)")
        self.name, self.retries, self.patience = spec.system, retries, patience
        self.resent = 0  # pieces sent again because the worker holding them died
        self.model = model_name(spec)
        # an embedded model's worker reserves its threads; a model server's client needs little CPU
        cpus = spec.threads if is_embedded(model_name(spec)) else 0.25
        have = ray.cluster_resources().get("CPU", 0)
        if workers * cpus > have:
            raise UserError(
                f"{workers} workers of {cpus:g} CPUs each need {workers * cpus:g} CPUs; the Ray cluster has "
                f"{have:g}: use fewer --workers (or GRAPHWRIGHT_THREADS for fewer threads each)"
            )
        actor = ray.remote(max_restarts=-1, num_cpus=cpus)(_Worker)
        self.workers = [actor.remote(spec, i) for i in range(workers)]
        self._idle: asyncio.Queue | None = None  # made in the batch's event loop, on first use

    async def run(self, piece: Document) -> ExtractionResult:
        from ray.exceptions import ActorUnavailableError, RayActorError

        if self._idle is None:
            self._idle = asyncio.Queue()
            for worker in self.workers:
                self._idle.put_nowait(worker)
        deaths, waited = 0, 0.0
        last: ActorUnavailableError | RayActorError | None = None
        while True:
            worker = await self._idle.get()
            try:
                return await worker.run.remote(piece)
            except ActorUnavailableError as exc:  # restarting (a death Ray is still mending): try again shortly
                last, pause = exc, True
            except RayActorError as exc:  # the worker died with the piece; Ray restarts it
                last, pause = exc, False
                deaths += 1
            finally:
                self._idle.put_nowait(worker)
            self.resent += 1
            if deaths > self.retries or waited >= self.patience:
                raise WorkerLostError(
                    f"the Ray workers running it died or stayed unavailable ({deaths} deaths, "
                    f"{waited:.0f} s waited; last: {type(last).__name__}); run again to retry it"
                )
            if pause:
                await asyncio.sleep(_PAUSE)
                waited += _PAUSE

    def describe(self) -> str:
        return f"{self.model} on {len(self.workers)} Ray workers"

    def close(self) -> None:
        import ray

        for worker in self.workers:
            # cast: ray types .remote() as ActorHandle | type[_Worker] (the latter only to type its methods)
            ray.kill(cast("ActorHandle[_Worker]", worker), no_restart=True)

    async def aclose(self) -> None:  # as an LLM closes: the CLI ends a run this way
        self.close()
