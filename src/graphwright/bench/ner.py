"""`make bench-ner`: agenticner against its single-call baseline and its ablations (paper 002).

Every configuration runs on the same first N test sentences of each dataset with the same model: the
single call with the generated tagger prompt (the paper's baseline), the full team, the team without the
grounding engine and without the researcher. Scores are micro entity-level P/R/F1 (strict span and type,
conlleval chunks). Runs go to runs/bench/ner/ and resume; the ledger (docs/bench-ledger/) carries them
to a new machine. ``--step K`` runs in rounds of K more sentences, each dataset's table rewritten after
every round, so a benchmark longer than a session grows across sessions with comparable tables.

    python -m graphwright.bench.ner --sentences 100 --step 5 --datasets conll2003,crossner-ai,crossner-music,crossner-politics --no-cache
"""

from __future__ import annotations

import argparse
import asyncio
from typing import cast

from graphwright.bench.eval.report import uncertainty_note
from graphwright.bench.harness import config_args, header, run_in_rounds, run_shared, uncertainty_cells
from graphwright.bench.ledger import LEDGER, RUNS, ReplayLLM
from graphwright.papers.agenticner.system import AgenticNERSystem
from graphwright.systems.base import make_system

NER_RUNS = RUNS / "ner"
REFERENCE = "single call"  # the baseline the paper's multi-agent system is measured against
# name -> (system, settings)
CONFIGS: dict[str, tuple[str, dict]] = {
    "single call": ("agenticner.single", {}),
    "agenticner": ("agenticner.paper", {}),
    "w/o grounding": ("agenticner.paper", {"grounding": False}),
    "w/o researcher": ("agenticner.paper", {"researcher": False}),
    # issue 23: the reviewer's turns are most of the team's cost and rarely change the answer
    "w/o reviewer": ("agenticner.paper", {"reviewer": False}),
}


async def run_dataset(dataset: str, args, llm, sentences: int) -> list[tuple[str, dict, list[dict]]]:
    # the single call's request is the team's first tagger turn, and an ablation repeats the team's calls
    # until it takes another path: at temperature 0 those are answered once (decisions.md)
    async def tagger_prompt(system_name: str, settings: dict) -> None:
        await write_tagger_prompt(system_name, settings, llm, dataset)

    return await run_shared(
        dataset, CONFIGS, args.configs, llm, sentences, NER_RUNS, before=tagger_prompt, split=args.split
    )


async def write_tagger_prompt(system_name: str, settings: dict, llm, dataset: str) -> None:
    """The Metaprompter's tagger prompt for a configuration, written before its sentences run and kept in
    the ledger (the model's answer only), so a new machine reuses it instead of paying the call again."""
    # make_system wraps the system, and the wrappers forward attributes (__getattr__)
    system = cast(AgenticNERSystem, make_system(system_name, llm, None, settings))
    await system.tagger_prompt(ReplayLLM(llm, LEDGER / f"ner--prompts-{dataset}.jsonl"))


def table(dataset: str, results, model: str, command: str, sentences: str) -> str:
    lines = header(f"agenticner on {sentences}{dataset} test sentences (strict micro scores)", model, command)
    lines += [
        f"| configuration | P | R | F1 | F1 95% CI | ΔF1 vs {REFERENCE} (95% CI) | error rate | LLM calls | "
        "prompt tokens | completion tokens | seconds |",
        "|---|" + "---|" * 10,
    ]
    uncertainty = uncertainty_cells(results, "mentions", REFERENCE)
    for (name, agg, rows), (interval, difference) in zip(results, uncertainty):
        m, cost = agg["micro"]["mentions"], agg["per_document"]
        # the model time of the calls, replayed ones at their recorded time (the wall clock skips those)
        seconds = sum(r["usage"]["seconds"] for r in rows) / max(1, len(rows))
        lines.append(
            f"| {name} | {m['precision']:.3f} | {m['recall']:.3f} | {m['f1']:.3f} | {interval} | {difference} | "
            f"{agg['error_rate']:.2f} | {cost['llm_calls']:.2f} | {cost['prompt_tokens']:.0f} | "
            f"{cost['completion_tokens']:.0f} | {seconds:.1f} |"
        )
    lines += [
        "",
        "Per-sentence values are means over the sentences. "
        + uncertainty_note(REFERENCE)
        + " The Metaprompter writes the tagger prompt once per dataset and setting, before the sentences "
        "run; that call is not in the per-sentence figures. A request that an earlier configuration "
        "already made (same prompt and history, temperature 0) gets that answer again and counts its "
        "calls, tokens and recorded seconds.",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=100)
    parser.add_argument(
        "--datasets", default="conll2003,crossner-ai,crossner-music,crossner-politics", type=lambda s: s.split(",")
    )
    args, command = config_args(parser, CONFIGS, "ner")
    asyncio.run(run_in_rounds(args, command, "agenticner", run_dataset, table))


if __name__ == "__main__":
    main()
