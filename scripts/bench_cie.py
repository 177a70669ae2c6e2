"""Benchmark cie.network on the first N rebel-sample documents (sorted by docid).

Reports seconds, LLM calls and tokens per document, and how many predicted
triples match the gold triples exactly (a sanity figure; the evaluation
harness computes the paper's metrics). Results go to runs/bench-cie/ and a
table is written into docs/BENCHMARKS.md between markers.

    python scripts/bench_cie.py --docs 10 --model embedded:qwen2.5-coder-1.5b
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import platform
import re
import statistics
import time
from datetime import date
from pathlib import Path

from graphwright.kb import build_rebel_kb, open_kb
from graphwright.kb.namespaces import local_id
from graphwright.llm import make_llm
from graphwright.model import Document
from graphwright.paths import cache_dir, data_dir
from graphwright.systems.base import make_system

ROOT = Path(__file__).resolve().parent.parent
BENCH_MD = ROOT / "docs" / "BENCHMARKS.md"


def load_rebel(n: int) -> list[dict]:
    path = data_dir() / "rebel-sample" / "sample.jsonl.gz"
    if not path.exists():
        raise SystemExit(f"rebel-sample not found at {path}; set GRAPHWRIGHT_DATA_DIR to the folder holding rebel-sample/")
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    return sorted(rows, key=lambda r: r["docid"])[:n]


def gold_keys(row: dict) -> set[tuple[str, str, str]]:
    return {(t["subject"]["uri"], t["predicate"]["uri"], t["object"]["uri"]) for t in row["triples"]}


async def run(args) -> list[dict]:
    kb_dir = cache_dir() / "kb" / "rebel-sample"
    if not (kb_dir / "manifest.json").exists():
        build_rebel_kb(kb_dir)
    kb = open_kb(kb_dir)
    kb.search("spouse", kind="property")  # builds the embedding indices once, outside the timed documents
    llm = make_llm(args.model, cache=not args.no_cache)
    system = make_system("cie.network", llm, kb)
    out_dir = ROOT / "runs" / "bench-cie"
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for row in load_rebel(args.docs):
        started = time.perf_counter()
        result = await system.run(Document(id=row["docid"], text=row["text"]))
        wall = time.perf_counter() - started
        predicted = {tuple(local_id(x) for x in t.key()) for t in result.triples}
        gold = gold_keys(row)
        rec = {"docid": row["docid"], "status": result.status, "reason": result.reason, "seconds": round(wall, 1),
               "llm_calls": result.usage.llm_calls, "cached_calls": result.usage.cached_calls,
               "prompt_tokens": result.usage.prompt_tokens, "completion_tokens": result.usage.completion_tokens,
               "predicted": len(predicted), "gold": len(gold), "correct": len(predicted & gold),
               "steps": result.extra.get("steps"), "warnings": result.warnings}
        rows.append(rec)
        print(json.dumps(rec), flush=True)
        with (out_dir / f"{args.model.replace(':', '_')}.jsonl").open("a") as fh:
            fh.write(json.dumps({**rec, "result": result.model_dump(mode="json")}) + "\n")
    await llm.aclose()
    return rows


def table(rows: list[dict], model: str, command: str) -> str:
    def mean(key):
        return statistics.mean(r[key] for r in rows)

    correct, predicted, gold = (sum(r[k] for r in rows) for k in ("correct", "predicted", "gold"))
    lines = [
        f"### cie.network on the first {len(rows)} rebel-sample documents",
        "",
        f"- date: {date.today().isoformat()}; machine: {platform.machine()}, {_cpu()}; model: {model}",
        f"- command: `{command}`",
        "",
        "| docid | status | seconds | LLM calls | prompt tokens | completion tokens | predicted | gold | exact matches |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['docid']} | {r['status']} | {r['seconds']} | {r['llm_calls']} | {r['prompt_tokens']} | "
                     f"{r['completion_tokens']} | {r['predicted']} | {r['gold']} | {r['correct']} |")
    lines.append(f"| **mean** | {sum(r['status'] == 'ok' for r in rows)}/{len(rows)} ok | {mean('seconds'):.1f} | "
                 f"{mean('llm_calls'):.1f} | {mean('prompt_tokens'):.0f} | {mean('completion_tokens'):.0f} | "
                 f"{predicted} | {gold} | {correct} |")
    p = correct / predicted if predicted else 0.0
    r = correct / gold if gold else 0.0
    lines += ["", f"Exact-IRI triple matches, micro over the documents: precision {p:.3f}, recall {r:.3f}."]
    return "\n".join(lines)


def _cpu() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text()
        name = re.search(r"model name\s*:\s*(.*)", text).group(1)
        return f"{text.count('processor')} cores, {name}"
    except (OSError, AttributeError):
        return platform.processor() or "unknown CPU"


def write_section(body: str, marker: str) -> None:
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    text = BENCH_MD.read_text(encoding="utf-8") if BENCH_MD.exists() else "# Benchmarks\n"
    block = f"{begin}\n{body}\n{end}"
    if begin in text:
        text = re.sub(re.escape(begin) + r".*?" + re.escape(end), lambda _: block, text, flags=re.DOTALL)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    BENCH_MD.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10)
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument("--no-cache", action="store_true", help="call the model every time (for honest seconds)")
    args = parser.parse_args()
    rows = asyncio.run(run(args))
    command = f"python scripts/bench_cie.py --docs {args.docs} --model {args.model}" + (" --no-cache" if args.no_cache else "")
    write_section(table(rows, args.model, command), f"cie-network-{args.model}")
    print(f"wrote {BENCH_MD}")


if __name__ == "__main__":
    main()
