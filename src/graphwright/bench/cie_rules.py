"""`make bench-cie-rules`: cie.network's steps for small models (issue 27), one by one, on rebel-sample.

With ``validator=false`` every configuration makes the same two calls per document (extractor, URI
agent), so the model answers once, from a replay file shared by the configurations and kept in the
ledger (docs/bench-ledger/cie-rules--answers-rebel-sample.jsonl): each setting's effect is measured on
the same answers, and another machine recomputes the table without the model. The first ``--dev``
documents were read while the settings were designed; the others are held out, and the table keeps
them apart.

    python -m graphwright.bench.cie_rules --docs 60 --dev 20 --model embedded:qwen2.5-coder-1.5b
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.bootstrap import difference_interval, f1_interval, mean_difference_interval
from graphwright.bench.eval.datasets import load_dataset
from graphwright.bench.eval.metrics import Counts
from graphwright.bench.harness import BENCH_MD, CLOSED_WORLD, header, run_config, slug
from graphwright.bench.ledger import LEDGER, RUNS, ReplayLLM, save
from graphwright.kb import open_kb
from graphwright.llm import make_llm

OFF = {"typed_values": False, "name_check": False, "place_chains": False}
CONFIGS = {  # over lean=true, validator=false and closed-world linking; the last is today's default
    "none of them": OFF,
    "typed_values": {**OFF, "typed_values": True},
    "name_check": {**OFF, "name_check": True},
    "place_chains": {**OFF, "place_chains": True},
    "typed_values + name_check": {**OFF, "typed_values": True, "name_check": True},
    "all three (default)": {},
}
SETTINGS = {**CLOSED_WORLD, "lean": True, "validator": False}


def counts(rows: list[dict]) -> list[Counts]:
    return [Counts(**r["counts"]["triples"]) for r in rows]


def scores(cs: list[Counts]) -> str:
    total = sum(cs, Counts())
    lo, hi = f1_interval(cs)
    macro = sum(c.f1 for c in cs) / len(cs)
    return f"{total.precision:.3f} | {total.recall:.3f} | {total.f1:.3f} [{lo:.3f}, {hi:.3f}] | {macro:.3f}"


def change(cs: list[Counts], base: list[Counts]) -> str:
    lo, hi = difference_interval(cs, base)
    mlo, mhi = mean_difference_interval([c.f1 for c in cs], [c.f1 for c in base])
    delta = sum(cs, Counts()).f1 - sum(base, Counts()).f1
    mdelta = (sum(c.f1 for c in cs) - sum(c.f1 for c in base)) / len(cs)
    return f"{delta:+.3f} ({lo:+.3f} to {hi:+.3f}) | {mdelta:+.3f} ({mlo:+.3f} to {mhi:+.3f})"


def table(results: dict[str, list[dict]], dev: int, docs: int, model: str, command: str) -> str:
    base = results["none of them"]
    lines = header(
        f"cie.network's steps for small models on rebel-sample (documents 1-{dev} read while designing, "
        f"{dev + 1}-{docs} held out)",
        model,
        command,
    )
    lines += [
        "| setting | part | triple P | triple R | micro F1 [95% CI] | macro F1 | Δ micro F1 (paired 95% CI) | "
        "Δ macro F1 (paired 95% CI) | LLM calls | tokens |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, rows in results.items():
        for part, sl in ((f"1-{dev}", slice(0, dev)), (f"{dev + 1}-{docs}", slice(dev, docs))):
            part_rows = rows[sl]
            calls = sum(r["usage"]["llm_calls"] for r in part_rows) / len(part_rows)
            tokens = sum(r["usage"]["prompt_tokens"] + r["usage"]["completion_tokens"] for r in part_rows) / len(
                part_rows
            )
            delta = "- | -" if rows is base else change(counts(part_rows), counts(base[sl]))
            lines.append(f"| {name} | {part} | {scores(counts(part_rows))} | {delta} | {calls:.1f} | {tokens:.0f} |")
    lines += [
        "",
        "Micro F1 over the summed counts with its bootstrap interval; macro F1 is the mean over documents "
        "(the 20-document tables above). Δ: against none of them, on the same documents and answers. "
        "All rows: lean=true, validator=false, linking=closed, the rebel KB.",
    ]
    return "\n".join(lines)


async def main_async(args, command: str) -> None:
    llm = make_llm(args.model, cache=False)
    data = load_dataset("rebel-sample", args.docs)
    kb = open_kb(data.kb)
    replay = ReplayLLM(llm, LEDGER / "cie-rules--answers-rebel-sample.jsonl")
    order = {d.id: i for i, d in enumerate(data.documents)}
    results = {}
    for name, settings in CONFIGS.items():
        folder = RUNS / "cie-rules" / slug(name)
        _, rows = await run_config(
            name, "cie.network", {**SETTINGS, **settings}, data, kb, llm, folder, args.docs, replay=replay
        )
        save(folder)
        results[name] = sorted(rows, key=lambda r: order[r["id"]])
    write_section(BENCH_MD, "cie-rules", table(results, args.dev, args.docs, llm.name, command))
    print(f"wrote the cie-rules table to {BENCH_MD}", file=sys.stderr)
    await llm.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=60)
    parser.add_argument("--dev", type=int, default=20, help="the first documents, read while designing the settings")
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    args = parser.parse_args()
    if not 0 < args.dev < args.docs:
        parser.error("--dev must be between 0 and --docs")
    asyncio.run(main_async(args, "python " + " ".join(sys.argv)))


if __name__ == "__main__":
    main()
