"""The CLI in child processes that can really be killed, on a small batch of agentre documents with
a user schema and no KB: what the crash-consistency and concurrent-writer tests share."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from graphwright.bench.eval.runner import read_documents
from graphwright.jsonl import read_jsonl
from graphwright.store import GraphStore
from tests.support.agentre_script import write_inputs

DOCUMENTS = 12


def text(i: int) -> str:
    return f"John Smith , a spokesman for Acme Corp , lives in Oslo . Note {i} ."


def answerer(delay: float = 0.02):
    """A scripted model that takes ``delay`` seconds per answer, so that kills land inside a batch."""

    def answer(messages, response_format) -> str:
        time.sleep(delay)
        return json.dumps(
            {
                "triples": [
                    {"head": "John Smith", "relation": "Work_For", "tail": "Acme Corp"},
                    {"head": "John Smith", "relation": "Live_In", "tail": "Oslo"},
                ]
            }
        )

    return answer


def start(args: list[str], failpoints: str = "") -> subprocess.Popen:
    env = {**os.environ, "GRAPHWRIGHT_FAILPOINTS": failpoints}
    return subprocess.Popen(
        [sys.executable, "-m", "graphwright.cli", *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def cli(args: list[str], failpoints: str = "", kill_after: float | None = None) -> int:
    """Run graphwright in a child process; with ``kill_after`` it gets SIGKILL after that many seconds."""
    child = start(args, failpoints)
    try:
        _, err = child.communicate(timeout=kill_after)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGKILL)
        child.communicate()
        return -signal.SIGKILL
    assert child.returncode in (0, -signal.SIGKILL), err.decode()[-2000:]
    return child.returncode


def extract_args(server, inputs, where: Path) -> list[str]:
    return [
        "extract",
        str(inputs["folder"]),
        "--system",
        "agentre.zeroshot",
        "--kb",
        "none",
        "--model",
        "scripted",
        "--base-url",
        server.base_url,
        "--no-cache",
        "--concurrency",
        "3",
        "--store",
        str(where / "store"),
        "--out",
        str(where / "out"),
        *inputs["settings"],
    ]


def eval_args(server, inputs, where: Path) -> list[str]:
    return [
        "eval",
        "run",
        "--system",
        "agentre.zeroshot",
        "--dataset",
        str(inputs["gold"]),
        "--kb",
        "none",
        "--model",
        "scripted",
        "--base-url",
        server.base_url,
        "--no-cache",
        "--out",
        str(where / "run"),
        *inputs["settings"],
    ]


def extract_state(where: Path) -> dict:
    """What an extraction leaves, without what differs between two clean runs (times, seconds)."""
    lines = (where / "out" / "results.jsonl").read_text(encoding="utf-8").split("\n")
    assert lines[-1] == "", "the file ends with a whole line"
    rows = [json.loads(line) for line in lines[:-1]]  # every line parses: no half records
    assert len(rows) == len({r["document_id"] for r in rows}), "a document twice in results.jsonl"
    with GraphStore.open(where / "store") as store:
        runs = store.documents()
        assert len(runs) == len({r["document_id"] for r in runs}), "a document stored twice"
        stored = {
            doc: sorted((t.subject.value, t.predicate.value, t.object.value) for t in triples)
            for doc, _, triples in store.triples_by_run()
        }
        quads = len(store.oxigraph)
    return {
        "results": {
            r["document_id"]: (r["status"], [(t["subject"]["value"], t["object"]["value"]) for t in r["triples"]])
            for r in rows
        },
        "store": {r["document_id"]: (r["status"], r["triples"], stored[r["document_id"]]) for r in runs},
        "quads": quads,
    }


def eval_state(where: Path) -> dict:
    run = where / "run"
    lines = (run / "documents.jsonl").read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""
    rows = [json.loads(line) for line in lines[:-1]]
    assert len(rows) == len({r["id"] for r in rows}), "a document twice in documents.jsonl"
    traces = read_jsonl(run / "traces.jsonl")
    assert sorted(t["trace_id"] for t in traces) == sorted(r["id"] for r in rows), "one trace per scored document"
    aggregate = json.loads((run / "aggregate.json").read_text(encoding="utf-8"))
    return {
        "rows": {r["id"]: (r["status"], r["prediction"], r["counts"]) for r in read_documents(run)},
        "macro": aggregate["macro"],
        "documents": aggregate["documents"],
    }


def write_documents(where: Path) -> dict:
    schema, pool = write_inputs(where)
    folder = where / "in"
    folder.mkdir()
    for i in range(DOCUMENTS):
        (folder / f"note{i:02}.txt").write_text(text(i), encoding="utf-8")
    gold = where / "gold.jsonl"
    gold.write_text(
        "".join(
            json.dumps(
                {
                    "id": f"d{i:02}",
                    "text": text(i),
                    "triples": [
                        {
                            "subject": {"iri": "John Smith"},
                            "predicate": {"iri": "Work_For"},
                            "object": {"iri": "Acme Corp"},
                        }
                    ],
                }
            )
            + "\n"
            for i in range(DOCUMENTS)
        ),
        encoding="utf-8",
    )
    return {
        "folder": folder,
        "gold": gold,
        "settings": ["--set", f"schema_file={schema}", "--set", f"pool_file={pool}"],
    }
