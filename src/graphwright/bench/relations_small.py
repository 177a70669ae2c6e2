"""`make bench-re-small`: agentre's settings for small models (issue 27) against the few-shot call.

Every configuration starts with the same few-shot call, so the model answers once, from a replay file
shared by the configurations and kept in the ledger (docs/bench-ledger/re-small--answers-<dataset>.jsonl):
each setting is measured on the same first answers, and another machine recomputes the tables without
the model. A replayed answer counts the seconds and tokens it took when it was made.

    python -m graphwright.bench.relations_small --sentences 100 --datasets conll04,scierc --model embedded:qwen2.5-coder-1.5b
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.report import uncertainty_note
from graphwright.bench.eval.splits import SPLIT_NAMES, items_title, load_split, split_suffix
from graphwright.bench.harness import BENCH_MD, header, run_config, slug, uncertainty_cells
from graphwright.bench.ledger import LEDGER, RUNS, ReplayLLM
from graphwright.llm import make_llm

REFERENCE = "few-shot"
CONFIGS: dict[str, dict] = {  # settings of agentre.fewshot
    REFERENCE: {},
    "escalate=1": {"escalate": 1},
    "escalate=2": {"escalate": 2},
    "escalate=3": {"escalate": 3},
    "pool_types": {"pool_types": True},
    "escalate=2, pool_types": {"escalate": 2, "pool_types": True},
    "escalate=3, pool_types": {"escalate": 3, "pool_types": True},
    "escalate=3, pool_types, any dropped": {"escalate": 3, "pool_types": True, "escalate_when": "any_dropped"},
}


def escalated(rows: list[dict]) -> float:
    """The share of sentences that made more than the one call (escalated, or a parse error re-asked)."""
    return sum(r["usage"]["llm_calls"] > 1 for r in rows) / len(rows)


def table(dataset: str, results, model: str, command: str, split: str) -> str:
    lines = header(
        f"agentre's settings for small models on {items_title(dataset, split, len(results[0][2]))}{dataset} test sentences "
        "(strict micro scores, one set of first answers)",
        model,
        command,
    )
    lines += [
        f"| configuration | P | R | F1 | F1 95% CI | ΔF1 vs {REFERENCE} (95% CI) | sentences with more calls | "
        f"LLM calls | tokens | tokens vs {REFERENCE} |",
        "|---|" + "---|" * 9,
    ]
    tokens = {
        name: sum(r["usage"]["prompt_tokens"] + r["usage"]["completion_tokens"] for r in rows) / len(rows)
        for name, _, rows in results
    }
    for (name, agg, rows), (interval, difference) in zip(results, uncertainty_cells(results, "triples", REFERENCE)):
        t, cost = agg["micro"]["triples"], agg["per_document"]
        lines.append(
            f"| {name} | {t['precision']:.3f} | {t['recall']:.3f} | {t['f1']:.3f} | {interval} | {difference} | "
            f"{escalated(rows):.2f} | {cost['llm_calls']:.2f} | {tokens[name]:.0f} | "
            f"{tokens[name] / tokens[REFERENCE]:.2f} |"
        )
    lines += [
        "",
        "Calls and tokens are means per sentence; sentences with more calls: escalated, or a malformed answer "
        "asked again. " + uncertainty_note(REFERENCE),
    ]
    return "\n".join(lines)


async def main_async(args, command: str) -> None:
    llm = make_llm(args.model, cache=False)
    for dataset in args.datasets:
        data = load_split(dataset, args.split, args.sentences)
        suffix = split_suffix(args.split)
        replay = ReplayLLM(llm, LEDGER / f"re-small--answers-{dataset}{suffix}.jsonl")
        results = []
        for name in args.configs:
            folder = RUNS / "re-small" / f"{slug(name)}-{dataset}{suffix}"
            agg, rows = await run_config(
                f"{name} on {dataset}",
                "agentre.fewshot",
                {**data.system_settings, **CONFIGS[name]},
                data,
                None,
                llm,
                folder,
                args.sentences,
                replay=replay,
            )
            results.append((name, agg, rows))
        write_section(BENCH_MD, f"re-small-{dataset}{suffix}", table(dataset, results, llm.name, command, args.split))
        print(f"wrote the re-small table of {dataset} to {BENCH_MD}", file=sys.stderr)
    await llm.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=100)
    parser.add_argument("--datasets", default=["conll04", "scierc"], type=lambda s: s.split(","))
    parser.add_argument("--configs", default=list(CONFIGS), type=lambda s: s.split(","))
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument("--split", default="dev", choices=SPLIT_NAMES)
    args = parser.parse_args()
    if unknown := [c for c in args.configs if c not in CONFIGS]:
        parser.error(f"unknown configurations {unknown}; choose from {list(CONFIGS)}")
    if REFERENCE not in args.configs:
        parser.error(f"the configurations must include {REFERENCE!r}, the reference")
    asyncio.run(main_async(args, "python " + " ".join(sys.argv)))


if __name__ == "__main__":
    main()
