"""`make bench-speed`: configurations of one system on the same documents, side by side: seconds,
tokens and documents per hour, with F1 and its paired interval against the first configuration.

The configurations take turns document by document (``--step 1``), so a slower or busier stretch of the
machine falls on all of them, and a run cut short still compares them on the same documents. Run
folders go to runs/bench/speed/ and resume; the ledger keeps every scored document (graphwright.bench.ledger).

    python -m graphwright.bench.speed --system cie.network --config paper:lean=false --config lean:lean=true --docs 20 --no-cache
    python -m graphwright.bench.speed --system agentre.paper --dataset conll04 --docs 100 --no-cache \
        --config few-shot:system=agentre.fewshot --config 'lean:tools=[samples, guidelines, kg]+max_iterations=1'
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from typing import Any

import yaml

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.datasets import load_dataset
from graphwright.bench.eval.report import f1_uncertainty
from graphwright.bench.harness import BENCH_MD, CLOSED_WORLD, header, rounds, run_config
from graphwright.bench.ledger import RUNS
from graphwright.kb import open_kb
from graphwright.llm import make_llm

CATEGORIES = {"cie": ("triples", "entities"), "agentre": ("triples",), "agenticner": ("mentions",)}
SINGULAR = {"triples": "triple", "entities": "entity", "mentions": "entity mention"}


def parse_config(text: str) -> tuple[str, dict[str, Any]]:
    """'lean:lean=true+max_repairs=0' -> ("lean", {"lean": True, "max_repairs": 0}); values are YAML
    ('tools=[samples, kg]'); a name alone runs the defaults; 'system=...' runs another system."""
    name, _, settings = text.partition(":")
    pairs = [s.split("=", 1) for s in settings.split("+") if s]
    return name.strip(), {k.strip(): yaml.safe_load(v) for k, v in pairs}


def model_options(parser, variant_help: str) -> None:
    """The options a benchmark of systems on one model shares: the model, the response cache, a variant."""
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--variant", default=("", {}), type=parse_config, help=variant_help)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def speed_table(system: str, dataset: str, results, model: str, command: str, title: str) -> str:
    lines = header(f"{system} speed on {title}{dataset} documents", model, command)
    categories = next((c for prefix, c in CATEGORIES.items() if system.startswith(prefix)), ("triples",))
    f1_heads = "".join(f" {SINGULAR[c]} F1 (micro) | Δ vs {results[0][0]} (95%) |" for c in categories)
    lines += [
        f"| configuration | documents | median seconds | mean seconds | documents per hour | median tokens | "
        f"median prompt tokens evaluated | prompt cache hit | median completion tokens | LLM calls |{f1_heads} "
        f"seconds vs {results[0][0]} | tokens vs {results[0][0]} |",
        "|---|" + "---|" * (11 + 2 * len(categories)),
    ]
    uncertainty = {c: f1_uncertainty([rows for _, _, rows in results], c) for c in categories}
    base_seconds = base_tokens = None
    for i, (name, agg, rows) in enumerate(results):
        usage = [r["usage"] for r in rows]
        seconds = [u["wall_seconds"] for u in usage]
        tokens = [u["prompt_tokens"] + u["completion_tokens"] for u in usage]
        fresh = [u["prompt_tokens"] - u.get("cached_prompt_tokens", 0) for u in usage]
        prompt = sum(u["prompt_tokens"] for u in usage)
        hit = sum(u.get("cached_prompt_tokens", 0) for u in usage) / prompt if prompt else 0.0
        mean_seconds = statistics.fmean(seconds) if seconds else 0.0
        if base_seconds is None or base_tokens is None:  # both set together, from the first run
            base_seconds, base_tokens = median(seconds) or 1.0, median(tokens) or 1.0
        f1_cells = "".join(f" {agg['micro'][c]['f1']:.3f} | {uncertainty[c][i][1]} |" for c in categories)
        lines.append(
            f"| {name} | {len(rows)} | {median(seconds):.1f} | {mean_seconds:.1f} | "
            f"{3600 / mean_seconds if mean_seconds else 0:.0f} | {median(tokens):,.0f} | {median(fresh):,.0f} | "
            f"{hit:.0%} | {median([u['completion_tokens'] for u in usage]):,.0f} | "
            f"{statistics.fmean(u['llm_calls'] for u in usage) if usage else 0:.1f} |{f1_cells} "
            f"{median(seconds) / base_seconds:.2f} | {median(tokens) / base_tokens:.2f} |"
        )
    lines += [
        "",
        "Where the time goes, per document (means; reading and generating: llama.cpp's own timings):",
        "",
        "| configuration | agent | calls | prompt tokens | from the prompt cache | completion tokens | "
        "seconds reading prompts | seconds generating |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, agg, _ in results:
        for agent, cost in agg.get("per_agent", {}).items():
            lines.append(
                f"| {name} | {agent} | {cost['llm_calls']:.2f} | {cost['prompt_tokens']:,.0f} | "
                f"{cost.get('prompt_cache_hit', 0):.0%} | {cost['completion_tokens']:,.0f} | "
                f"{cost.get('prompt_seconds', 0):.1f} | {cost.get('generation_seconds', 0):.1f} |"
            )
    lines += [
        "",
        "Seconds are wall time per document; tokens are prompt plus completion tokens per document; "
        "prompt tokens evaluated are those llama.cpp did not restore from its prompt cache. "
        "LLM calls are a mean per document. Δ: the paired 95% bootstrap interval of the F1 difference over the "
        "same documents (`graphwright eval compare`).",
    ]
    return "\n".join(lines)


async def main_async(args, command: str) -> None:
    configs = [parse_config(c) for c in args.config]
    llm = make_llm(args.model, cache=not args.no_cache)
    base = CLOSED_WORLD if args.system.startswith("cie.") else {}
    full = load_dataset(args.dataset, args.docs)
    kb = open_kb(args.kb or full.kb) if (args.kb or full.kb) else None
    for docs in rounds(args.docs, args.step):
        data = load_dataset(args.dataset, docs)
        results = []
        for name, settings in configs:
            settings = dict(settings)
            system = settings.pop("system", args.system)
            folder = RUNS / "speed" / f"{args.system}-{args.dataset}-{name}"
            agg, rows = await run_config(
                name, system, {**data.system_settings, **base, **settings}, data, kb, llm, folder, docs
            )
            results.append((name, agg, rows))
        title = f"the first {docs} " if docs == args.docs else f"the first {docs} (of {args.docs} planned) "
        write_section(
            BENCH_MD,
            f"speed-{args.system}-{args.dataset}",
            speed_table(args.system, args.dataset, results, llm.name, command, title),
        )
        print(f"wrote the speed table ({docs} documents) to {BENCH_MD}", file=sys.stderr)
    await llm.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="cie.network")
    parser.add_argument(
        "--config",
        action="append",
        required=True,
        help="name:key=value+key=value (repeatable); the first is the reference",
    )
    parser.add_argument("--dataset", default="rebel-sample")
    parser.add_argument("--kb", default=None, help="default: the dataset's own")
    parser.add_argument("--docs", type=int, default=20)
    parser.add_argument(
        "--step", type=int, default=1, help="documents per round; every configuration finishes a round first"
    )
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument("--no-cache", action="store_true", help="call the model every time (for honest seconds)")
    args = parser.parse_args()
    command = "python -m graphwright.bench.speed " + " ".join(
        f"'{a}'" if " " in a or "," in a else a for a in sys.argv[1:]
    )
    asyncio.run(main_async(args, command))


if __name__ == "__main__":
    main()
