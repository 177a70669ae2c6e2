"""The benchmark ledger: the per-document scores behind every table, kept in the repository.

A bench run folder (runs/bench/...) holds predictions, gold data and traces, and is not committed, so a
new machine would start the hours of model calls again. The ledger (docs/bench-ledger/) keeps what the
tables are computed from and nothing from the datasets: the run settings and, for each scored document,
its id, status, reason, counts and usage. The bench scripts restore a missing run folder from it before
resuming the run, and save it after each document. It also lets a reader recompute any table.
"""

from __future__ import annotations

import json
from pathlib import Path

from graphwright.eval.runner import DOCS_FILE, RUN_FILE, read_documents
from graphwright.jsonl import append_jsonl

ROOT = Path(__file__).resolve().parent.parent
LEDGER = ROOT / "docs" / "bench-ledger"
RUNS = ROOT / "runs" / "bench"
KEPT = ("id", "status", "reason", "counts", "usage")


def ledger_file(folder: Path) -> Path:
    """runs/bench/re/agentre-conll04 -> docs/bench-ledger/re--agentre-conll04.json"""
    return LEDGER / (str(folder.relative_to(RUNS)).replace("/", "--") + ".json")


def save(folder: Path) -> None:
    if not (folder / RUN_FILE).is_file():
        return
    run = json.loads((folder / RUN_FILE).read_text(encoding="utf-8"))
    rows = [{k: row[k] for k in KEPT if k in row} for row in read_documents(folder)]
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
