"""`make bench-text2kg`: Text2KGBench DBpedia-WebNLG, each ontology given to `facts` as the user's schema.

Splits, fixed before any tuning: test is the first 20 ground-truth sentences of each of the 19
ontologies (379 sentences: ont_12_monument has 19), dev the 5 after them (90, none of ont_12). Scored with the benchmark's own metrics
(graphwright.bench.eval.text2kg): precision, recall and F1 per sentence over the triples with a gold relation,
ontology conformance and subject, relation and object hallucination, averaged per ontology, then over
ontologies. Runs resume from runs/bench/text2kg/; the model's answers are kept in the ledger
(docs/bench-ledger/text2kg--answers-*.jsonl) and so are the per-sentence scores with the commit that
produced each output (docs/bench-ledger/text2kg--<run>.json); every sentence's triples, missed gold
triples included, are listed in runs/bench/text2kg/<run>.md for reading.

    python -m graphwright.bench.text2kg --split dev --model embedded:qwen2.5-coder-1.5b
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.bootstrap import mean_difference_interval
from graphwright.bench.eval.text2kg import (
    METRICS,
    SentenceScore,
    Text2KGSentence,
    averaged,
    benchmark_triples,
    load_ontology,
    load_sentences,
    ontology_ids,
    score_sentence,
    train_pool,
    unscored_pool,
)
from graphwright.bench.harness import BENCH_MD, header, slug
from graphwright.bench.ledger import LEDGER, RUNS, ProducedBy, ReplayLLM, commit, results_resumed
from graphwright.bench.speed import model_options
from graphwright.kb import open_kb
from graphwright.llm import make_llm
from graphwright.model import Document, ExtractionResult
from graphwright.systems.base import make_system

TEXT2KG_RUNS = RUNS / "text2kg"
SPLITS = {"test": (0, 20), "dev": (20, 5)}  # (first sentence, sentences) per ontology
ANCHOR = "Vicuna-13B in the Text2KGBench paper (few-shot prompt with an example from the train split): average F1 0.30"
Scored = tuple[Text2KGSentence, ExtractionResult, list[tuple[str, str, str]], SentenceScore, SentenceScore]


POOLS = ("train", "unscored", "both")


def pool_file(ontology, kind: str) -> Path:
    """The ontology's labelled pool (JSONL): WebNLG train sentences for its relations ("train"), its
    ground-truth sentences after the scored ones ("unscored"), or both; never a sentence that states a
    fact of a scored sentence of either split."""
    scored = sum(SPLITS["dev"])
    samples: list[dict] = []
    if kind in ("unscored", "both"):
        found, overlapping = unscored_pool(ontology.id, scored)
        samples += found
        print(
            f"{ontology.id}: {len(found)} unscored ground-truth sentences, {overlapping} left out as stating a "
            f"scored fact",
            file=sys.stderr,
        )
    if kind in ("train", "both"):
        found, overlapping = train_pool(ontology, load_sentences(ontology.id, 0, scored))
        samples += found
        print(
            f"{ontology.id}: {len(found)} WebNLG train sentences, {overlapping} left out as stating a scored fact",
            file=sys.stderr,
        )
    path = TEXT2KG_RUNS / "pools" / f"{ontology.id}-{kind}.jsonl"
    content = "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in samples)
    if not path.is_file() or path.read_text(encoding="utf-8") != content:  # a run reading it keeps its file
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        partial.write_text(content, encoding="utf-8")
        partial.replace(path)
    return path


async def run_ontology(ontology_id: str, split: str, llm, kb, variant, name: str, system_name: str) -> list[Scored]:
    ontology = load_ontology(ontology_id)
    schema_file = TEXT2KG_RUNS / "schemas" / f"{ontology_id}.json"
    schema_file.parent.mkdir(parents=True, exist_ok=True)
    schema_file.write_text(ontology.schema().model_dump_json(indent=1), encoding="utf-8")
    # a variant that only renames the run (a later run of the same settings) replays the same answers
    answers = f"{system_name}{'-' + variant[0] if variant[1] else ''}-{slug(llm.name).replace(':', '_')}"
    replay = ReplayLLM(llm, LEDGER / f"text2kg--answers-{answers}.jsonl")
    settings = {
        "schema_file": str(schema_file),
        **({"outside_schema": "drop"} if system_name == "facts" else {}),
        **variant[1],
    }
    pool = settings.pop("pool", None)
    if pool:
        if pool not in POOLS:
            raise SystemExit(f"pool={pool}: choose one of {', '.join(POOLS)}")
        settings["pool_file"] = str(pool_file(ontology, pool))
    system = make_system(system_name, replay, kb, settings)
    sentences = load_sentences(ontology_id, *SPLITS[split])
    run_file = TEXT2KG_RUNS / name / f"{ontology_id}.jsonl"
    found = await results_resumed(
        system, [Document(id=s.id, text=s.text) for s in sentences], run_file, f"{name} {ontology_id}"
    )
    produced_by(name).record(r.document_id for r in found)
    scored = []
    for sentence, result in zip(sentences, found):
        written = benchmark_triples(result)
        scored.append(
            (
                sentence,
                result,
                written,
                score_sentence(sentence, written, ontology),
                score_sentence(sentence, answered(result), ontology),
            )
        )
    return scored


def answered(result: ExtractionResult) -> list[tuple[str, str, str]]:
    """The triples of the model's answer as it wrote them, before grounding and mapping (an answer that
    does not parse: none)."""
    for step in result.trace:
        if step.node == "extract" and step.output:
            try:
                triples = json.loads(step.output).get("triples", [])
            except (json.JSONDecodeError, AttributeError):
                return []
            return [(str(t[0]), str(t[1]), str(t[2])) for t in triples if isinstance(t, list) and len(t) == 3]
    return []


def produced_by(name: str) -> ProducedBy:
    return ProducedBy(TEXT2KG_RUNS / name / "commits.json")


def save_ledger(name: str, by_ontology: dict[str, list[Scored]], settings: dict) -> None:
    produced = produced_by(name)
    rows = []
    for scored in by_ontology.values():
        for sentence, result, _, score, _ in scored:
            counts = {k: v for k, v in vars(score).items() if k != "missed"}
            rows.append(
                {
                    "id": sentence.id,
                    "status": result.status,
                    "reason": result.reason,
                    "counts": counts,
                    "usage": result.usage.model_dump(),
                    "mapping": result.extra.get("mapping"),
                    "dropped": result.extra.get("dropped"),
                    "produced_by": produced.commits.get(sentence.id),
                }
            )
    saved = {
        "run": {"name": name, "commit": commit(), "outputs_from": produced.summary(), "settings": settings},
        "documents": rows,
    }
    LEDGER.mkdir(parents=True, exist_ok=True)
    (LEDGER / f"text2kg--{name}.json").write_text(
        json.dumps(saved, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def table(by_ontology: dict[str, list[Scored]], written: bool = True) -> list[str]:
    """The per-ontology table; with ``written``, the model's answer as written beside (facts' extract step)."""
    heads = ["P", "R", "F1", "ontology conformance", "subject halluc.", "relation halluc.", "object halluc."]
    lines = [
        f"| ontology | sentences | {' | '.join(heads)} | triples written | calls / sentence | "
        f"tokens / sentence | model s / sentence |",
        "|---" * (len(heads) + 6) + "|",
    ]
    means = []
    for ontology_id, scored in by_ontology.items():
        mean = averaged([s[3] for s in scored])
        means.append(mean)
        usage = [s[1].usage for s in scored]
        lines.append(
            f"| {ontology_id} | {len(scored)} | "
            + " | ".join(f"{mean[m]:.2f}" for m in METRICS)
            + f" | {sum(s[3].written for s in scored)} | {sum(u.llm_calls for u in usage) / len(usage):.1f}"
            f" | {sum(u.prompt_tokens + u.completion_tokens for u in usage) / len(usage):,.0f}"
            f" | {sum(u.prompt_seconds + u.generation_seconds for u in usage) / len(usage):.1f} |"
        )
    overall = {m: sum(mean[m] for mean in means) / len(means) for m in METRICS}
    lines.append(
        f"| **average of {len(means)} ontologies** | {sum(len(s) for s in by_ontology.values())} | "
        + " | ".join(f"**{overall[m]:.2f}**" for m in METRICS)
        + " | | | | |"
    )
    if not written:
        return lines
    raw = [averaged([s[4] for s in scored]) for scored in by_ontology.values()]
    raw_overall = {m: sum(mean[m] for mean in raw) / len(raw) for m in METRICS}
    lines.append(
        "| the model's answer as written (same calls) | | "
        + " | ".join(f"{raw_overall[m]:.2f}" for m in METRICS)
        + " | | | | |"
    )
    pipeline = [s[3].f1 for scored in by_ontology.values() for s in scored]
    as_written = [s[4].f1 for scored in by_ontology.values() for s in scored]
    low, high = mean_difference_interval(pipeline, as_written)
    lines += [
        "",
        f"F1 of facts against the model's answer as written, mean over sentences: "
        f"{(sum(pipeline) - sum(as_written)) / len(pipeline):+.3f} (95% paired bootstrap interval "
        f"{low:+.3f} to {high:+.3f})",
    ]
    return lines


def listing(name: str, by_ontology: dict[str, list[Scored]]) -> str:
    out = [f"# {name}: every sentence's triples", ""]
    for scored in by_ontology.values():
        for sentence, result, written, score, _ in scored:
            out += [f"## {sentence.id} (P {score.precision:.2f}, R {score.recall:.2f})", "", sentence.text, ""]
            out += [f"- {' | '.join(t)}" for t in written] or ["- (no triples)"]
            out += ["", f"missed: {'; '.join(score.missed) or '-'}", ""]
            out += [f"  - {w}" for w in result.warnings]
    return "\n".join(out)


async def run(args) -> str:
    kb = open_kb("default")
    llm = make_llm(args.model, cache=not args.no_cache)
    name = (
        f"{args.system}{'-' + args.variant[0] if args.variant[0] else ''}-{args.split}-"
        f"{slug(llm.name).replace(':', '_')}"
    )
    ontologies = args.ontologies or ontology_ids()
    by_ontology = {o: await run_ontology(o, args.split, llm, kb, args.variant, name, args.system) for o in ontologies}
    by_ontology = {o: scored for o, scored in by_ontology.items() if scored}  # ont_12 has 19 sentences: no dev
    await llm.aclose()
    save_ledger(name, by_ontology, args.variant[1])
    (TEXT2KG_RUNS / f"{name}.md").write_text(listing(name, by_ontology), encoding="utf-8")
    first, count = SPLITS[args.split]
    settings = "".join(f", {k}={v}" for k, v in args.variant[1].items())
    body = header(
        f"Text2KGBench DBpedia-WebNLG, {args.split} split (sentences {first + 1}-{first + count} of each "
        f"ontology){settings}",
        llm.name,
        args.command,
    )
    described = (
        "facts with the ontology as its schema (outside_schema=drop)"
        if args.system == "facts"
        else f"{args.system} with the ontology as its schema"
    )
    pooled = {
        "train": " The pool: the ontology's WebNLG train sentences (CasRel's copy, detokenised)",
        "unscored": " The pool: the ontology's ground-truth sentences after the 25 scored ones",
        "both": " The pool: the ontology's ground-truth sentences after the 25 scored ones and its WebNLG "
        "train sentences (CasRel's copy, detokenised)",
    }.get(args.variant[1].get("pool"), "")
    pooled += ", less those stating a fact of a scored sentence." if pooled else ""
    body += [
        f"- system: {described}.{pooled} Code: scored at {commit()}, outputs produced at {produced_by(name).summary()}",
        f"- anchor: {ANCHOR}",
        "",
    ]
    return "\n".join(body + table(by_ontology, written=args.system == "facts"))


def compare(first: str, second: str) -> str:
    """Two runs' ledgers on the sentences both scored: each one's F1 (mean over sentences and average over
    ontologies, the benchmark's figure), their paired difference with its interval, and tokens."""
    runs = [
        json.loads((LEDGER / f"text2kg--{name}.json").read_text(encoding="utf-8"))["documents"]
        for name in (first, second)
    ]
    ok = [{r["id"]: r for r in rows} for rows in runs]  # a sentence that failed scores 0, as in the table
    shared = [i for i in ok[0] if i in ok[1]]
    if not shared:
        raise SystemExit(f"{first} and {second} have no scored sentence in common")
    lines = [f"{len(shared)} sentences scored in both ({len(runs[0])} and {len(runs[1])} in the ledgers)"]
    f1 = []
    for name, rows in zip((first, second), ok):
        scores = [rows[i]["counts"]["f1"] for i in shared]
        by_ontology: dict[str, list[float]] = {}
        for i, score in zip(shared, scores):
            by_ontology.setdefault(i.rsplit("_test_", 1)[0].rsplit("_dev_", 1)[0], []).append(score)
        tokens = sum(rows[i]["usage"]["prompt_tokens"] + rows[i]["usage"]["completion_tokens"] for i in shared)
        average = sum(sum(v) / len(v) for v in by_ontology.values()) / len(by_ontology)
        lines.append(
            f"{name}: F1 {sum(scores) / len(scores):.4f} over sentences, {average:.4f} averaged over "
            f"{len(by_ontology)} ontologies; {tokens / len(shared):,.0f} tokens a sentence"
        )
        f1.append(scores)
    low, high = mean_difference_interval(f1[0], f1[1])
    difference = (sum(f1[0]) - sum(f1[1])) / len(shared)
    lines.append(f"{first} minus {second}: {difference:+.3f} (95% paired bootstrap interval {low:+.3f} to {high:+.3f})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=tuple(SPLITS), default="dev")
    parser.add_argument("--system", default="facts", choices=("facts", "agentre"))
    parser.add_argument(
        "--ontologies",
        default=None,
        type=lambda s: s.split(","),
        help="comma-separated ontology ids (ont_1_university,...); default all 19",
    )
    model_options(
        parser,
        "name:key=value+key=value: the system's settings, with their own runs and ledger; "
        "pool=train|unscored|both gives it labelled sentences of the ontology as pool_file",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("RUN", "OTHER"),
        help="compare two runs' ledgers (docs/bench-ledger/text2kg--RUN.json) on the sentences both scored, no model",
    )
    args = parser.parse_args()
    if args.compare:
        print(compare(*args.compare))
        return
    args.command = "python -m graphwright.bench.text2kg " + " ".join(sys.argv[1:])
    section = (
        f"text2kg-{args.split}"
        + ("" if args.system == "facts" else f"-{args.system}")
        + (f"-{args.variant[0]}" if args.variant[0] else "")
    )
    body = asyncio.run(run(args))
    if args.ontologies:  # a partial run is for looking at, not for the table
        print(body)
        return
    write_section(BENCH_MD, section, body)
    print(f"wrote the {section} table to {BENCH_MD}", file=sys.stderr)


if __name__ == "__main__":
    main()
