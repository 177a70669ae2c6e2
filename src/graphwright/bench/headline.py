"""`make bench-headline`: each system's shipped default against its same-model single call, on test splits.

The headline comparisons of docs/BENCHMARKS.md (issue 44). Each one runs the system as `extract`
ships it and its single-call baseline on the dataset's test split (graphwright.bench.eval.splits), on the
same items with the same model; a request both make (temperature 0) is answered once. Runs resume from
runs/bench/headline/, and every scored item reaches the ledger (docs/bench-ledger/headline--*.json)
with the commit whose code scored it. The table also carries the bench-facts test row from its own
ledgers. `--check` (`make bench-check`, run by `make test`) recomputes the table from the ledgers alone,
without a model, and fails when BENCHMARKS.md says otherwise; `--table` writes it from the ledgers as
they stand (a run cut off mid-round shows the items both runs have scored).

    python -m graphwright.bench.headline --split test --step 20 --model embedded:qwen2.5-coder-1.5b
    python -m graphwright.bench.headline --check
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass, field

from graphwright.bench.eval.benchmarks_md import read_section, write_section
from graphwright.bench.eval.bootstrap import difference_interval
from graphwright.bench.eval.metrics import Counts, counts_from_dict
from graphwright.bench.eval.splits import load_split, split_items
from graphwright.bench.harness import BENCH_MD, header, run_config
from graphwright.bench.ledger import LEDGER, RUNS, ReplayLLM, commit, ledger_file
from graphwright.kb import open_kb
from graphwright.llm import make_llm

HEADLINE_RUNS = RUNS / "headline"
SECTION = "headline"


@dataclass(frozen=True)
class Comparison:
    system: str  # the shipped default, as `extract --system` runs it
    single: str  # its same-model single call
    dataset: str
    category: str  # the counts F1 is computed from
    settings: dict = field(default_factory=dict)  # what the benchmark needs of both (the rebel KB's closed world)


# the cheapest first: a session that ends early leaves whole comparisons behind it
COMPARISONS = (
    Comparison("agenticner", "agenticner.single", "crossner-music", "mentions"),
    Comparison("agenticner", "agenticner.single", "crossner-politics", "mentions"),
    Comparison("agenticner", "agenticner.single", "conll2003", "mentions"),
    Comparison("agentre", "agentre.fewshot", "conll04", "triples"),
    Comparison("agentre", "agentre.fewshot", "scierc", "triples"),
    Comparison("cie.network", "cie.single", "rebel-sample", "triples", {"linking": "closed"}),
)


def folder(system: str, dataset: str, split: str):
    return HEADLINE_RUNS / split / f"{system}-{dataset}"


async def run_comparison(c: Comparison, split: str, upto: int, llm) -> None:
    data = load_split(c.dataset, split, upto)
    kb = open_kb(data.kb) if data.kb != "none" else None
    # the model's answers, kept in the ledger: another machine resumes or recomputes without model time
    shared = ReplayLLM(llm, LEDGER / f"headline--answers-{c.dataset}-{split}.jsonl")
    for system in (c.single, c.system):
        settings = {**data.system_settings, **c.settings}
        await run_config(
            f"{system} on {c.dataset} {split}",
            system,
            settings,
            data,
            kb,
            llm,
            folder(system, c.dataset, split),
            upto,
            replay=shared,
        )


def ledger_rows(system: str, dataset: str, split: str) -> list[dict]:
    """The scored items of a run, from its ledger, in the split's order."""
    path = ledger_file(folder(system, dataset, split))
    if not path.is_file():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["documents"]


def _tokens(rows: list[dict]) -> float:
    return sum(r["usage"]["prompt_tokens"] + r["usage"]["completion_tokens"] for r in rows)


def _commits(*runs: list[dict]) -> str:
    return ", ".join(sorted({r.get("produced_by", "not recorded") for rows in runs for r in rows}))


def _row(
    label: str,
    data: str,
    mine: list[Counts],
    theirs: list[Counts],
    tokens: tuple[float, float],
    ledger: str,
    commits: str,
) -> str:
    f1, base = sum(mine, Counts()).f1, sum(theirs, Counts()).f1
    low, high = difference_interval(mine, theirs)
    ratio = f"{tokens[0] / tokens[1]:.2f}" if tokens[1] else "–"
    return (
        f"| {label} | {data} | {f1:.3f} | {base:.3f} | {f1 - base:+.3f} ({low:+.3f} to {high:+.3f}) | {ratio} | "
        f"{ledger} | {commits} |"
    )


def comparison_row(c: Comparison, split: str) -> str | None:
    mine = {r["id"]: r for r in ledger_rows(c.system, c.dataset, split)}
    theirs = {r["id"]: r for r in ledger_rows(c.single, c.dataset, split)}
    shared = [i for i in mine if i in theirs]
    if not shared:
        return None
    items = split_items(c.dataset, split)
    count = f"{len(shared)}" if len(shared) == items.count else f"first {len(shared)} of {items.count}"
    a = [counts_from_dict(mine[i]["counts"])[c.category] for i in shared]
    b = [counts_from_dict(theirs[i]["counts"])[c.category] for i in shared]
    ledger = f"headline--{split}--{c.system}-{c.dataset}.json, headline--{split}--{c.single}-{c.dataset}.json"
    return _row(
        f"{c.system} vs {c.single}",
        f"{c.dataset} {split} items {items} ({count})",
        a,
        b,
        (_tokens([mine[i] for i in shared]), _tokens([theirs[i] for i in shared])),
        ledger,
        _commits(list(mine.values()), list(theirs.values())),
    )


def facts_row(split: str) -> str | None:
    """bench-facts: the default `facts` against `cie.network`, the default it replaced (its own ledgers)."""
    runs = []
    for system in ("facts", "cie.network"):
        path = LEDGER / f"facts--{system}-{split}-embedded_qwen2.5-coder-1.5b.json"
        if not path.is_file():
            return None
        runs.append({r["id"]: r for r in json.loads(path.read_text(encoding="utf-8"))["documents"]})
    shared = [i for i in runs[0] if i in runs[1]]
    mine, theirs = [
        [
            Counts(
                matched_pred=r[i]["counts"]["right"],
                predicted=r[i]["counts"]["predicted"],
                matched_gold=r[i]["counts"]["found"],
                gold=r[i]["counts"]["gold"],
            )
            for i in shared
        ]
        for r in runs
    ]
    facts_tokens, network_tokens = (_tokens([r[i] for i in shared]) for r in runs)
    return _row(
        "facts vs cie.network (the default it replaced; not a single call)",
        f"bench-facts {split} texts 5-8 of each kind ({len(shared)})",
        mine,
        theirs,
        (facts_tokens, network_tokens),
        f"facts--facts-{split}-…, facts--cie.network-{split}-…",
        _commits(*[list(r.values()) for r in runs]),
    )


def table(split: str) -> list[str]:
    lines = [
        f"| comparison | data ({split} split) | F1 | baseline F1 | ΔF1 (paired 95% CI) | tokens vs baseline | "
        "ledger | scored by commit |",
        "|---|---|---|---|---|---|---|---|",
    ]
    rows = [comparison_row(c, split) for c in COMPARISONS] + [facts_row(split)]
    return lines + [row for row in rows if row]


def body(split: str) -> str:
    return "\n".join(table(split))


async def main_async(args, command: str) -> None:
    llm = make_llm(args.model, cache=False)
    for c in COMPARISONS:
        if args.datasets and c.dataset not in args.datasets:
            continue
        total = split_items(c.dataset, args.split).count
        for upto in range(args.step, total, args.step) if args.step else []:
            await run_comparison(c, args.split, upto, llm)
            write_table(args.split, llm.name, command)
        await run_comparison(c, args.split, total, llm)
        write_table(args.split, llm.name, command)
    await llm.aclose()


def write_table(split: str, model: str, command: str) -> None:
    lines = header(f"Headline: each shipped default against its single call, {split} split", model, command)
    write_section(BENCH_MD, SECTION, "\n".join(lines + table(split) + ["", NOTE]))
    print(f"wrote the headline table to {BENCH_MD}", file=sys.stderr)


NOTE = (
    "F1 is micro F1 over the items both runs scored (strict mentions for agenticner, strict triples for agentre, "
    "triples on the rebel KB's closed world for cie); ΔF1's interval is the paired percentile bootstrap over "
    "those items (the two runs on the same resampled items). Tokens: prompt and completion tokens, summed, "
    "over the baseline's. Every row is recomputed from its ledgers by `make bench-check`."
)


def check() -> int:
    """0 when the headline table in BENCHMARKS.md is what the ledgers give, else 1 with the difference."""
    written = read_section(BENCH_MD, SECTION)
    if written is None:
        print(f"no headline table in {BENCH_MD}", file=sys.stderr)
        return 1
    table_lines = [line for line in written.splitlines() if line.startswith("|")]
    expected = table("test")
    if table_lines == expected:
        print(f"bench-check: the {len(expected) - 2} headline rows match their ledgers", file=sys.stderr)
        return 0
    print("bench-check: the headline table differs from its ledgers:", file=sys.stderr)
    for line in sorted(set(table_lines) ^ set(expected)):
        print(("  written:  " if line in table_lines else "  ledgers:  ") + line, file=sys.stderr)
    return 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test", choices=("dev", "test"))
    parser.add_argument("--step", type=int, default=20, help="run in rounds of this many more items per comparison")
    parser.add_argument("--datasets", default=None, type=lambda s: s.split(","), help="only these comparisons")
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument(
        "--check",
        action="store_true",
        help="recompute the table from the ledgers and compare it with BENCHMARKS.md; no model",
    )
    parser.add_argument("--table", action="store_true", help="write the table from the ledgers as they stand; no model")
    args = parser.parse_args()
    if args.check:
        sys.exit(check())
    command = "python -m graphwright.bench.headline " + " ".join(sys.argv[1:])
    if args.table:  # the runs' command, then how this table was written
        write_table(
            args.split,
            args.model,
            f"python -m graphwright.bench.headline --split {args.split} --step {args.step} "
            f"--model {args.model}`, the table from the ledgers by `--table",
        )
        return
    commit()  # the code loaded now is the code that scores every item of this run
    asyncio.run(main_async(args, command))


if __name__ == "__main__":
    main()
