"""`make bench-throughput`: documents per hour of the default system (cie.network with the embedded model)
at concurrency 1, 2 and 4, each with as many llama.cpp slots, and with speculative decoding (n-gram
drafts; the 0.5B model drafting for the 1.5B), on the made-up texts written for this project.

Each configuration loads its own model (2 threads), warms it with one short call, then extracts every text, the
documents in flight at once given by the concurrency. The table gives wall seconds, documents per hour,
tokens, and whether each text got the same triples as with one slot and no drafts (batched decoding
and drafts can change a greedy answer). Each configuration's figures are kept in the ledger
(docs/bench-ledger/throughput--*.json) and not run again.

    python -m graphwright.bench.throughput
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.open_world import made_up_texts
from graphwright.bench.harness import BENCH_MD, header
from graphwright.bench.ledger import LEDGER
from graphwright.kb import open_kb
from graphwright.llm import make_llm
from graphwright.model import Document
from graphwright.pipeline import run_document
from graphwright.systems.base import make_system

THREADS = 2  # fixed, so that the table compares slots and drafts, not what free_cores() saw at each load
# name -> (concurrency, embedded model options)
CONFIGS: dict[str, tuple[int, dict]] = {
    "1 slot": (1, {}),
    "2 slots, 2 at once": (2, {"parallel": 2}),
    "4 slots, 4 at once": (4, {"parallel": 4}),
    "n-gram drafts": (1, {"speculative": "ngram"}),
    "0.5B drafts": (1, {"speculative": "draft:qwen2.5-coder-0.5b"}),
}


async def extract_all(system, docs: list[Document], at_once: int, chunk_chars: int = 4000) -> tuple[list, float]:
    """Every document through ``system``, ``at_once`` at a time; the results and the wall seconds."""
    gate = asyncio.Semaphore(at_once)

    async def one(doc: Document):
        async with gate:
            return await run_document(system, doc, chunk_chars=chunk_chars, max_chars=200_000)

    started = time.perf_counter()
    results = await asyncio.gather(*(one(d) for d in docs))
    return results, time.perf_counter() - started


async def measure(name: str, model: str, system_name: str, docs: list[Document], kb) -> dict:
    concurrency, options = CONFIGS[name]
    llm = make_llm(model, cache=False, threads=THREADS, **options)
    try:
        await llm.chat([{"role": "user", "content": "Say OK."}], max_tokens=4)  # load the model(s) first
        results, seconds = await extract_all(make_system(system_name, llm, kb, None), docs, concurrency)
    finally:
        await llm.aclose()
    return {
        "name": name,
        "concurrency": concurrency,
        "options": options,
        "seconds": round(seconds, 1),
        "documents": len(docs),
        "failed": sum(r.status != "ok" for r in results),
        "prompt_tokens": sum(r.usage.prompt_tokens for r in results),
        "completion_tokens": sum(r.usage.completion_tokens for r in results),
        "generation_seconds": round(sum(r.usage.generation_seconds for r in results), 1),
        "triples": triples_by_document(results),
    }


def triples_by_document(results) -> dict[str, list[str]]:
    """Each document's triples as sorted strings: what two configurations are compared on."""
    return {
        r.document_id: sorted(f"{t.subject.value} {t.predicate.value} {t.object.value}" for t in r.triples)
        for r in results
    }


def table(rows: list[dict], model: str, system_name: str, command: str) -> str:
    lines = header(f"{system_name} throughput on the {rows[0]['documents']} made-up texts", model, command)
    lines += [
        "| configuration | documents at once | wall seconds | documents per hour | completion tokens | "
        "generation seconds (summed over calls) | texts with the 1-slot triples | failed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    reference = rows[0]["triples"]
    for r in rows:
        same = sum(r["triples"].get(doc) == triples for doc, triples in reference.items())
        lines.append(
            f"| {r['name']} | {r['concurrency']} | {r['seconds']:.1f} | {3600 * r['documents'] / r['seconds']:.0f} | "
            f"{r['completion_tokens']:,} | {r['generation_seconds']:.1f} | {same} of {len(reference)} | {r['failed']} |"
        )
    return "\n".join(lines)


async def main_async(args, command: str) -> None:
    docs = [Document(id=t.id, text=t.text) for t in made_up_texts()]
    kb = open_kb("default")
    kb.warm_up()
    rows = []
    for name in args.configs:
        path = LEDGER / f"throughput--{args.system}-{name.replace(' ', '-').replace(',', '').replace('.', '')}.json"
        if path.is_file():
            rows.append(json.loads(path.read_text(encoding="utf-8")))
            continue
        row = await measure(name, args.model, args.system, docs, kb)
        path.write_text(json.dumps(row, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        rows.append(row)
        print(f"{name}: {row['seconds']} s", flush=True)
    write_section(BENCH_MD, f"throughput-{args.system}", table(rows, args.model, args.system, command))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="cie.network")
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument(
        "--configs",
        default=list(CONFIGS),
        type=lambda s: s.split(";"),
        help="semicolon-separated names; the first is the reference",
    )
    args = parser.parse_args()
    asyncio.run(main_async(args, "python -m graphwright.bench.throughput"))


if __name__ == "__main__":
    main()
