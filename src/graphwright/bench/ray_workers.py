"""`make bench-ray`: documents per hour of the default system with the local engine and on Ray with 1 and
2 workers, on this machine, in one run (issue 29).

Every configuration extracts the same documents (the made-up texts, repeated to --documents) with the
same model and no LLM cache, after its model and KB are loaded; the table gives that start-up apart.
On 2 cores, one process with 2 threads and two workers with 1 thread each use the same cores: the
comparison says what Ray's split costs or gains here, not what more machines would give.
Each configuration's figures are kept in the ledger (docs/bench-ledger/ray--*.json) and not run again.

    python -m graphwright.bench.ray_workers --model embedded:qwen2.5-coder-0.5b --documents 12
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.open_world import made_up_texts
from graphwright.bench.harness import BENCH_MD, header
from graphwright.bench.ledger import LEDGER
from graphwright.bench.throughput import extract_all, triples_by_document
from graphwright.kb import open_kb
from graphwright.llm import make_llm
from graphwright.model import Document
from graphwright.systems.base import make_system

CORES = 2
# name -> (workers, threads per worker); 0 workers: the local engine
CONFIGS: dict[str, tuple[int, int]] = {
    "local engine, 2 threads": (0, 2),
    "Ray, 1 worker of 2 threads": (1, 2),
    "Ray, 2 workers of 1 thread": (2, 1),
}


async def local(model: str, system_name: str, docs: list[Document], threads: int) -> tuple[float, list, float]:
    started = time.perf_counter()
    llm = make_llm(model, cache=False, threads=threads)
    kb = open_kb("default")
    kb.warm_up()
    try:
        await llm.chat([{"role": "user", "content": "Say OK."}], max_tokens=4)
        startup = time.perf_counter() - started
        results, seconds = await extract_all(make_system(system_name, llm, kb, None), docs, 1, chunk_chars=2000)
    finally:
        await llm.aclose()
    return startup, results, seconds


def on_ray(model: str, system_name: str, docs: list[Document], workers: int, threads: int) -> tuple[float, list, float]:
    import ray

    from graphwright.ray_engine import RaySystem, WorkerSpec, prepare

    spec = WorkerSpec(system=system_name, model=model, kb="default", cache=False, threads=threads)
    prepare(spec)
    started = time.perf_counter()
    system = RaySystem(spec, workers)
    try:
        # ray types an actor as ActorHandle | type[_Worker], and a method of the latter has no .remote
        ray.get([w.warm_up.remote() for w in system.workers])  # type: ignore[attr-defined]
        startup = time.perf_counter() - started
        results, seconds = asyncio.run(extract_all(system, docs, workers, chunk_chars=2000))
    finally:
        system.close()
    return startup, results, seconds


def measure(name: str, model: str, system_name: str, docs: list[Document]) -> dict:
    workers, threads = CONFIGS[name]
    if workers:
        startup, results, seconds = on_ray(model, system_name, docs, workers, threads)
    else:
        startup, results, seconds = asyncio.run(local(model, system_name, docs, threads))
    return {
        "name": name,
        "workers": workers,
        "threads": threads,
        "startup_seconds": round(startup, 1),
        "seconds": round(seconds, 1),
        "documents": len(docs),
        "failed": sum(r.status != "ok" for r in results),
        "completion_tokens": sum(r.usage.completion_tokens for r in results),
        "triples": triples_by_document(results),
    }


def table(rows: list[dict], model: str, system_name: str, command: str) -> str:
    lines = header(f"{system_name} on the local engine and on Ray, {rows[0]['documents']} documents", model, command)
    lines += [
        "| configuration | start-up seconds (model, KB, Ray) | extraction seconds | documents per hour | "
        "vs the local engine | completion tokens | documents with the local engine's triples | failed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    reference = rows[0]
    for r in rows:
        same = sum(r["triples"].get(doc) == triples for doc, triples in reference["triples"].items())
        lines.append(
            f"| {r['name']} | {r['startup_seconds']:.1f} | {r['seconds']:.1f} | "
            f"{3600 * r['documents'] / r['seconds']:.0f} | {reference['seconds'] / r['seconds']:.2f}× | "
            f"{r['completion_tokens']:,} | {same} of {len(reference['triples'])} | {r['failed']} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="cie.network")
    parser.add_argument("--model", default="embedded:qwen2.5-coder-0.5b")
    parser.add_argument("--documents", type=int, default=12)
    args = parser.parse_args()
    texts = made_up_texts()
    # repeated texts get their own ids (a copy number in front), so none is skipped or cached
    docs = [Document(text=f"({i + 1}) {texts[i % len(texts)].text}") for i in range(args.documents)]
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=CORES, include_dashboard=False, log_to_driver=False, configure_logging=False)
    rows = []
    for name in CONFIGS:
        slug = name.lower().replace(",", "").replace(" ", "-")
        path = LEDGER / f"ray--{args.system}-{args.documents}-{slug}.json"
        if path.is_file():
            rows.append(json.loads(path.read_text(encoding="utf-8")))
            continue
        row = measure(name, args.model, args.system, docs)
        path.write_text(json.dumps(row, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        rows.append(row)
        print(f"{name}: {row['startup_seconds']} s start-up, {row['seconds']} s", flush=True)
    ray.shutdown()
    command = f"make bench-ray (python -m graphwright.bench.ray_workers --model {args.model} --system {args.system} --documents {args.documents})"
    write_section(BENCH_MD, f"ray-{args.system}", table(rows, args.model, args.system, command))


if __name__ == "__main__":
    main()
