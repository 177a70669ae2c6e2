"""Fit the linker's abstention (linking/abstain.py) on the linking benchmark's halves that were read before.

Every half is linked as ``linking=checked`` links it (the 1.5B model's glosses replayed from the ledger),
without abstaining; each link the rules and the gloss let stand is one example: its support (abstain.FEATURES)
and whether it is the wrong entity. A logistic model is fitted (Newton, an L2 penalty).

The threshold is chosen on held-out probabilities: each half is scored by the model fitted on the others
(leave one half out), and the threshold keeps the most right links minus WRONG_COST times the wrong ones (a
wrong link pins the user's fact on someone else; a missing one leaves a node of its own), among those that
keep every half's linking recall at least that of the linker before issue 61 (its `today` ledger rows, where
a half has them), as issue 61 asks. The final weights are fitted on every half. Halves written after this fit
are its test. The examples are saved (runs/bench/link_abstain/examples.npz); ``--reuse`` refits from them.

    python -m graphwright.bench.fit_link_abstain --splits dev,test,heldout,heldout2,...
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
from pathlib import Path

import numpy as np

from graphwright.bench.fit_link_judge import fit_logistic
from graphwright.bench.harness import slug
from graphwright.bench.ledger import LEDGER, ROOT, ReplayLLM
from graphwright.bench.link_mentions import BASELINE, Outcome, run
from graphwright.linking.abstain import FEATURES
from graphwright.llm import make_llm

OUT = Path(__file__).resolve().parents[1] / "linking" / "abstain.json"
EXAMPLES = ROOT / "runs" / "bench" / "link_abstain" / "examples.npz"
WRONG_COST = 3.0
L2 = 1.0


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression weights (the first column is the bias, not penalised)."""
    return fit_logistic(x, y, l2=L2)


def held_out_chances(x: np.ndarray, y: np.ndarray, halves: np.ndarray) -> np.ndarray:
    """Each example's chance of a wrong link by the model fitted on the other halves."""
    chances = np.zeros(len(y))
    for half in sorted(set(halves)):
        out = halves == half
        chances[out] = 1 / (1 + np.exp(-x[out] @ fit(x[~out], y[~out])))
    return chances


def sweep(chances: np.ndarray, y: np.ndarray, halves: np.ndarray, floors: dict[str, tuple[int, float]]) -> list[dict]:
    """Links kept, right and wrong at each threshold, and whether each half with a floor (its gold entities,
    the recall of the linker before issue 61) keeps its recall."""
    rows = []
    for threshold in np.round(np.arange(0.05, 1.0001, 0.05), 2):
        kept = chances <= threshold
        right, wrong = int((kept & (y == 0)).sum()), int((kept & (y == 1)).sum())
        recalls = {h: float((kept & (y == 0) & (halves == h)).sum() / n) for h, (n, _) in floors.items()}
        rows.append(
            {
                "threshold": float(threshold),
                "right": right,
                "wrong": wrong,
                "score": right - WRONG_COST * wrong,
                "recall_kept": all(recalls[h] >= floor for h, (_, floor) in floors.items()),
            }
        )
    return rows


def recall_floors(halves: list[str], entities: dict[str, int]) -> dict[str, tuple[int, float]]:
    """Each half's gold entities and the recall of the linker before issue 61, where its ledger has it."""
    floors = {}
    for half in halves:
        path = LEDGER / f"link-mentions--{BASELINE}-{half}.json"
        if path.is_file():
            rates = json.loads(path.read_text(encoding="utf-8"))["run"]["rates"]
            floors[half] = (entities[half], rates["entity_right"] / rates["entity"])
    return floors


async def examples(splits: list[str], model: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """Each link's support and whether it is wrong, its half, and each half's mentions with a gold entity."""
    answers = LEDGER / f"link-mentions--answers-{slug(model).replace(':', '_')}.jsonl"
    reader = ReplayLLM(make_llm(model, cache=False), answers)
    xs, ys, halves, entities = [], [], [], {}
    for split in splits:
        outcomes: list[Outcome]
        outcomes, _, _ = await run(split, reader, abstention=None)
        entities[split] = sum(o.gold is not None for o in outcomes)
        for o in outcomes:
            if o.support is not None and o.linked is not None:
                xs.append(o.support)
                ys.append(float(o.linked != o.gold))
                halves.append(split)
    return np.array(xs), np.array(ys), np.array(halves), entities


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", required=True, help="comma-separated halves of examples/linking to fit on")
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b", help="the model whose glosses replay")
    parser.add_argument("--reuse", action="store_true", help=f"refit from the examples saved in {EXAMPLES}")
    args = parser.parse_args()
    splits = args.splits.split(",")
    if args.reuse:
        saved = np.load(EXAMPLES)
        x, y, halves = saved["x"], saved["y"], saved["halves"]
        entities = json.loads(str(saved["entities"]))
        if sorted(set(halves)) != sorted(splits):
            raise SystemExit(f"{EXAMPLES} holds the halves {sorted(set(halves))}: run without --reuse")
    else:
        x, y, halves, entities = asyncio.run(examples(splits, args.model))
        EXAMPLES.parent.mkdir(parents=True, exist_ok=True)
        np.savez(EXAMPLES, x=x, y=y, halves=halves, entities=json.dumps(entities))
    chances = held_out_chances(x, y, halves)
    floors = recall_floors(splits, entities)
    rows = sweep(chances, y, halves, floors)
    best = max((r for r in rows if r["recall_kept"]), key=lambda r: (r["score"], r["threshold"]))
    by_half = {}
    for half in splits:
        mine, kept = halves == half, chances <= best["threshold"]
        by_half[half] = {
            "links": int(mine.sum()),
            "wrong": int((mine & (y == 1)).sum()),
            "kept": int((mine & kept).sum()),
            "kept_wrong": int((mine & kept & (y == 1)).sum()),
            "recall_without": round(float((mine & (y == 0)).sum() / entities[half]), 3),
            "recall_with": round(float((mine & kept & (y == 0)).sum() / entities[half]), 3),
        }
    weights = fit(x, y)
    base = {"right": int((y == 0).sum()), "wrong": int((y == 1).sum())}
    OUT.write_text(
        json.dumps(
            {
                "features": list(FEATURES),
                "weights": [round(float(w), 4) for w in weights],
                "threshold": best["threshold"],
                "note": f"fitted {datetime.date.today()} by `python -m graphwright.bench.fit_link_abstain` on the "
                f"halves {', '.join(splits)} of examples/linking ({len(y)} links the rules and {args.model}'s "
                f"glosses let stand, {base['wrong']} wrong); threshold: most right links minus {WRONG_COST:g} x "
                "wrong ones among those keeping the recall of the linker before issue 61 on "
                f"{', '.join(floors) or 'no half'}, each half scored by the model fitted on the others",
                "without_abstaining": base,
                "held_out_sweep": rows,
                "held_out_by_half": by_half,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"threshold {best['threshold']}: {best['right']} right, {best['wrong']} wrong of {base} -> {OUT}")


if __name__ == "__main__":
    main()
