"""`make bench-re`: agentre against its single-call baselines on CoNLL04 and SciERC (paper 001).

For each dataset: memory is warmed on the first labelled pool samples, then every configuration runs
on the same first N test sentences. Configurations: the zero-shot and few-shot baselines, agentre,
agentre without retrieval and without memory (Table 2), and few-shot with each sample retriever
(Table 3: labelled samples only, k = 5). Scores are strict micro P/R/F1 (exact head, relation and tail)
plus the argument-pair F1 with the relation ignored. Runs go to runs/bench/re/ and resume; ``--step K``
runs in rounds of K more sentences (see bench_ner).

    python -m graphwright.bench.relations --sentences 100 --step 5 --datasets conll04,scierc --warm-up 50 --no-cache
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from functools import partial
from typing import cast

from graphwright.bench.eval.report import uncertainty_note
from graphwright.bench.eval.splits import load_split, split_suffix
from graphwright.bench.harness import config_args, header, run_config, run_in_rounds, slug, uncertainty_cells
from graphwright.bench.ledger import LEDGER, ROOT, RUNS, ReplayLLM
from graphwright.papers.agentre.learn import warm_up
from graphwright.papers.agentre.system import AgentRESystem
from graphwright.systems.base import make_system

RE_RUNS = RUNS / "re"
REFERENCE = "few-shot"  # the strongest single call in the paper; every configuration's F1 is compared with it
ALL_TOOLS = ["samples", "guidelines", "kg", "memory"]
# name -> (system, settings); "memory" in a setting's tools means it reads the warmed memory
CONFIGS: dict[str, tuple[str, dict]] = {
    "zero-shot": ("agentre.zeroshot", {}),
    "few-shot": ("agentre.fewshot", {}),
    "agentre": ("agentre.paper", {}),  # the paper's agent (the rows before 2026-11-27 ran it as `agentre`)
    "agentre w/o retrieval": ("agentre.paper", {"tools": ["memory"]}),  # no samples, guidelines or KG facts
    "agentre w/o memory": ("agentre.paper", {"tools": ["samples", "guidelines", "kg"]}),
    "few-shot (bm25)": ("agentre.fewshot", {"retriever": "bm25"}),
    "few-shot (tf-idf)": ("agentre.fewshot", {"retriever": "tfidf"}),
    "few-shot (random)": ("agentre.fewshot", {"retriever": "random"}),
    # issue 23: no memory (it costs tokens and F1 with the embedded model) and one tool call before Finish
    # issue 23's first lean preset (one action before Finish); agentre.lean now finishes at once (bench_speed)
    "agentre lean": ("agentre.paper", {"tools": ["samples", "guidelines", "kg"], "max_iterations": 1}),
}


def uses_memory(system_name: str, settings: dict) -> bool:
    return "memory" in settings.get("tools", ALL_TOOLS if system_name == "agentre.paper" else [])


async def run_dataset(dataset: str, args, llm, sentences: int) -> list[tuple[str, dict, list[dict]]]:
    data = load_split(dataset, args.split, sentences)
    # relative to the repository (main() runs there): the run settings, and so the ledger, name no machine path
    memory_dir = (RE_RUNS / f"memory-{dataset}").relative_to(ROOT)
    if args.warm_up and any(uses_memory(*CONFIGS[name]) for name in args.configs):  # once, shared by the configs
        # make_system wraps the system, and the wrappers forward attributes (__getattr__)
        learner = cast(
            AgentRESystem,
            make_system("agentre.paper", llm, None, {**data.system_settings, "memory_dir": str(memory_dir)}),
        )
        assert learner.pool is not None  # agentre.paper retrieves samples, so it has a labelled pool to learn from
        replay = ReplayLLM(
            llm, LEDGER / f"re--warm-up-{dataset}.jsonl"
        )  # a new machine rebuilds the memory without model time
        counts = await warm_up(
            learner,
            learner.pool.samples[: args.warm_up],
            replay,
            on_progress=lambda i: print(f"warm-up {dataset}: {i}", file=sys.stderr, flush=True),
        )
        print(f"warm-up {dataset}: {counts}", file=sys.stderr)
    results = []
    for name in args.configs:
        system_name, settings = CONFIGS[name]
        settings = {**data.system_settings, **settings}
        if uses_memory(system_name, settings):
            settings["memory_dir"] = str(memory_dir)
        folder = RE_RUNS / f"{slug(name)}-{dataset}{split_suffix(args.split)}"
        results.append(
            (name, *await run_config(f"{name} on {dataset}", system_name, settings, data, None, llm, folder, sentences))
        )
    return results


def table(dataset: str, results, model: str, command: str, sentences: str, warmed: int) -> str:
    lines = header(f"agentre on {sentences}{dataset} test sentences (strict micro scores)", model, command)
    lines += [
        f"- memory: warmed on the first {warmed} train sentences; retrieval pool: the train split (first 1,000); k = 5",
        "",
        f"| configuration | P | R | F1 | F1 95% CI | ΔF1 vs {REFERENCE} (95% CI) | pair F1 (relation ignored) | "
        "error rate | LLM calls | prompt tokens | completion tokens | seconds |",
        "|---|" + "---|" * 11,
    ]
    uncertainty = uncertainty_cells(results, "triples", REFERENCE)
    for (name, agg, _), (interval, difference) in zip(results, uncertainty):
        m, cost = agg["micro"], agg["per_document"]
        t = m["triples"]
        lines.append(
            f"| {name} | {t['precision']:.3f} | {t['recall']:.3f} | {t['f1']:.3f} | {interval} | {difference} | "
            f"{m['boundaries']['f1']:.3f} | {agg['error_rate']:.2f} | {cost['llm_calls']:.2f} | "
            f"{cost['prompt_tokens']:.0f} | {cost['completion_tokens']:.0f} | {cost['seconds']:.1f} |"
        )
    lines += ["", "Per-sentence values are means over the sentences. " + uncertainty_note(REFERENCE)]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=100)
    parser.add_argument("--datasets", default="conll04,scierc", type=lambda s: s.split(","))
    parser.add_argument("--warm-up", type=int, default=50, help="pool samples learnt into memory first")
    args, command = config_args(parser, CONFIGS, "relations")
    os.chdir(ROOT)
    # the warm-up resumes, so only the first round learns
    asyncio.run(run_in_rounds(args, command, "agentre", run_dataset, partial(table, warmed=args.warm_up)))


if __name__ == "__main__":
    main()
