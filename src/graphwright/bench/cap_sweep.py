"""What a smaller output cap would cost cie.single, without running the model again (issue 23).

With greedy decoding the answer under a cap of N tokens is the first N tokens of the uncapped answer, so
the model's recorded answers (docs/bench-ledger/linking--answers-cie.single-*.jsonl, made by
`make bench-linking`) are cut at N tokens and the system finishes each document from the cut answer
(keeping its complete triples, as it does with a real cut-off). A token is approximated by the answer's
own characters per token (its text length over its completion tokens). A request the ledger lacks
(a retry after a cut answer with no complete triple) is answered with no triples and counted.

    python -m graphwright.bench.cap_sweep --caps 128,256,384,512,768,1024,0 --docs rebel-sample:20,fewrel:11   # 0: input-sized
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from typing import Any

from graphwright.bench.eval.datasets import load_dataset
from graphwright.bench.harness import slug
from graphwright.bench.ledger import LEDGER
from graphwright.bench.linking import scored
from graphwright.jsonl import read_jsonl
from graphwright.kb import open_kb
from graphwright.linking import LinkJudge, resolve
from graphwright.llm import LLM, ChatResponse
from graphwright.llm.base import Message
from graphwright.llm.wrappers import request_key
from graphwright.model import Document
from graphwright.papers.cie.common.config import input_sized_cap
from graphwright.systems.base import make_system

MODEL = "embedded:qwen2.5-coder-1.5b"


class CutReplay(LLM):
    """The recorded answer of each request, cut at ``cap`` tokens; no answer at all -> no triples."""

    def __init__(self, answers: dict[str, ChatResponse], cap: int):
        self.name, self.answers, self.cap = MODEL, answers, cap
        self.generated: list[int] = []
        self.missing = 0

    async def chat(
        self,
        messages: list[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        adapter: str | None = None,
    ) -> ChatResponse:
        key = request_key(self, messages, json_schema, temperature=temperature, max_tokens=max_tokens, adapter=adapter)
        answer = self.answers.get(key)
        if answer is None:
            self.missing += 1
            return ChatResponse(text='{"triples": []}', model=self.name)
        tokens = answer.usage.completion_tokens or 1
        if tokens <= self.cap:
            self.generated.append(tokens)
            return answer
        self.generated.append(self.cap)
        cut = answer.text[: int(len(answer.text) * self.cap / tokens)]
        return answer.model_copy(
            update={
                "text": cut,
                "finish_reason": "length",
                "usage": answer.usage.model_copy(update={"completion_tokens": self.cap}),
            }
        )


async def sweep(dataset: str, limit: int, caps: list[int], kb, judge) -> list[str]:
    gold = load_dataset(dataset, limit).documents
    docs = [Document(id=d.id, text=d.text) for d in gold]
    name = f"cie.single-{dataset}-{slug(MODEL).replace(':', '_')}"
    answers = {
        row["key"]: ChatResponse.model_validate(row["response"])
        for row in read_jsonl(LEDGER / f"linking--answers-{name}.jsonl")
    }
    rows = []
    for cap in caps:
        llm = CutReplay(answers, cap)
        # the answers were recorded under the fixed 1,024-token budget; the cuts are made here
        system = make_system("cie.single", llm, kb, {"linking": "closed", "cap_to_input": False})
        results = []
        for doc in docs:
            llm.cap = cap or input_sized_cap(doc.text, 1024)
            results.append(resolve(await system.run(doc), doc, judge))
        _, triples = scored(results, gold, kb)
        kept = sum(len(r.triples) for r in results)
        rows.append(
            f"| {dataset} ({len(docs)}) | {cap or 'as the input'} | {statistics.mean(llm.generated):.0f} | {sum(llm.generated):,} | "
            f"{kept} | {triples.precision:.3f} | {triples.recall:.3f} | {triples.f1:.3f} | {llm.missing} |"
        )
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--caps", default="128,256,384,512,768,1024")
    parser.add_argument("--docs", default="rebel-sample:20,fewrel:11")
    args = parser.parse_args()
    caps = [int(c) for c in args.caps.split(",")]
    kb = open_kb("default")
    judge = LinkJudge(kb)
    lines = [
        "| data | cap (tokens) | generated per call | generated in all | triples kept | triple P | triple R | "
        "triple F1 | calls not in the ledger |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for spec in args.docs.split(","):
        dataset, _, limit = spec.partition(":")
        lines += asyncio.run(sweep(dataset, int(limit), caps, kb, judge))
    print("\n".join(lines))  # for docs/BENCHMARKS.md


if __name__ == "__main__":
    main()
