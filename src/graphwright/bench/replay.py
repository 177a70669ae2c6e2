"""`make bench-replay`: the headline runs scored again from their recorded answers, with no model.

Every headline ledger (python -m graphwright.bench.headline) keeps the model's answers beside the scores. This
runs each system over the same items with an LLM that can only give those answers back, and compares
each item's counts with the ledger's: a refactor that changes what a system asks or what it makes of an
answer shows up as a differing item (a request never recorded fails the item). Exit status 1 when any
item differs. Systems are not run in full: `--items N` replays the first N items of each run.

    python -m graphwright.bench.replay --items 20
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from graphwright.bench.eval.runner import RunInfo, read_documents, run_eval
from graphwright.bench.eval.splits import load_split
from graphwright.bench.headline import COMPARISONS, ledger_rows
from graphwright.bench.ledger import LEDGER, ReplayLLM
from graphwright.errors import DataNotFoundError, LLMError
from graphwright.kb import open_kb
from graphwright.llm.base import LLM
from graphwright.systems.base import make_system

MODEL = "embedded:qwen2.5-coder-1.5b"


class RecordedOnly(LLM):
    """A model that was never asked: every request the recording lacks fails the item it came from."""

    def __init__(self, name: str):
        self.name = name

    async def chat(
        self,
        messages,
        *,
        json_schema=None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        adapter: str | None = None,
    ):
        raise LLMError("no recorded answer for this request: the system asked something the ledger's run did not")


async def replay(system: str, dataset: str, settings: dict, split: str, items: int, model: str) -> list[str]:
    """The items whose replayed counts differ from the ledger's, each with both counts."""
    recorded = ledger_rows(system, dataset, split)[:items]
    if not recorded:
        return []
    try:
        data = load_split(dataset, split, len(recorded))
    except DataNotFoundError as e:
        print(f"{system} on {dataset}: skipped, {e}", file=sys.stderr)
        return []
    kb = open_kb(data.kb) if data.kb != "none" else None
    answers = ReplayLLM(RecordedOnly(model), LEDGER / f"headline--answers-{dataset}-{split}.jsonl")
    settings = {**data.system_settings, **settings}
    with tempfile.TemporaryDirectory() as tmp:
        info = RunInfo(
            system=system, dataset=data.name, model=model, kb=data.kb, limit=len(recorded), settings=settings
        )
        await run_eval(make_system(system, answers, kb, settings or None), data, kb, info, Path(tmp))
        now = {row["id"]: row for row in read_documents(Path(tmp))}
    differ = []
    for row in recorded:
        again = now.get(row["id"], {})
        if again.get("counts") != row["counts"]:
            differ.append(
                f"{system} on {dataset} {row['id']}: ledger {row['counts']}, replayed "
                f"{again.get('counts')} {again.get('reason') or ''}".rstrip()
            )
    print(
        f"{system} on {dataset} {split}: {len(recorded) - len(differ)} of {len(recorded)} items replay the "
        "ledger's counts",
        file=sys.stderr,
        flush=True,
    )
    return differ


async def main_async(args) -> int:
    differ = []
    for c in COMPARISONS:
        if args.datasets and c.dataset not in args.datasets:
            continue
        for system in (c.single, c.system):
            differ += await replay(system, c.dataset, c.settings, args.split, args.items, args.model)
    for line in differ:
        print("  differs: " + line, file=sys.stderr)
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test", choices=("dev", "test"))
    parser.add_argument("--items", type=int, default=20, help="replay the first N items of each run")
    parser.add_argument("--datasets", default=None, type=lambda s: s.split(","), help="only these comparisons")
    parser.add_argument("--model", default=MODEL, help="the model the ledgers recorded (its answers' cache key)")
    sys.exit(asyncio.run(main_async(parser.parse_args())))


if __name__ == "__main__":
    main()
