"""The benchmark ledger: the per-document scores behind every table, kept in the repository.

A bench run folder (runs/bench/...) holds predictions, gold data and traces, and is not committed, so a
new machine would start the hours of model calls again. The ledger (docs/bench-ledger/) keeps what the
tables are computed from and nothing from the datasets: the run settings and, for each scored document,
its id, status, reason, counts and usage. The bench scripts restore a missing run folder from it before
resuming the run, and save it after each document. It also lets a reader recompute any table.

Memory that a benchmark warms up before its runs (agentre) is rebuilt on a new machine from the model's
answers of the first warm-up, kept here too (``ReplayLLM``): the answers, not the prompts that hold the
train sentences.
"""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path

from graphwright.bench import ROOT
from graphwright.bench.eval.runner import DOCS_FILE, RUN_FILE, read_documents
from graphwright.jsonl import append_jsonl, read_jsonl
from graphwright.llm.base import ChatResponse, adapter_argument
from graphwright.llm.wrappers import WrapperLLM, request_key

LEDGER = ROOT / "docs" / "bench-ledger"
RUNS = ROOT / "runs" / "bench"
# rounds: cooperkgc's per-round answers; tools: agentic-kgr's steps and tool calls
KEPT = ("id", "status", "reason", "counts", "usage", "rounds", "settled_after", "tools")
COMMITS_FILE = "commits.json"  # document id -> the commit that scored it (ProducedBy)


def ledger_file(folder: Path) -> Path:
    """runs/bench/re/agentre-conll04 -> docs/bench-ledger/re--agentre-conll04.json"""
    return LEDGER / (str(folder.relative_to(RUNS)).replace("/", "--") + ".json")


def save(folder: Path, finished: str | None = None) -> None:
    """The run folder's scored documents into its ledger, each with the commit whose code scored it:
    ``finished``, the document just scored, by the code at hand (earlier ones keep what they recorded)."""
    if not (folder / RUN_FILE).is_file():
        return
    run = json.loads((folder / RUN_FILE).read_text(encoding="utf-8"))
    documents = read_documents(folder)
    produced = ProducedBy(folder / COMMITS_FILE)
    if finished is not None:
        produced.record([finished])
    rows = [
        {
            **{k: row[k] for k in KEPT if k in row},
            "produced_by": produced.commits.get(row["id"], row.get("produced_by", "not recorded")),
        }
        for row in documents
    ]
    LEDGER.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"run": run, "documents": rows}, indent=1, ensure_ascii=False)
    ledger_file(folder).write_text(text + "\n", encoding="utf-8")


def restore(folder: Path) -> int:
    """Seed an absent run folder with the ledger's documents (the runner then skips them); returns how many."""
    path = ledger_file(folder)
    if (folder / DOCS_FILE).is_file() or not path.is_file():
        return 0
    saved = json.loads(path.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / RUN_FILE).write_text(json.dumps(saved["run"], indent=2), encoding="utf-8")
    for row in saved["documents"]:
        append_jsonl(folder / DOCS_FILE, {**row, "restored_from_ledger": True})
    return len(saved["documents"])


def recorded(path: Path) -> list[dict]:
    """A ledger's rows: those of its finished part, compressed beside it (``<name>.gz``), then its own."""
    return read_jsonl(path.with_name(path.name + ".gz")) + read_jsonl(path)


class ReplayLLM(WrapperLLM):
    """Answers a call it has seen with the model's recorded answer, and records new ones in ``path``: one
    JSON line per call, keyed by the hash of the request (model, messages, schema, parameters).
    ``replayed_seconds`` sums the model time the replayed answers took when they were first made."""

    def __init__(self, inner, path: Path):
        super().__init__(inner)
        self.path = path
        self.answers = {row["key"]: ChatResponse.model_validate(row["response"]) for row in recorded(self.path)}
        self.replayed_seconds = 0.0

    async def chat(
        self,
        messages,
        *,
        json_schema=None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        adapter: str | None = None,
    ):
        key = request_key(
            self.inner, messages, json_schema, temperature=temperature, max_tokens=max_tokens, adapter=adapter
        )
        if key in self.answers:
            hit = self.answers[key]
            self.replayed_seconds += hit.usage.seconds
            return hit.model_copy(update={"cached": True, "usage": hit.usage.model_copy(update={"cached_calls": 1})})
        response = await self.inner.chat(
            messages,
            json_schema=json_schema,
            temperature=temperature,
            max_tokens=max_tokens,
            **adapter_argument(adapter),
        )
        self.answers[key] = response
        self.path.parent.mkdir(parents=True, exist_ok=True)
        append_jsonl(self.path, {"key": key, "response": response.model_dump(mode="json")})
        return response


class ReplayedTime:
    """A system whose documents' seconds include the recorded model time of the answers ``replay`` gave
    back (documents run one at a time), so a configuration's cost reads as if it had made every call."""

    def __init__(self, system, replay: ReplayLLM):
        self.system, self.replay, self.name = system, replay, system.name

    async def run(self, document):
        before = self.replay.replayed_seconds
        result = await self.system.run(document)
        seconds = result.usage.seconds + self.replay.replayed_seconds - before
        result.usage = result.usage.model_copy(update={"seconds": seconds})
        return result


async def results_resumed(system, documents: list, path: Path, label: str) -> list:
    """One ExtractionResult per document, in order: those already in ``path`` (JSON lines) read back,
    the others run now and appended as each ends, so an interrupted benchmark goes on where it stopped."""
    import sys

    from graphwright.model import ExtractionResult

    done = {r["document_id"]: ExtractionResult.model_validate(r) for r in read_jsonl(path)} if path.is_file() else {}
    path.parent.mkdir(parents=True, exist_ok=True)
    for i, document in enumerate(documents):
        if document.id not in done:
            done[document.id] = await system.run(document)
            append_jsonl(path, done[document.id].model_dump(mode="json"))
        print(f"{label}: {i + 1}/{len(documents)}", file=sys.stderr, flush=True)
    return [done[d.id] for d in documents]


@functools.cache
def commit() -> str:
    """The commit of the code this process runs, "+changes" when src/ differed from it: asked once, at the
    first call, since the code a process has loaded does not change when src/ is edited under it."""
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "src"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return head + ("+changes" if dirty else "")


class ProducedBy:
    """Document id -> the commit whose code produced a run file's output for it, kept beside the run file:
    a resumed run may span commits, and a run scored again by later code still says what produced it."""

    def __init__(self, path: Path):
        self.path = path
        self.commits: dict[str, str] = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}

    def record(self, document_ids) -> None:
        """The outputs not yet recorded were produced now, by the code at hand."""
        now = commit()
        for document_id in document_ids:
            self.commits.setdefault(document_id, now)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.commits, indent=1) + "\n", encoding="utf-8")

    def summary(self) -> str:
        return ", ".join(sorted(set(self.commits.values()))) or "unknown"
