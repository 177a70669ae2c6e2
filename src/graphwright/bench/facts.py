"""`make bench-facts`: every fact of users' kind of text (examples/facts), read against its gold facts.

Each system runs once per text of the split; its results resume from runs/bench/facts/, the model's
answers are kept in the ledger (docs/bench-ledger/facts--answers-*.jsonl: our own texts, so a new machine
replays them without model time), and so are the per-text counts with the code's commit
(docs/bench-ledger/facts--<system>-<split>.json). The table gives precision, recall and F1 per kind of
text, wrong links, minted relations, calls, tokens and model seconds per text, and the paired interval
of F1 against each other system on the same texts; every fact a system wrote is listed in
runs/bench/facts/<system>-<split>.md for reading.

    python -m graphwright.bench.facts --split dev --systems facts,cie.network,openie --model embedded:qwen2.5-coder-1.5b
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.bootstrap import difference_interval
from graphwright.bench.eval.facts_data import KINDS, SPLITS, FactText, load_fact_texts
from graphwright.bench.eval.facts_metrics import FactCounts, score_fact_text, show_triple
from graphwright.bench.eval.metrics import Counts
from graphwright.bench.harness import BENCH_MD, header, slug
from graphwright.bench.ledger import LEDGER, RUNS, ProducedBy, ReplayLLM, commit, results_resumed
from graphwright.bench.speed import model_options
from graphwright.kb import open_kb
from graphwright.llm import make_llm
from graphwright.model import Document, ExtractionResult
from graphwright.systems.base import make_system

FACTS_RUNS = RUNS / "facts"


def run_name(system: str, variant: tuple[str, dict], split: str, model: str) -> str:
    return f"{system}{'-' + variant[0] if variant[0] else ''}-{split}-{slug(model).replace(':', '_')}"


async def results(system_name: str, texts: list[FactText], kb, llm, variant, split: str) -> list[ExtractionResult]:
    """One result per text, resumed from the run file; the model's answers through the ledger."""
    name = run_name(system_name, variant, split, llm.name)
    answers = f"{system_name}{'-' + variant[0] if variant[0] else ''}-{slug(llm.name).replace(':', '_')}"
    replay = ReplayLLM(llm, LEDGER / f"facts--answers-{answers}.jsonl")
    system = make_system(system_name, replay, kb, variant[1])
    documents = [Document(id=t.id, text=t.text) for t in texts]
    found = await results_resumed(system, documents, FACTS_RUNS / f"{name}.jsonl", name)
    produced_by(name).record(r.document_id for r in found)
    return found


def produced_by(name: str) -> ProducedBy:
    return ProducedBy(FACTS_RUNS / f"{name}.commits.json")


def save_ledger(
    name: str, texts: list[FactText], found: list[ExtractionResult], counts: list[FactCounts], settings: dict
) -> None:
    rows: list[dict[str, Any]] = [
        {
            "id": t.id,
            "status": r.status,
            "reason": r.reason,
            "counts": {k: v for k, v in vars(c).items() if not isinstance(v, list)},
            "usage": r.usage.model_dump(),
            "dropped": r.extra.get("dropped"),
            "unstated": r.extra.get("unstated"),
            "mapping": r.extra.get("mapping"),
        }
        for t, r, c in zip(texts, found, counts)
    ]
    LEDGER.mkdir(parents=True, exist_ok=True)
    produced = produced_by(name)
    for row in rows:
        row["produced_by"] = produced.commits.get(row["id"])
    saved = {
        "run": {"name": name, "commit": commit(), "outputs_from": produced.summary(), "settings": settings},
        "documents": rows,
    }
    (LEDGER / f"facts--{name}.json").write_text(
        json.dumps(saved, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def as_counts(c: FactCounts) -> Counts:
    return Counts(matched_pred=c.right, predicted=c.predicted, matched_gold=c.found, gold=c.gold)


def table(scored: dict[str, tuple[list[FactText], list[ExtractionResult], list[FactCounts]]]) -> list[str]:
    lines = [
        "| system | kind | texts | P | R | F1 | facts written | minted (restating a stated fact) | "
        "wrong links | calls / text | tokens / text | model s / text | other s / text |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, (texts, found, counts) in scored.items():
        for kind in [*KINDS, "all"]:
            chosen = [i for i, t in enumerate(texts) if kind in ("all", t.kind)]
            if not chosen:
                continue
            c = sum((counts[i] for i in chosen), FactCounts())
            usage = [found[i].usage for i in chosen]
            model_s = sum(u.prompt_seconds + u.generation_seconds for u in usage) / len(chosen)
            # a replayed answer keeps the model time it took, not the wall time around it
            replayed = any(u.cached_calls for u in usage)
            other_s = "replayed" if replayed else f"{sum(u.seconds for u in usage) / len(chosen) - model_s:.1f}"
            lines.append(
                f"| {name} | {kind} | {len(chosen)} | {c.precision:.3f} | {c.recall:.3f} | {c.f1:.3f} | {c.predicted} | "
                f"{c.minted} ({c.minted_stated}) | {c.wrong_links}/{c.links} | "
                f"{sum(u.llm_calls for u in usage) / len(chosen):.1f} | "
                f"{sum(u.prompt_tokens + u.completion_tokens for u in usage) / len(chosen):,.0f} | "
                f"{model_s:.1f} | {other_s} |"
            )
    names = list(scored)
    if len(names) > 1:
        lines += ["", "Paired F1 differences on the same texts (95% bootstrap interval over texts):", ""]
        first = names[0]
        for other in names[1:]:
            a, b = ([as_counts(c) for c in scored[n][2]] for n in (first, other))
            low, high = difference_interval(a, b)
            diff = sum(a, Counts()).f1 - sum(b, Counts()).f1
            lines.append(f"- {first} against {other}: {diff:+.3f} ({low:+.3f} to {high:+.3f})")
    return lines


def facts_listing(name: str, texts: list[FactText], found: list[ExtractionResult], counts: list[FactCounts]) -> str:
    out = [f"# {name}: every fact written, text by text", ""]
    for text, result, c in zip(texts, found, counts):
        out += [f"## {text.id} (P {c.precision:.2f}, R {c.recall:.2f})", "", text.text, ""]
        out += [f"- {show_triple(t)}" for t in result.triples] or ["- (no facts)"]
        out += ["", f"wrong: {'; '.join(c.wrong) or '-'}", "", f"missed: {'; '.join(c.missed) or '-'}", ""]
    return "\n".join(out)


def configurations(args) -> list[tuple[str, str, tuple[str, dict]]]:
    """(row label, system, variant) in table order. With ``--adapter``, facts runs untuned first (its answers
    are the ones recorded before adapters existed: an untuned request's key is unchanged), then with the
    adapter, so that the paired interval compares the two on the same texts."""
    if not args.adapter:
        return [(s + (f" ({args.variant[0]})" if args.variant[0] else ""), s, args.variant) for s in args.systems]
    tuned = (f"tuned-{args.adapter.stem}", {**args.variant[1], "adapter": "facts"})
    return [
        ("facts (untuned)", "facts", (args.variant[0], {**args.variant[1], "adapter": "none"})),
        (f"facts ({args.adapter.name})", "facts", tuned),
    ]


async def run(args) -> str:
    kb = open_kb("default")
    adapters: dict[str, Any] = {"adapters": {"facts": args.adapter}} if args.adapter else {}
    llm = make_llm(args.model, cache=not args.no_cache, **adapters)
    texts = load_fact_texts(args.texts, split=args.split)
    scored, names = {}, []
    for label, system_name, variant in configurations(args):
        name = run_name(system_name, variant, args.split, llm.name)
        found = await results(system_name, texts, kb, llm, variant, args.split)
        counts = [score_fact_text(t, r) for t, r in zip(texts, found)]
        save_ledger(name, texts, found, counts, variant[1])
        (FACTS_RUNS / f"{name}.md").write_text(facts_listing(name, texts, found, counts), encoding="utf-8")
        scored[label] = (texts, found, counts)
        names.append((label, name))
    await llm.aclose()
    settings = "".join(f", {k}={v}" for k, v in args.variant[1].items())
    body = header(f"bench-facts, {args.split} split ({len(texts)} texts){settings}", llm.name, args.command)
    body += [
        f"- code: scored at {commit()}; outputs produced at "
        + "; ".join(f"{label}: {produced_by(n).summary()}" for label, n in names),
        "",
    ] + table(scored)
    return "\n".join(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", default="facts,cie.network,openie", type=lambda s: s.split(","))
    parser.add_argument("--split", choices=SPLITS, default="dev")
    parser.add_argument("--texts", default=None, help="the folder of the texts (default: examples/facts/texts)")
    parser.add_argument(
        "--adapter",
        type=Path,
        default=None,
        help="a facts adapter (GGUF): facts untuned against facts with it, in one table (issue 60)",
    )
    model_options(parser, "name:key=value+key=value: settings for the systems, with their own runs and ledger")
    args = parser.parse_args()
    args.command = "python -m graphwright.bench.facts " + " ".join(sys.argv[1:])
    section = (
        f"facts-{args.split}"
        + (f"-{args.variant[0]}" if args.variant[0] else "")
        + ("-adapter" if args.adapter else "")
    )
    write_section(BENCH_MD, section, asyncio.run(run(args)))
    print(f"wrote the {section} table to {BENCH_MD}", file=sys.stderr)


if __name__ == "__main__":
    main()
