"""`make bench-adapter`: `facts` with its trained adapter against the untuned model (issue 60), on Re-DocRED.

Two uses, each a table in docs/BENCHMARKS.md:
- ``curve``: the adapters a training run kept at its milestones (``<run>/adapter-doc<N>``, converted to GGUF
  beside it), each on the dev slice of Re-DocRED dev that training never sees (graphwright.bench.data.facts_training),
  with the untuned model on the same documents. This is where the rank, the data and the stopping point are
  chosen.
- ``test``: one adapter file against the untuned model on the first documents of Re-DocRED test, end to end
  (no gold entities): micro F1 of the triples, a subject or object matching a gold entity by any of its
  mention names (AutoRE's scoring; both directions of an inverse pair are gold, and the adapter writes one).

Every configuration runs the same documents with the same model loaded once, the adapters chosen per request;
runs resume from runs/bench/adapter/ and their per-document counts go to the ledger (docs/bench-ledger/).
Tokens, model seconds and model seconds per 100 words are in the table beside F1.

    python -m graphwright.bench.adapter curve --docs 20
    python -m graphwright.bench.adapter test --adapter src/graphwright/llm/adapters/<file>.gguf --docs 200
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.eval.datasets import EvalDataset, load_dataset, re_docred
from graphwright.bench.eval.metrics import Counts, counts_from_dict
from graphwright.bench.eval.report import f1_uncertainty
from graphwright.bench.harness import BENCH_MD, header, run_config, slug
from graphwright.bench.ledger import RUNS, ReplayLLM
from graphwright.kb import open_kb
from graphwright.llm import make_llm

ADAPTER_RUNS = RUNS / "adapter"
UNTUNED = "untuned"


def dev_slice(docs: int) -> EvalDataset:
    """The first ``docs`` of the Re-DocRED dev documents that training leaves out, in their fixed order."""
    from graphwright.bench.data.facts_training import DEV_DOCUMENTS, docred_order

    data = re_docred(split="dev")
    held_out = [f"dev-{i}" for i in docred_order(len(data.documents))[-DEV_DOCUMENTS:]][:docs]
    by_id = {d.id: d for d in data.documents}
    return EvalDataset("re-docred-dev-slice", [by_id[i] for i in held_out], kb=data.kb, note=data.note)


def milestone_adapters(run: Path) -> dict[str, Path]:
    """The run's milestone adapters as GGUF files, converted once: ``doc100`` -> ``<run>/adapter-doc100.gguf``."""
    from graphwright.train.gguf_adapter import convert

    found = {}
    for folder in run.glob("adapter-doc*"):
        if folder.is_dir() and not folder.with_suffix(".gguf").is_file():
            convert(folder, folder.with_suffix(".gguf"))
    # a run's last checkpoint exported by hand (`train export-adapter <run> --out <run>/adapter-doc<N>.gguf`)
    # is a point of the curve too
    for gguf in sorted(run.glob("adapter-doc*.gguf"), key=lambda p: int(p.stem.removeprefix("adapter-doc"))):
        found[gguf.stem.removeprefix("adapter-")] = gguf
    return found


def table(results, model: str, command: str, title: str, words: dict[str, int]) -> str:
    lines = header(title, model, command)
    lines += [
        "| configuration | documents | triple P | triple R | triple F1 | ΔF1 vs untuned (95%) | facts written | "
        "prompt tokens / doc | completion tokens / doc | model s / doc | model s / 100 words | failed |",
        "|---|" + "---|" * 11,
    ]
    cells = f1_uncertainty([rows for _, _, rows in results], "triples", 0)
    for (name, _, rows), (_, difference) in zip(results, cells):
        counts = sum((counts_from_dict(r["counts"])["triples"] for r in rows), Counts())
        usage = [r["usage"] for r in rows]
        n = len(rows) or 1
        model_s = sum(u.get("prompt_seconds", 0) + u.get("generation_seconds", 0) for u in usage)
        hundreds = sum(words[r["id"]] for r in rows) / 100 or 1
        lines.append(
            f"| {name} | {len(rows)} | {counts.precision:.3f} | {counts.recall:.3f} | {counts.f1:.3f} | "
            f"{difference} | {counts.predicted} | {sum(u.get('prompt_tokens', 0) for u in usage) / n:,.0f} | "
            f"{sum(u.get('completion_tokens', 0) for u in usage) / n:,.0f} | {model_s / n:.1f} | "
            f"{model_s / hundreds:.1f} | {sum(r['status'] != 'ok' for r in rows)} |"
        )
    lines += [
        "",
        "Triples match when the property is the gold one and subject and object each match a gold entity "
        "by any of its mention names (no gold entities are given). ΔF1: paired 95% bootstrap interval over "
        "the documents.",
    ]
    return "\n".join(lines)


async def run(args) -> None:
    if args.use == "curve":
        adapters = milestone_adapters(args.run)
        if not adapters and args.configs != [UNTUNED]:
            sys.exit(
                f"{args.run} holds no milestone adapters (adapter-doc<N>) yet; --configs untuned runs the "
                "untuned model alone"
            )
        data, section = dev_slice(args.docs), "adapter-curve"
        title = f"facts adapter: learning curve on the {len(data.documents)} held-out Re-DocRED dev documents"
    else:
        adapters = {"facts": args.adapter}
        data, section = load_dataset("re-docred", limit=args.docs), "adapter-redocred-test"
        title = f"facts with its adapter against the untuned model: the first {args.docs} Re-DocRED test documents"
    llm = make_llm(args.model, cache=not args.no_cache, adapters=adapters, threads=args.threads)
    kb = open_kb(data.kb)
    # the facts sentences state in passing are read by rules written on bench-facts dev: with the adapter they
    # may add nothing but their errors, so each adapter also runs without them (on the same answers, replayed)
    configs: dict[str, dict[str, Any]] = {UNTUNED: {"adapter": "none"}}  # name -> the system's settings
    for name in adapters:
        configs |= {
            f"tuned ({name})": {"adapter": name},
            f"tuned ({name}), no in-passing rules": {"adapter": name, "in_passing": False},
        }
    if args.configs:
        configs = {
            name: settings
            for name, settings in configs.items()
            if name in args.configs or any(name.startswith(f"tuned ({c})") for c in args.configs)
        }
    answers = ReplayLLM(llm, ADAPTER_RUNS / f"answers-{data.name}.jsonl")  # keyed by adapter identity
    # the configurations take turns, ``--step`` documents at a time, so a run cut short (they last hours) still
    # compares them on the same documents, and a slower stretch of the machine falls on all of them
    ends = [*range(args.step, len(data.documents), args.step), len(data.documents)]
    for end in ends:
        prefix = replace(data, documents=data.documents[:end])
        results = []
        for name, settings in configs.items():
            identity = llm.adapters.get(settings["adapter"], "none")
            folder = ADAPTER_RUNS / f"{slug(name)}-{identity.replace('@', '-')}-{data.name}"
            agg, rows = await run_config(
                f"{name} on {data.name}", "facts", settings, prefix, kb, llm, folder, end, replay=answers
            )
            results.append((f"{name}: {identity}" if name != UNTUNED else name, agg, rows))
    await llm.aclose()
    words = {d.id: len(d.text.split()) for d in data.documents}
    write_section(BENCH_MD, section, table(results, llm.name, args.command, title, words))
    print(f"wrote the {section} table to {BENCH_MD}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("use", choices=("curve", "test"))
    parser.add_argument(
        "--run", type=Path, default=None, help="curve: the training run (default: `graphwright train facts`' own)"
    )
    parser.add_argument("--adapter", type=Path, help="test: the adapter file (GGUF)")
    parser.add_argument("--docs", type=int, default=20)
    parser.add_argument("--step", type=int, default=10, help="documents each configuration runs before the next")
    parser.add_argument("--configs", type=lambda s: s.split(","), default=None, help="only these configurations")
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads of the model")
    parser.add_argument("--no-cache", action="store_true", help="call the model every time (for honest seconds)")
    args = parser.parse_args()
    if args.run is None:
        from graphwright.train.adapter import train_folder

        args.run = train_folder() / "facts-adapter"
    if args.use == "test" and (args.adapter is None or not args.adapter.is_file()):
        parser.error("test needs --adapter <file.gguf>")
    args.command = "python -m graphwright.bench.adapter " + " ".join(sys.argv[1:])
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
