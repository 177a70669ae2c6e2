"""`extract --engine ray`: start or join Ray and build the workers (kept apart so the CLI imports Ray
only when asked)."""

from __future__ import annotations

import os
from pathlib import Path

from graphwright.errors import UserError


def ray_system(system: str, settings: dict, model: str | None, base_url: str | None, api_key: str | None, kb: str,
               cache: bool, out: Path, address: str | None, workers: int):
    try:
        import ray
    except ImportError as exc:
        raise UserError(f"--engine ray needs Ray: pip install 'graphwright[ray]' ({exc})") from exc
    from graphwright.ray_engine import RaySystem, WorkerSpec, prepare

    kb_spec = kb if kb in ("default", "none", "rebel", "wikidata") else str(Path(kb).resolve())
    # the embedded model's threads: GRAPHWRIGHT_THREADS, else this machine's cores shared by the workers
    threads = int(os.environ.get("GRAPHWRIGHT_THREADS") or max(1, (os.cpu_count() or 1) // workers))
    spec = WorkerSpec(system=system, settings=settings, model=model, base_url=base_url, api_key=api_key, kb=kb_spec,
                      cache=cache, trace_folder=str(out.resolve()), threads=threads)
    prepare(spec)
    if not ray.is_initialized():
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # offline: no usage report
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    return RaySystem(spec, workers)
