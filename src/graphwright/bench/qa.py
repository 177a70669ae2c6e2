"""Question answering over the built graph against plain retrieval and no retrieval (issue 26).

For each dataset: the passages are indexed into a graph store with ``openie`` (one call per passage;
a corpus takes hours here), then every question is asked in each configuration with the same model:

* graph: ``GraphQA`` local mode (seed nodes, ranked 3-hop facts with their evidence sentences);
* walk: ``GraphQA`` passages mode (the facts closest to the question seed a walk over names and
  passages; the reader gets the top 5 passages and the facts that led there);
* bm25, embedding: the top 5 passages in one answer call;
* none: the question alone.

Every configuration with sources answers with ``--reader`` (short: the answer at once, as ``ask`` does
by default; notes: the facts the answer needs, then the answer); its ledger and table row are named
``<config>`` for the short reader and ``<config>+notes`` for the notes one.

Scores: exact match and token F1 (SQuAD normalisation, best alias), recall of the supporting passages
among those retrieved, calls, tokens and seconds per question; and the index's one-time cost.

Both phases resume. The index keeps the model's answers in the ledger (``qa--index-<dataset>.jsonl``; a
finished one is kept gzip-compressed as ``.jsonl.gz`` and still read), so a new machine rebuilds the store
from them without calling the model; the questions' rows are the
ledger itself (``qa--<row>-<dataset>.json``), and a question already there is not asked again.

A reader other than the embedded 1.5B model (``--model``, with GRAPHWRIGHT_BASE_URL for a server) keeps
its own ledgers and tables (named with ``--<model>``), and ``--index-model embedded:qwen2.5-coder-1.5b``
has it read the graphs built here, rebuilt from the recorded answers, instead of indexing again.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from pathlib import Path

from graphwright.bench.data.qa_data import load_qa_dataset
from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.bootstrap import mean_difference_interval, mean_interval
from graphwright.bench.harness import BENCH_MD, header
from graphwright.bench.ledger import LEDGER, RUNS, ReplayLLM, recorded
from graphwright.llm import make_llm
from graphwright.model import Document
from graphwright.pipeline import extract_batch
from graphwright.qa import ClosedBookQA, GraphQA, PassageQA, Source
from graphwright.qa.answer import Reader
from graphwright.qa.engine import retrieved_documents
from graphwright.qa.metrics import exact_match, support_recall, token_f1
from graphwright.store import GraphStore
from graphwright.systems.base import make_system

CONFIGS = ("graph", "walk", "bm25", "embedding", "none")
REFERENCE = "bm25"
QA_RUNS = RUNS / "qa"
DEFAULT_MODEL = "embedded:qwen2.5-coder-1.5b"  # the reader of the committed ledgers and tables
DEV_QUESTIONS = 30  # each dataset's first 30 questions are where QA settings are chosen (issue 46)


def split_questions(questions: list, split: str) -> list:
    return {"dev": questions[:DEV_QUESTIONS], "test": questions[DEV_QUESTIONS:], "all": questions}[split]


def difference(mine: list[float], theirs: list[float]) -> str:
    """The mean difference of paired per-question scores, with its bootstrap interval, as a table shows it."""
    low, high = mean_difference_interval(mine, theirs)
    return f"{(sum(mine) - sum(theirs)) / len(mine):+.3f} ({low:+.3f} to {high:+.3f})"


def split_note(split: str) -> str:
    """How a table's title names the split."""
    return {
        "all": "",
        "dev": f", dev split: the first {DEV_QUESTIONS}",
        "test": f", test split: those after the first {DEV_QUESTIONS}",
    }[split]


def parse() -> tuple[argparse.Namespace, str]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--datasets",
        default="hotpotqa:100,migres-2wikimultihopqa:100,musique:100",
        help="name:questions, comma-separated",
    )
    parser.add_argument("--configs", default=",".join(CONFIGS), type=lambda s: s.split(","))
    parser.add_argument("--model", default=DEFAULT_MODEL, help="the reader")
    parser.add_argument(
        "--index-model",
        help="the model whose recorded openie answers build the graphs "
        "(default: --model; the committed ledgers are the embedded 1.5B model's)",
    )
    parser.add_argument("--index-system", default="openie")
    parser.add_argument(
        "--reader",
        default="short",
        choices=("short", "notes"),
        help="how the model answers from the sources: at once (ask's default), or notes first",
    )
    parser.add_argument(
        "--split",
        default="all",
        choices=("dev", "test", "all"),
        help=f"dev: each dataset's first {DEV_QUESTIONS} questions (settings are chosen there); "
        "test: the rest (the numbers claimed)",
    )
    parser.add_argument("--index-only", action="store_true", help="build the graphs, ask nothing")
    parser.add_argument(
        "--retrieval-only",
        action="store_true",
        help="supporting-passage recall of each configuration, with no model call (after the index)",
    )
    parser.add_argument("--no-cache", action="store_true", help="call the model every time (for honest seconds)")
    args = parser.parse_args()
    if unknown := [c for c in args.configs if c not in CONFIGS]:
        parser.error(f"unknown configurations {unknown}; choose from {list(CONFIGS)}")
    return args, "python -m graphwright.bench.qa " + " ".join(sys.argv[1:])


async def index(dataset: str, data, llm, system_name: str) -> tuple[GraphStore, list[dict]]:
    """The dataset's passages in its store (only those not yet there are extracted); each passage's run record."""
    folder = QA_RUNS / dataset
    folder.mkdir(parents=True, exist_ok=True)
    replay = ReplayLLM(llm, LEDGER / f"qa--index-{dataset}.jsonl")
    system = make_system(system_name, replay, None)
    store = GraphStore.open(folder / "store")
    documents = [Document(id=p.id, text=p.document_text, source=p.title) for p in data.passages]
    started, total = time.perf_counter(), len(documents)
    done = 0

    def progress(doc_id: str) -> None:
        nonlocal done
        done += 1
        if done % 10 == 0 or done == total:
            print(
                f"indexed {done}/{total} passages of {dataset} ({time.perf_counter() - started:.0f} s)",
                file=sys.stderr,
            )

    await extract_batch(documents, system, store, results_path=folder / "results.jsonl", on_progress=progress)
    wanted = {p.id for p in data.passages}
    runs = [r for r in store.documents() if r["document_id"] in wanted and r["system"] == system_name]
    return store, runs


def row_name(config: str, reader: str) -> str:
    """A configuration's ledger and table row: the short reader's keep their first names; closed book has no reader."""
    return config if reader == "short" or config == "none" else f"{config}+{reader}"


def model_tag(model: str) -> str:
    """What names another reader's ledgers and tables: nothing for the default model, else ``--<model>``."""
    return "" if model == DEFAULT_MODEL else "--" + re.sub(r"[^A-Za-z0-9.]+", "-", model).strip("-")


def ledger_rows(row: str, dataset: str, model: str) -> tuple[Path, list[dict]]:
    """The ledger of ``row`` on ``dataset`` read by ``model``, and the questions it has answered."""
    path = LEDGER / f"qa--{row}-{dataset}{model_tag(model)}.json"
    if not path.is_file():
        return path, []
    ledger = json.loads(path.read_text(encoding="utf-8"))
    if ledger["model"] != model:  # never resume one model's run with another's answers
        raise SystemExit(f"{path} holds the answers of {ledger['model']}, not of {model}: move it aside")
    return path, ledger["questions"]


def make_engine(config: str, data, llm, store: GraphStore, system_name: str, reader: Reader = "short"):
    passages = [(p.id, p.title, p.text) for p in data.passages]
    return {
        "graph": lambda: GraphQA(store, llm, None, systems=[system_name], reader=reader),
        "walk": lambda: GraphQA(store, llm, None, systems=[system_name], reader=reader),
        "bm25": lambda: PassageQA(llm, passages, "bm25", reader=reader),
        "embedding": lambda: PassageQA(llm, passages, "embedding", reader=reader),
        "none": lambda: ClosedBookQA(llm),
    }[config]()


def retrieve(config: str, engine, q) -> list[Source]:
    """What the configuration hands the reader for question ``q``, found as ``ask`` finds it, with no model call."""
    if config == "graph":
        return engine.subgraph(q.question, q.pool)[1]
    if config == "walk":
        return engine.passages(q.pool).sources(q.question)
    return engine.retrieve(q.question, q.pool)


def retrieval(
    dataset: str, data, store: GraphStore, system_name: str, configs: list[str], split: str
) -> dict[str, list[dict]]:
    """Supporting-passage recall of each retrieving configuration, per question, with no model call: the
    same passages its ``ask`` run hands the reader. Kept in ``qa--retrieval-<dataset>-<split>.json``."""
    results = {}
    for config in [c for c in configs if c != "none"]:
        engine, rows = make_engine(config, data, None, store, system_name), []
        for q in data.questions:
            started = time.perf_counter()
            retrieved = retrieved_documents(retrieve(config, engine, q))
            rows.append(
                {
                    "id": q.id,
                    "support_recall": support_recall(retrieved, q.supporting),
                    "passages": len(retrieved),
                    "seconds": round(time.perf_counter() - started, 3),
                }
            )
        results[config] = rows
        print(f"retrieval {config} on {dataset}: {len(rows)} questions", file=sys.stderr)
    (LEDGER / f"qa--retrieval-{dataset}-{split}.json").write_text(
        json.dumps({"dataset": dataset, "split": split, "configs": results}, indent=1) + "\n", encoding="utf-8"
    )
    return results


def retrieval_table(dataset: str, data, results: dict[str, list[dict]], command: str, split: str) -> str:
    lines = header(
        f"Retrieval for question answering on {len(data.questions)} {dataset} questions "
        f"({data.note}{split_note(split)})",
        None,
        command,
    )
    lines += [
        f"| configuration | passages retrieved | supporting-passage recall | 95% CI | "
        f"Δ vs {REFERENCE} (95% CI) | seconds per question |",
        "|---|---|---|---|---|---|",
    ]
    reference = {r["id"]: r["support_recall"] for r in results.get(REFERENCE, [])}
    for config, rows in results.items():
        rows = [r for r in rows if r["support_recall"] is not None]
        recall = [r["support_recall"] for r in rows]
        paired = config != REFERENCE and rows and all(r["id"] in reference for r in rows)
        delta = difference(recall, [reference[r["id"]] for r in rows]) if paired else "-"
        n = max(1, len(rows))
        lines.append(
            f"| {config} | {sum(r['passages'] for r in rows) / n:.1f} | {sum(recall) / n:.3f} | "
            "[{:.3f}, {:.3f}] | ".format(*mean_interval(recall))
            + f"{delta} | "
            f"{sum(r['seconds'] for r in rows) / n:.2f} |"
        )
    lines += [
        "",
        "No model call: each configuration retrieves as its `ask` run does, so its recall here is the "
        "recall in the question-answering table on the same questions. Intervals: percentile bootstrap over "
        "questions, the difference paired on the same questions.",
    ]
    return "\n".join(lines)


async def ask(
    config: str, dataset: str, data, llm, store: GraphStore, system_name: str, reader: Reader = "short"
) -> list[dict]:
    row = row_name(config, reader)
    path, rows = ledger_rows(row, dataset, llm.name)
    done = {r["id"] for r in rows}
    engine = make_engine(config, data, llm, store, system_name, reader)
    for i, q in enumerate(data.questions, 1):
        if q.id in done:
            continue
        if config == "graph":
            result = await engine.ask(q.question, documents=q.pool)
        elif config == "walk":
            result = await engine.ask(q.question, mode="passages", documents=q.pool)
        elif config == "none":
            result = await engine.ask(q.question)
        else:
            result = await engine.ask(q.question, pool=q.pool)
        retrieved = result.documents
        rows.append(
            {
                "id": q.id,
                "answer": result.answer,
                "em": exact_match(result.answer, q.answers),
                "f1": token_f1(result.answer, q.answers),
                "support_recall": support_recall(retrieved, q.supporting),
                "supported": result.supported,
                "sources": len(result.sources),
                "passages": len(retrieved),
                "error": result.error,
                "usage": result.usage.model_dump(),
            }
        )
        path.write_text(
            json.dumps(
                {"config": row, "dataset": dataset, "model": llm.name, "questions": rows}, indent=1, ensure_ascii=False
            )
            + "\n",
            encoding="utf-8",
        )
        print(f"{row} on {dataset}: {i}/{len(data.questions)}", file=sys.stderr)
    wanted = {q.id for q in data.questions}
    return [r for r in rows if r["id"] in wanted]


def table(
    dataset: str,
    data,
    runs: list[dict],
    results: dict[str, list[dict]],
    model: str,
    command: str,
    indexer: str,
    split: str = "all",
    reference: str = REFERENCE,
) -> str:
    """``results``: rows by table row name; ``reference``: the row the F1 differences are paired against."""
    lines = header(
        f"Question answering on {len(data.questions)} {dataset} questions ({data.note}{split_note(split)})",
        model,
        command,
    )
    # the index's cost from the model's recorded answers, so a store rebuilt from the ledger reports the first run's
    answers = [row["response"]["usage"] for row in recorded(LEDGER / f"qa--index-{dataset}.jsonl")]
    calls = sum(u["llm_calls"] for u in answers)
    tokens = sum(u["prompt_tokens"] + u["completion_tokens"] for u in answers)
    seconds = sum(u["seconds"] for u in answers)
    triples, n = sum(r["triples"] or 0 for r in runs), max(1, len(runs))
    lines += [
        f"Index: {len(runs)} passages by {indexer}, {triples} facts; {calls} calls, {tokens:,} tokens, "
        f"{seconds / 3600:.2f} hours of model time ({calls / n:.2f} calls, {tokens / n:.0f} tokens and "
        f"{seconds / n:.1f} s per passage).",
        "",
    ]
    lines += [
        f"| configuration | EM | EM 95% CI | F1 | F1 95% CI | ΔF1 vs {reference} (95% CI) | passages retrieved | supporting-passage recall | "
        "answers citing a source | LLM calls | prompt tokens | completion tokens | seconds |",
        "|---|" + "---|" * 12,
    ]
    reference_f1 = {r["id"]: r["f1"] for r in results.get(reference, [])}
    for config, rows in results.items():
        if not rows:
            continue
        em, f1 = [r["em"] for r in rows], [r["f1"] for r in rows]
        interval = lambda v: "[{:.3f}, {:.3f}]".format(*mean_interval(v))  # noqa: E731
        paired = [r for r in rows if r["id"] in reference_f1]
        if config == reference or len(paired) < len(rows):
            delta = "-"
        else:
            delta = difference([r["f1"] for r in paired], [reference_f1[r["id"]] for r in paired])
        recalls = [r["support_recall"] for r in rows if r["support_recall"] is not None]
        recall = f"{sum(recalls) / len(recalls):.3f}" if config != "none" and recalls else "-"
        n = len(rows)
        usage = lambda key: sum(r["usage"][key] for r in rows) / n  # noqa: E731, B023 - used in this iteration
        lines.append(
            f"| {config} | {sum(em) / n:.3f} | {interval(em)} | {sum(f1) / n:.3f} | {interval(f1)} | {delta} | "
            f"{sum(r['passages'] for r in rows) / n:.1f} | {recall} | {sum(r['supported'] for r in rows) / n:.2f} | {usage('llm_calls'):.2f} | "
            f"{usage('prompt_tokens'):.0f} | {usage('completion_tokens'):.0f} | {usage('seconds'):.1f} |"
        )
    lines += [
        "",
        "EM and F1: SQuAD normalisation, best over the gold answer and its aliases; intervals: percentile "
        "bootstrap over questions, the difference paired on the same questions. Supporting-passage recall: the "
        "share of the gold supporting passages among the passages retrieved (for graph, the passages whose "
        "facts were retrieved). Per-question values are means.",
    ]
    return "\n".join(lines)


async def main() -> None:
    args, command = parse()
    llm = make_llm(args.model, cache=not args.no_cache)
    same = args.index_model in (None, args.model)
    index_llm = llm if same else make_llm(args.index_model, cache=not args.no_cache)  # loads only if asked
    for spec in args.datasets.split(","):
        dataset, _, count = spec.partition(":")
        data = load_qa_dataset(dataset, int(count) if count else None)
        store, runs = await index(dataset, data, index_llm, args.index_system)
        data.questions = split_questions(data.questions, args.split)
        try:
            if args.index_only:
                continue
            if args.retrieval_only:
                results = retrieval(dataset, data, store, args.index_system, args.configs, args.split)
                write_section(
                    BENCH_MD,
                    f"qa-{dataset}-{args.split}-retrieval",
                    retrieval_table(dataset, data, results, command, args.split),
                )
                continue
            results = {
                row_name(config, args.reader): await ask(
                    config, dataset, data, llm, store, args.index_system, args.reader
                )
                for config in args.configs
            }
            section = (
                f"qa-{dataset}"
                + ("" if args.split == "all" else f"-{args.split}")
                + ("" if args.reader == "short" else f"-{args.reader}")
                + model_tag(llm.name)
            )
            write_section(
                BENCH_MD,
                section,
                table(
                    dataset,
                    data,
                    runs,
                    results,
                    llm.name,
                    command,
                    args.index_system,
                    args.split,
                    row_name(REFERENCE, args.reader),
                ),
            )
            print(f"wrote the {dataset} table to {BENCH_MD}", file=sys.stderr)
        finally:
            store.close()
    await llm.aclose()
    if not same:
        await index_llm.aclose()


if __name__ == "__main__":
    asyncio.run(main())
