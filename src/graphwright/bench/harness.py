"""`make bench`: the linking benchmark, then cie systems on the first N rebel-sample documents.

Writes three tables into docs/BENCHMARKS.md (between markers), each with date, machine, model and
command: URI-retrieval linking (recall@1/5/10, ms/query per mode and embedding model), the end-to-end
comparison of the systems (paper 000 metrics, error rate, calls, tokens, seconds per document), and the
per-document cost of each system. Eval runs go to runs/bench/<system>-rebel-sample and resume when
interrupted; a shorter run reuses the first documents of a longer one, so every table compares the
systems on the same documents.

    python -m graphwright.bench.harness --docs 20 --model embedded:qwen2.5-coder-1.5b --no-cache       # make bench
    python -m graphwright.bench.harness --docs 5 --skip-linking --systems cie.single,cie.network,cie.baseline,cie.ssa,cie.sssa,cie.react --no-cache   # make bench-ablation
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import date
from pathlib import Path

from graphwright.bench.eval.benchmarks_md import machine, write_section
from graphwright.bench.eval.datasets import load_dataset
from graphwright.bench.eval.report import f1_uncertainty
from graphwright.bench.eval.runner import RUN_FILE, RunInfo, aggregate_rows, read_documents, run_eval
from graphwright.bench.eval.splits import SPLIT_NAMES, items_title, load_split, split_suffix
from graphwright.bench.ledger import ROOT, RUNS, ReplayedTime, ReplayLLM, restore, save
from graphwright.kb import open_kb
from graphwright.llm import make_llm
from graphwright.llm.wrappers import TracingLLM
from graphwright.systems.base import make_system

BENCH_MD = ROOT / "docs" / "BENCHMARKS.md"


def header(title: str, model: str | None, command: str) -> list[str]:
    model_part = f"; model: {model}" if model else ""
    return [
        f"### {title}",
        "",
        f"- date: {date.today().isoformat()}; machine: {machine()}{model_part}",
        f"- command: `{command.replace(str(Path.home()), '~')}`",  # the shell wrote ~ out: no machine's paths here
        "",
    ]


def config_args(parser: argparse.ArgumentParser, configs: dict, script: str) -> tuple[argparse.Namespace, str]:
    """Shared options of the configuration benchmarks (bench_re, bench_ner); the arguments and the command line."""
    # a list default is not passed through `type`: all configurations, whatever their names hold
    parser.add_argument(
        "--configs", default=list(configs), type=lambda s: s.split(","), help="comma-separated names; default all"
    )
    parser.add_argument(
        "--step",
        type=int,
        default=0,
        help="run in rounds of this many more sentences for every dataset and configuration",
    )
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument("--no-cache", action="store_true", help="call the model every time (for honest seconds)")
    parser.add_argument(
        "--split",
        default="dev",
        choices=SPLIT_NAMES,
        help="dev: the items settings are chosen on; test: run each configuration once, to claim",
    )
    args = parser.parse_args()
    unknown = [c for c in args.configs if c not in configs]
    if unknown:
        parser.error(f"unknown configurations {unknown}; choose from {list(configs)}")
    return args, f"python -m graphwright.bench.{script} " + " ".join(f"'{a}'" if " " in a else a for a in sys.argv[1:])


def rounds(total: int, step: int) -> list[int]:
    """The sentence counts a benchmark runs up to, in order: every dataset and configuration reaches one
    before any goes on, so a run cut short (or carried to another machine by the ledger) still leaves
    tables that compare the configurations on the same sentences."""
    if step <= 0 or step >= total:
        return [total]
    return list(range(step, total, step)) + [total]


def slug(name: str) -> str:
    """A configuration's name as a run folder name."""
    return "".join(c for c in name if c not in " ,/()")


async def run_in_rounds(args, command: str, prefix: str, run_dataset, table) -> None:
    """Every dataset's configurations up to each round's sentence count, its table rewritten each round."""
    llm = make_llm(args.model, cache=not args.no_cache)
    for sentences in rounds(args.sentences, args.step):
        for dataset in args.datasets:
            results = await run_dataset(dataset, args, llm, sentences)
            body = table(
                dataset, results, results[0][1]["run"]["model"], command, items_title(dataset, args.split, sentences)
            )
            write_section(BENCH_MD, f"{prefix}-{dataset}{split_suffix(args.split)}", body)
            print(f"wrote the {dataset} table ({sentences} sentences) to {BENCH_MD}", file=sys.stderr)
    await llm.aclose()


def linking(args, command: str) -> None:
    from graphwright.bench.eval.linking import run_linking_benchmark

    _, table = run_linking_benchmark(
        datasets=["rebel-sample", "fewrel"],
        embedders=args.embedders,
        modes=["label", "description", "example", "fused"],
        limit=args.linking_limit,
    )
    write_section(
        BENCH_MD, "linking", "\n".join(header("URI retrieval linking (no LLM)", None, command)) + "\n" + table
    )


async def run_config(
    label: str,
    system_name: str,
    settings: dict,
    data,
    kb,
    llm,
    folder: Path,
    limit: int,
    replay: ReplayLLM | None = None,
) -> tuple[dict, list[dict]]:
    """One system configuration on a dataset, resumed from its run folder or the ledger: the aggregate, and
    the scored rows of the dataset's documents (a folder may hold more from a longer run). With ``replay``
    (answers shared between configurations, over ``llm``) the system calls it, and a replayed answer
    counts its recorded seconds."""
    restore(folder)
    info = RunInfo(system=system_name, dataset=data.name, model=llm.name, kb=data.kb, limit=limit, settings=settings)
    traced = TracingLLM(replay or llm, folder / "llm-trace.jsonl")  # every call, for reading failures
    system = make_system(system_name, traced, kb, settings or None)
    agg = await run_eval(
        ReplayedTime(system, replay) if replay else system,
        data,
        kb,
        info,
        folder,
        on_progress=lambda doc_id: progress(folder, doc_id, label),
    )
    wanted = {d.id for d in data.documents}
    return agg, [r for r in read_documents(folder) if r["id"] in wanted]


async def run_shared(
    dataset: str,
    configs: dict[str, tuple[str, dict]],
    names: list[str],
    llm,
    sentences: int,
    runs: Path,
    before=None,
    split: str = "dev",
) -> list[tuple[str, dict, list[dict]]]:
    """The named configurations on the first ``sentences`` items of the split of ``dataset``, each in its run
    folder under ``runs``; a request one of them already made (same prompt, temperature 0) is answered once,
    from a replay file per dataset. ``before(system, settings)`` runs ahead of each configuration."""
    data = load_split(dataset, split, sentences)
    suffix = split_suffix(split)
    shared = ReplayLLM(llm, runs / f"answers-{dataset}{suffix}.jsonl")
    results = []
    for name in names:
        system_name, settings = configs[name]
        settings = {**data.system_settings, **settings}
        if before is not None:
            await before(system_name, settings)
        results.append(
            (
                name,
                *await run_config(
                    f"{name} on {dataset}",
                    system_name,
                    settings,
                    data,
                    None,
                    llm,
                    runs / f"{slug(name)}-{dataset}{suffix}",
                    sentences,
                    replay=shared,
                ),
            )
        )
    return results


def uncertainty_cells(results, category: str, reference: str) -> list[tuple[str, str]]:
    """Each configuration's F1 interval and paired difference from the named one (when it ran), in order."""
    names = [name for name, _, _ in results]
    return f1_uncertainty(
        [rows for _, _, rows in results], category, names.index(reference) if reference in names else None
    )


# CIExMAS's closed-IE setting: every mention on the KB entity the system chose (the rebel KB holds every gold
# entity); open-world linking is measured by `python -m graphwright.bench.linking`
CLOSED_WORLD = {"linking": "closed"}


def finished_systems(args) -> tuple[list[tuple[str, dict, list[dict]]], list[str]]:
    """``--table-only``: the systems whose runs (or ledger) hold every document, and what the others lack."""
    wanted = {d.id for d in load_dataset("rebel-sample", args.docs).documents}
    done, missing = [], []
    for name in args.systems:
        folder = RUNS / f"{name}-rebel-sample"
        restore(folder)
        rows = [r for r in read_documents(folder) if r["id"] in wanted]
        if len(rows) < len(wanted):
            missing.append(f"{name} ({len(rows)} of {len(wanted)} documents)")
            continue
        info = RunInfo(**json.loads((folder / RUN_FILE).read_text(encoding="utf-8")))
        done.append((name, aggregate_rows(rows, info, tuple(rows[0]["counts"])), rows))
    return done, missing


async def systems(args) -> list[tuple[str, dict, list[dict]]]:
    data = load_dataset("rebel-sample", args.docs)
    kb = open_kb(data.kb)
    llm = make_llm(args.model, cache=not args.no_cache)
    out = []
    for name in args.systems:
        agg, rows = await run_config(name, name, CLOSED_WORLD, data, kb, llm, RUNS / f"{name}-rebel-sample", args.docs)
        out.append((name, agg, rows))
    await llm.aclose()
    return out


def progress(folder: Path, doc_id: str, label: str) -> None:
    save(folder, doc_id)  # each finished document reaches the ledger at once
    print(f"{label}: {doc_id}", file=sys.stderr, flush=True)


def e2e_table(results, model: str, command: str, docs: int) -> str:
    lines = header(f"cie systems on the first {docs} rebel-sample documents (macro averages)", model, command)
    lines += [
        "| system | triple P | triple R | triple F1 | subject F1 | property F1 | object F1 | entity F1 | "
        "parental F1 | related F1 | error rate | LLM calls | prompt tokens | completion tokens | seconds |",
        "|---|" + "---|" * 14,
    ]
    for name, agg, _ in results:
        m, cost = agg["macro"], agg["per_document"]
        f1 = [
            m[c]["f1"]
            for c in ("triples", "subjects", "properties", "objects", "entities", "triples_parental", "triples_related")
        ]
        lines.append(
            f"| {name} | {m['triples']['precision']:.3f} | {m['triples']['recall']:.3f} | "
            + " | ".join(f"{x:.3f}" for x in f1)
            + f" | {agg['error_rate']:.2f} | {cost['llm_calls']:.1f} | {cost['prompt_tokens']:.0f} | "
            f"{cost['completion_tokens']:.0f} | {cost['seconds']:.1f} |"
        )
    lines += ["", "Per-document values are means (LLM calls, tokens and wall seconds per document)."]
    return "\n".join(lines)


def per_document_table(results) -> str:
    lines = []
    for name, _, rows in results:
        lines += [
            f"#### {name}: each document",
            "",
            "| docid | status | seconds | LLM calls | prompt tokens | completion tokens | predicted | gold | triple F1 |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in rows:
            u, c = r["usage"], r["counts"]["triples"]
            p = c["matched_pred"] / c["predicted"] if c["predicted"] else 0.0
            rec = c["matched_gold"] / c["gold"] if c["gold"] else 0.0
            f1 = 2 * p * rec / (p + rec) if p + rec else 0.0
            lines.append(
                f"| {r['id']} | {r['status']} | {u['wall_seconds']:.1f} | {u['llm_calls']} | {u['prompt_tokens']} | "
                f"{u['completion_tokens']} | {c['predicted']} | {c['gold']} | {f1:.2f} |"
            )
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=20)
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument("--systems", default="cie.single,cie.network", type=lambda s: s.split(","))
    parser.add_argument("--embedders", default="minilm,minilm-static", type=lambda s: s.split(","))
    parser.add_argument("--linking-limit", type=int, default=300, help="queries per linking set")
    parser.add_argument("--skip-linking", action="store_true")
    parser.add_argument("--no-cache", action="store_true", help="call the model every time (for honest seconds)")
    parser.add_argument(
        "--table-only",
        action="store_true",
        help="write the table from the finished runs (or the ledger) without calling the model",
    )
    args = parser.parse_args()
    command = "python -m graphwright.bench.harness " + " ".join(a for a in sys.argv[1:] if a != "--table-only")
    if not (args.skip_linking or args.table_only):
        linking(args, command)
        print(f"linking table written to {BENCH_MD}", file=sys.stderr)
    results, missing = finished_systems(args) if args.table_only else (asyncio.run(systems(args)), [])
    model = results[0][1]["run"]["model"] if results else args.model
    pending = (
        f"\n\nNot yet measured (`make bench-ablation` resumes them from the ledger): {', '.join(missing)}."
        if missing
        else ""
    )
    write_section(
        BENCH_MD,
        f"cie-e2e-{args.docs}",
        e2e_table(results, model, command, args.docs) + pending + "\n\n" + per_document_table(results),
    )
    print(f"wrote {BENCH_MD}")


if __name__ == "__main__":
    main()
