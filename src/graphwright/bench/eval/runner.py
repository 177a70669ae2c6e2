"""``graphwright eval run``: a system over a dataset, scored per document, resumable.

A run folder holds ``run.json`` (what was run), ``documents.jsonl`` (one line per scored document:
prediction, gold, counts, status, usage, trace id), ``traces.jsonl`` (the agent steps of each
document), ``aggregate.json`` and the reports. Rerunning into the same folder scores only the
documents it has not scored yet (and those the model could not be reached for), and the LLM cache makes
repeated calls free.

documents.jsonl is the commit point: a document's trace line is written first, then its row. A rerun
first rewrites both files to the rows it keeps (the scored documents, one line each) and their traces,
so an interrupted run, resumed, leaves the same files as an uninterrupted one.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from graphwright.bench.data.gold import GoldDocument
from graphwright.bench.eval.datasets import EvalDataset
from graphwright.bench.eval.ee_metrics import EEScorer, gold_events, predicted_events
from graphwright.bench.eval.metrics import (
    NO_HIERARCHY,
    Counts,
    PropertyHierarchy,
    Scorer,
    counts_from_dict,
    macro,
    micro,
)
from graphwright.bench.eval.ner_metrics import NERScorer, predicted_mentions
from graphwright.bench.eval.re_metrics import REScorer
from graphwright.chunking import CHUNK_CHARS, MAX_CHARS
from graphwright.errors import UserError
from graphwright.jsonl import append_jsonl, keep_rows, last_per_key, read_jsonl
from graphwright.kb.protocol import KnowledgeBase
from graphwright.model import Document, ExtractionResult
from graphwright.paths import write_atomic
from graphwright.pipeline import in_window, run_document
from graphwright.systems.base import System

RUN_FILE, DOCS_FILE, TRACES_FILE, AGGREGATE_FILE = "run.json", "documents.jsonl", "traces.jsonl", "aggregate.json"


@dataclass
class RunInfo:
    """What a run folder holds; a resumed run must match it."""

    system: str
    dataset: str
    model: str
    kb: str
    limit: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    started: str = ""

    def same_run(self, other: RunInfo) -> bool:
        keys = ("system", "dataset", "model", "kb", "settings")
        return all(getattr(self, k) == getattr(other, k) for k in keys)


async def run_eval(
    system: System,
    dataset: EvalDataset,
    kb: KnowledgeBase | None,
    info: RunInfo,
    out_dir: Path,
    *,
    chunk_chars: int = CHUNK_CHARS,
    concurrency: int = 1,
    on_progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Score ``system`` on every not-yet-scored document of ``dataset``; returns the aggregate.
    ``concurrency`` documents run at once (the Ray engine's workers); each one's trace and row are
    written together, trace first, so a crash between them is mended as before. ``on_progress(id)`` follows
    each document scored by this call."""
    out_dir.mkdir(parents=True, exist_ok=True)
    _claim(out_dir, info)
    done = _keep_scored(out_dir)
    scorer = make_scorer(dataset, kb)
    if kb is not None and hasattr(kb, "warm_up"):
        kb.warm_up()  # index building must not count as the first document's seconds

    async def score(doc) -> None:
        started = time.perf_counter()
        result = await run_document(
            system, Document(id=doc.id, text=doc.text), chunk_chars=chunk_chars, max_chars=max(len(doc.text), MAX_CHARS)
        )
        seconds = time.perf_counter() - started
        append_jsonl(
            out_dir / TRACES_FILE,
            {
                "trace_id": doc.id,
                "document_id": doc.id,
                "trace": [s.model_dump(mode="json") for s in result.trace],
                "output": result.output,
                "warnings": result.warnings,
                "extra": result.extra,
            },
        )  # e.g. agentre's trajectories, read by `train sft-export`
        append_jsonl(out_dir / DOCS_FILE, document_row(doc, result, scorer, seconds))
        if on_progress:
            on_progress(doc.id)

    def to_score():
        # a document scored before is skipped without a word: ``on_progress`` means "scored now", and the
        # ledger stamps what it reports with the commit at hand
        yield from (doc for doc in dataset.documents if doc.id not in done)

    await in_window(to_score(), concurrency, score)  # the scheduler `extract` uses
    order = {d.id: i for i, d in enumerate(dataset.documents)}  # the dataset's order, whatever finished first
    rows = sorted((r for r in read_documents(out_dir) if r["id"] in order), key=lambda r: order[r["id"]])
    aggregate = aggregate_rows(rows, info, scorer.categories)
    write_atomic(out_dir / AGGREGATE_FILE, json.dumps(aggregate, indent=2))
    return aggregate


class DocumentScorer(Protocol):
    @property
    def categories(self) -> tuple[str, ...]: ...  # read-only, so a scorer's fixed-length tuple fits

    def score_document(self, result: ExtractionResult, doc: GoldDocument) -> dict[str, Counts]: ...


def make_scorer(dataset: EvalDataset, kb: KnowledgeBase | None) -> DocumentScorer:
    """The metrics of the dataset's task: closed IE with the KB's property hierarchy, strict RE, NER or EE."""
    if dataset.task == "re":
        return REScorer()
    if dataset.task == "ner":
        return NERScorer()
    if dataset.task == "ee":
        return EEScorer()
    hierarchy = PropertyHierarchy.from_kb(kb) if kb is not None else NO_HIERARCHY  # --kb none: exact properties
    return Scorer(hierarchy, match_names=dataset.match_names, kb_has=getattr(kb, "contains", None))


def document_row(doc: GoldDocument, result: ExtractionResult, scorer: DocumentScorer, seconds: float) -> dict[str, Any]:
    counts = scorer.score_document(result, doc)
    return {
        "id": doc.id,
        "status": result.status,
        "reason": result.reason,
        **({"retryable": True} if result.retryable else {}),
        "prediction": [_triple_row(t) for t in result.triples],
        "gold": [t.model_dump(mode="json", exclude_none=True, exclude_defaults=True) for t in doc.triples],
        "counts": {c: counts[c].as_dict() for c in scorer.categories},
        "usage": {**result.usage.model_dump(mode="json"), "wall_seconds": round(seconds, 2)},
        "usage_by_agent": {agent: u.model_dump(mode="json") for agent, u in result.usage_by_agent.items()},
        "warnings": result.warnings,
        "trace_id": doc.id,
        **(_entity_rows(doc, result) if doc.entities or result.entities else {}),
        **(_event_rows(doc, result) if doc.events or result.events else {}),
        # cooperkgc's answers after each round (for the score after each round), agentic-kgr's tool statistics
        **{k: result.extra[k] for k in ROW_EXTRAS if k in result.extra},
    }


ROW_EXTRAS = ("rounds", "settled_after", "tools")


def _entity_rows(doc: GoldDocument, result: ExtractionResult) -> dict[str, Any]:
    """NER runs: the predicted and gold mentions with their text, for reading a run's mistakes."""

    def rows(mentions):
        return [{"start": s, "end": e, "type": t, "surface": doc.text[s:e]} for s, e, t in sorted(mentions)]

    return {
        "entities": rows(predicted_mentions(result)),
        "gold_entities": rows((g.start, g.end, g.type) for g in doc.entities),
    }


def _event_rows(doc: GoldDocument, result: ExtractionResult) -> dict[str, Any]:
    """EE runs: the predicted and gold events (type and role names, trigger and argument texts)."""
    return {
        "events": [e.as_row() for e in predicted_events(result)],
        "gold_events": [e.as_row() for e in gold_events(doc)],
    }


def _triple_row(t) -> dict[str, Any]:
    def term(x):
        return {
            k: v for k, v in {"value": x.value, "kind": x.kind, "surface": x.surface, "label": x.label}.items() if v
        }

    return {"subject": term(t.subject), "predicate": term(t.predicate), "object": term(t.object)}


def aggregate_rows(rows: list[dict[str, Any]], info: RunInfo, categories: tuple[str, ...]) -> dict[str, Any]:
    per_doc = [counts_from_dict(r["counts"]) for r in rows]
    failed = [r["status"] != "ok" for r in rows]

    def mean(key: str) -> float:
        values = [r["usage"].get(key, 0) for r in rows]
        return round(statistics.mean(values), 2) if values else 0.0

    return {
        "run": asdict(info),
        "documents": len(rows),
        "failed": sum(failed),
        "error_rate": round(sum(failed) / len(rows), 4) if rows else 0.0,
        "categories": list(categories),
        "macro": {c: s.as_dict() for c, s in macro(per_doc, failed, categories).items()},
        "micro": {c: s.as_dict() for c, s in micro(per_doc, categories).items()},
        "per_document": {
            "llm_calls": mean("llm_calls"),
            "prompt_tokens": mean("prompt_tokens"),
            "completion_tokens": mean("completion_tokens"),
            "cached_calls": mean("cached_calls"),
            "seconds": mean("wall_seconds"),
            "cached_prompt_tokens": mean("cached_prompt_tokens"),
            "prompt_seconds": mean("prompt_seconds"),
            "generation_seconds": mean("generation_seconds"),
            "outside_model_seconds": outside_model_seconds(rows),
        },
        "per_agent": per_agent(rows),
    }


def outside_model_seconds(rows: list[dict[str, Any]]) -> float:
    """Mean wall seconds per document not spent by the model reading or generating (KB searches,
    embeddings, the store, the agents' own code), over the documents whose server reported its time."""
    timed = [r["usage"] for r in rows if r["usage"].get("prompt_seconds", 0) + r["usage"].get("generation_seconds", 0)]
    outside = [max(0.0, u.get("wall_seconds", 0) - u["prompt_seconds"] - u["generation_seconds"]) for u in timed]
    return round(statistics.mean(outside), 2) if outside else 0.0


def per_agent(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Each agent's cost, as a mean over all the documents (an agent a document never called costs it 0),
    and the share of its prompt tokens that the server's prompt cache served."""
    totals: dict[str, dict[str, float]] = {}
    for row in rows:
        for agent, usage in (row.get("usage_by_agent") or {}).items():
            into = totals.setdefault(agent, {})
            for key, value in usage.items():
                into[key] = into.get(key, 0) + value
    out = {}
    for agent, total in sorted(totals.items()):
        out[agent] = {key: round(value / len(rows), 2) for key, value in total.items()}
        out[agent]["prompt_cache_hit"] = (
            round(total.get("cached_prompt_tokens", 0) / total["prompt_tokens"], 3)
            if total.get("prompt_tokens")
            else 0.0
        )
    return out


def read_documents(out_dir: Path) -> list[dict[str, Any]]:
    """Scored documents of a run folder, one row each; a line cut short by an interruption is skipped
    (rescored)."""
    return last_per_key(read_jsonl(out_dir / DOCS_FILE), "id")


def load_aggregate(run_dir: Path) -> dict[str, Any]:
    path = Path(run_dir) / AGGREGATE_FILE
    if not path.is_file():
        raise UserError(f"{run_dir} is not a finished eval run: {AGGREGATE_FILE} is missing")
    return json.loads(path.read_text(encoding="utf-8"))


def _claim(out_dir: Path, info: RunInfo) -> None:
    """Write run.json, or check that a resumed folder belongs to the same run."""
    path = out_dir / RUN_FILE
    if path.is_file():
        previous = RunInfo(**json.loads(path.read_text(encoding="utf-8")))
        if not previous.same_run(info):
            raise UserError(
                f"{out_dir} holds another run ({previous.system} on {previous.dataset} with "
                f"{previous.model}, kb {previous.kb}); choose another --out folder"
            )
        info.started = previous.started
        if info.limit is None or (previous.limit is not None and info.limit > previous.limit):
            write_atomic(path, json.dumps(asdict(info), indent=2))  # the run was extended
        return
    info.started = datetime.now(UTC).isoformat(timespec="seconds")
    write_atomic(path, json.dumps(asdict(info), indent=2))


def _keep_scored(out_dir: Path) -> set[str]:
    """Keep one row per scored document and the trace of each; drop half-written lines, traces whose row
    was never written and rows of documents the model could not be reached for (they are redone: the
    system's own failures are results, the server's are not). Returns the ids kept."""
    kept = keep_rows(out_dir / DOCS_FILE, lambda rows: [r for r in last_per_key(rows, "id") if not r.get("retryable")])
    done = {row["id"] for row in kept}
    keep_rows(
        out_dir / TRACES_FILE, lambda traces: [t for t in last_per_key(traces, "trace_id") if t.get("trace_id") in done]
    )
    return done


def run_sync(*args, **kwargs) -> dict[str, Any]:
    return asyncio.run(run_eval(*args, **kwargs))
