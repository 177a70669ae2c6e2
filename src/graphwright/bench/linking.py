"""`make bench-linking`: linking correctness on the KB a user has, closed-world against open-world.

Each system runs once per document with ``linking=closed`` (every mention on the KB entity it chose, as
before open-world linking); the same results are then resolved open-world (``graphwright.linking``),
so both columns come from the same model answers and differ only by the linking. Data: the first N
rebel-sample and fewrel documents against the default KB (not rebel's own closed-world KB), and the
made-up texts of ``graphwright/bench/eval/made_up_texts.jsonl``. The model's answers are kept in the ledger
(docs/bench-ledger/linking--answers-*.jsonl), so another machine recomputes the tables without it.

    python -m graphwright.bench.linking --systems cie.single:20,cie.network:5 --model embedded:qwen2.5-coder-1.5b
    python -m graphwright.bench.linking --systems cie.network:0 --variant lean:lean=true  # today's default, own ledger
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter

from graphwright.bench.data.gold import GoldDocument, iri_key
from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.datasets import load_dataset
from graphwright.bench.eval.metrics import Counts, PropertyHierarchy, Scorer
from graphwright.bench.eval.open_world import check_facts, entity_outcomes, made_up_texts
from graphwright.bench.harness import BENCH_MD, header, slug
from graphwright.bench.ledger import LEDGER, RUNS, ReplayLLM, results_resumed
from graphwright.bench.speed import model_options
from graphwright.kb import open_kb
from graphwright.kb.namespaces import is_unlinked
from graphwright.linking import LinkJudge, resolve
from graphwright.llm import make_llm
from graphwright.model import Document, ExtractionResult
from graphwright.systems.base import make_system

LINKING_RUNS = RUNS / "linking"
MADE_UP = "made-up"
# the settings the ledger's answers were made with, before issue 23 changed the defaults: the tables
# replay them without model time (drop a pin to measure today's default with the model)
RECORDED_WITH = {"cie.single": {"cap_to_input": False}, "cie.network": {"lean": False}}


async def closed_results(
    system_name: str, dataset: str, docs: list[Document], kb, llm, variant: tuple[str, dict]
) -> list[ExtractionResult]:
    """The system's closed-world result per document, resumed from its run folder; answers via the ledger."""
    label, settings = variant
    name = f"{system_name}{'-' + label if label else ''}-{dataset}-{slug(llm.name).replace(':', '_')}"
    replay = ReplayLLM(llm, LEDGER / f"linking--answers-{name}.jsonl")
    system = make_system(
        system_name, replay, kb, {"linking": "closed", **RECORDED_WITH.get(system_name, {}), **settings}
    )
    return await results_resumed(system, docs, LINKING_RUNS / f"{name}.jsonl", f"{system_name} {dataset}")


def scored(results: list[ExtractionResult], gold: list[GoldDocument], kb) -> tuple[Counter, Counts]:
    scorer = Scorer(PropertyHierarchy.from_kb(kb), kb_has=kb.contains)
    entities: Counter = Counter()
    triples = Counts()
    for result, doc in zip(results, gold):
        entities += entity_outcomes(result, doc, kb.contains)
        triples = triples + scorer.score_document(result, doc)["triples"]
    return entities, triples


def rate(part: int, whole: int) -> str:
    return f"{part / whole:.3f} ({part}/{whole})" if whole else "-"


def entity_row(label: str, mode: str, e: Counter, t: Counts) -> str:
    outside = sum(e[(False, o)] for o in ("wrong", "unlinked"))
    inside = sum(e[(True, o)] for o in ("right", "wrong", "unlinked"))
    return (
        f"| {label} | {mode} | {rate(e[(False, 'wrong')], outside)} | {rate(e[(False, 'unlinked')], outside)} | "
        f"{rate(e[(True, 'right')], inside)} | {rate(e[(True, 'wrong')], inside)} | "
        f"{t.precision:.3f} | {t.recall:.3f} | {t.f1:.3f} |"
    )


async def run(args, system_name: str, docs_wanted: dict[str, int]) -> str:
    kb = open_kb("default")
    judge = LinkJudge(kb)
    llm = make_llm(args.model, cache=not args.no_cache)
    lines = [
        "| data | linking | wrong-link rate, entities outside the KB | kept unlinked | "
        "right-link rate, entities in the KB | wrong link, in the KB | triple P | triple R | triple F1 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    made_up_lines, facts_lines = [], []
    for dataset, wanted in docs_wanted.items():
        if wanted:
            gold = load_dataset(dataset, wanted).documents
            docs = [Document(id=d.id, text=d.text) for d in gold]
            closed = await closed_results(system_name, dataset, docs, kb, llm, args.variant)
            opened = [resolve(r, d, judge) for r, d in zip(closed, docs)]
            for mode, results in (("closed", closed), ("open", opened)):
                lines.append(entity_row(f"{dataset} ({len(docs)})", mode, *scored(results, gold, kb)))
    texts = made_up_texts()
    docs = [Document(id=t.id, text=t.text) for t in texts]
    closed = await closed_results(system_name, MADE_UP, docs, kb, llm, args.variant)
    for mode, results in (("closed", closed), ("open", [resolve(r, d, judge) for r, d in zip(closed, docs)])):
        checks = [check_facts(r, t) for r, t in zip(results, texts)]
        made_up_lines.append(
            f"| {mode} | {sum(c.facts for c in checks)} | {sum(c.on_made_up for c in checks)} | "
            f"{sum(len(c.on_real_entity) for c in checks)} | {sum(len(c.values_as_items) for c in checks)} |"
        )
        if mode == "open":
            facts_lines += [
                f"- {t.id}: " + ("; ".join(_fact(x) for x in r.triples) or "no facts") for r, t in zip(results, texts)
            ]
    await llm.aclose()
    title = "".join(f"first {n} {d} documents, " for d, n in docs_wanted.items() if n)
    settings = "".join(f", {k}={v}" for k, v in args.variant[1].items())
    body = header(
        f"{system_name}{settings}: linking against the default KB ({title}the {len(texts)} made-up texts)",
        llm.name,
        args.command,
    )
    body += (lines if any(docs_wanted.values()) else []) + [
        "",
        "Made-up texts: facts, facts about a made-up person or company, "
        "mentions of a made-up person or company (or of a real one the KB lacks) linked to a KB entity "
        "(must be 0), numbers or dates linked as items (must be 0).",
        "",
        "| linking | facts | about made-up entities | made-up or KB-less name linked to a KB entity | value as item |",
        "|---|---|---|---|---|",
        *made_up_lines,
        "",
        "Every open-world fact of the made-up texts:",
        "",
        *facts_lines,
    ]
    return "\n".join(body)


def _fact(t) -> str:
    def show(term) -> str:
        if term.kind == "literal":
            return json.dumps(term.value, ensure_ascii=False)
        name = term.label or term.surface or term.value
        return f"{name} (unlinked)" if is_unlinked(term.value) else f"{name} ({iri_key(term.value)})"

    return f"{show(t.subject)} · {t.predicate.label or t.predicate.value.rsplit('/', 1)[-1]} · {show(t.object)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--systems",
        default="cie.single:20",
        type=lambda s: s.split(","),
        help="system:N (N rebel-sample and N fewrel documents; 0: the made-up texts only) "
        "or system:N/M (N rebel-sample, M fewrel)",
    )
    model_options(parser, "name:key=value+key=value: settings over the recorded ones, with their own ledger and table")
    args = parser.parse_args()
    args.command = "python -m graphwright.bench.linking " + " ".join(sys.argv[1:])
    for spec in args.systems:
        name, _, docs = spec.partition(":")
        rebel, _, fewrel = (docs or "0").partition("/")
        wanted = {"rebel-sample": int(rebel), "fewrel": int(fewrel or rebel)}
        section = f"linking-{name}" + (f"-{args.variant[0]}" if args.variant[0] else "")
        write_section(BENCH_MD, section, asyncio.run(run(args, name, wanted)))
        print(f"wrote the {name} table to {BENCH_MD}", file=sys.stderr)


if __name__ == "__main__":
    main()
