"""`make bench-cooperkgc`: cooperkgc against its baselines on one NER, one RE and one EE dataset (paper 003).

Every configuration runs on the same first N test items of each dataset with the same model, the
dataset's task as the target (its expert gets the dataset's schema; the others keep the shipped news
schemas: CoNLL-2003 types, NYT-style relations, ACE 2005 events, as the paper's defaults). Configurations: one call for the target task (AutoKG), two stages (ChatIE),
a self-consistency vote of three members, and cooperkgc with 4 rounds, whose F1 after each round is a
second table (the paper's Fig. 3). Runs go to runs/bench/cooperkgc/ and resume; answers are shared
between configurations (cooperkgc's round 0 asks the single call's question) and kept in a run-folder
replay file; ``--step K`` runs in rounds of K more items.

    python -m graphwright.bench.cooperkgc --sentences 100 --step 10 --datasets conll2003,nyt,wikievents --no-cache
"""

from __future__ import annotations

import argparse
import asyncio
from typing import cast

from graphwright.bench.eval.datasets import load_dataset
from graphwright.bench.eval.metrics import Counts
from graphwright.bench.eval.report import uncertainty_note
from graphwright.bench.eval.runner import make_scorer
from graphwright.bench.harness import config_args, header, run_in_rounds, run_shared, uncertainty_cells
from graphwright.bench.ledger import RUNS
from graphwright.llm.fake import ScriptedLLM
from graphwright.model import Document, ExtractionResult
from graphwright.papers.cooperkgc.answers import ANSWER_TYPES
from graphwright.papers.cooperkgc.system import CooperKGCSystem
from graphwright.systems.base import make_system

COOPER_RUNS = RUNS / "cooperkgc"
REFERENCE = "single call"
CONFIGS: dict[str, tuple[str, dict]] = {
    "single call": ("cooperkgc.single", {}),
    "two-stage": ("cooperkgc.twostage", {}),
    "self-consistency": ("cooperkgc.vote", {}),
    "cooperkgc": ("cooperkgc", {}),
}
# the score each task is ranked by, and the others shown beside it
CATEGORIES = {
    "ner": ("mentions",),
    "re": ("triples", "boundaries"),
    "ee": ("argument_roles", "trigger_types", "triggers", "arguments"),
}


async def run_dataset(dataset: str, args, llm, sentences: int) -> list[tuple[str, dict, list[dict]]]:
    return await run_shared(dataset, CONFIGS, args.configs, llm, sentences, COOPER_RUNS, split=args.split)


def per_round(dataset: str, rows: list[dict], category: str) -> list[Counts]:
    """The target expert's score after each round, from the answers cooperkgc recorded per round."""
    data = load_dataset(dataset)
    gold = {d.id: d for d in data.documents}
    # fill() only: no calls. make_system wraps the system, and the wrappers forward attributes (__getattr__)
    system = cast(CooperKGCSystem, make_system("cooperkgc", ScriptedLLM([]), None, data.system_settings))
    scorer = make_scorer(data, None)
    last = max((len(r.get("rounds") or []) for r in rows), default=1)
    totals = []
    for t in range(last):
        counts = Counts()
        for row in rows:
            doc = gold[row["id"]]
            result = ExtractionResult(document_id=doc.id, system="cooperkgc")
            if row.get("rounds"):
                answers = row["rounds"][min(t, len(row["rounds"]) - 1)]
                system.fill(
                    result,
                    Document(id=doc.id, text=doc.text),
                    {k: ANSWER_TYPES[k.partition("-")[0]].model_validate(v) for k, v in answers.items()},
                )
            else:
                result.status = "failed"
            counts = counts + scorer.score_document(result, doc)[category]
        totals.append(counts)
    return totals


def table(dataset: str, results, model: str, command: str, sentences: str) -> str:
    task = load_dataset(dataset, 1).task
    main, *others = CATEGORIES[task]
    lines = header(f"cooperkgc on {sentences}{dataset} test items ({task}, strict micro scores)", model, command)
    lines += [
        f"| configuration | P | R | F1 | F1 95% CI | ΔF1 vs {REFERENCE} (95% CI) |"
        + "".join(f" {c} F1 |" for c in others)
        + " error rate | LLM calls | prompt tokens | completion tokens | seconds |",
        "|---|" + "---|" * (10 + len(others)),
    ]
    for (name, agg, rows), (interval, difference) in zip(results, uncertainty_cells(results, main, REFERENCE)):
        m, cost = agg["micro"], agg["per_document"]
        seconds = sum(r["usage"]["seconds"] for r in rows) / max(1, len(rows))
        lines.append(
            f"| {name} | {m[main]['precision']:.3f} | {m[main]['recall']:.3f} | {m[main]['f1']:.3f} | {interval} | "
            f"{difference} |"
            + "".join(f" {m[c]['f1']:.3f} |" for c in others)
            + f" {agg['error_rate']:.2f} | {cost['llm_calls']:.2f} | {cost['prompt_tokens']:.0f} | "
            f"{cost['completion_tokens']:.0f} | {seconds:.1f} |"
        )
    lines += [
        "",
        f"Scores: {main} (the others beside it). Per-item values are means over the items. "
        + uncertainty_note(REFERENCE)
        + " A request an earlier configuration already made (same prompt, "
        "temperature 0) gets that answer again and counts its calls, tokens and recorded seconds.",
    ]
    cooper = next((rows for name, _, rows in results if name == "cooperkgc"), None)
    if cooper:
        rounds = per_round(dataset, cooper, main)
        lines += [
            "",
            f"cooperkgc's {main} F1 after each round (a collaboration that settled keeps its last answer):",
            "",
            "| round | " + " | ".join(str(t) for t in range(len(rounds))) + " |",
            "|---|" + "---|" * len(rounds),
            "| F1 | " + " | ".join(f"{c.f1:.3f}" for c in rounds) + " |",
        ]
        settled = [r.get("settled_after") for r in cooper if r.get("rounds")]
        lines += [
            "",
            f"Collaborations that settled before the last round: {sum(s is not None for s in settled)} of "
            f"{len(settled)}.",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=100)
    parser.add_argument("--datasets", default="conll2003,nyt,wikievents", type=lambda s: s.split(","))
    args, command = config_args(parser, CONFIGS, "cooperkgc")
    asyncio.run(run_in_rounds(args, command, "cooperkgc", run_dataset, table))


if __name__ == "__main__":
    main()
