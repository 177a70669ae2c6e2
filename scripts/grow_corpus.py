"""`make grow-corpus`: one run over the 50 made-up texts of examples/growing grows one graph (issue 25).

It runs what a user runs (`graphwright extract examples/growing --system agentic-kgr --config
examples/growing/agentic-kgr.yaml --grow --episode-size 10`), then reads the grown graph against the
corpus's facts.yaml: duplicates before and after entity resolution, each recurring fact's status, votes and
confidence, every promoted edge the gold does not hold (to read by hand), the per-episode metrics, and
whether folding the same runs in again changes anything but votes and last-seen times. The report goes
into docs/BENCHMARKS.md. The extraction resumes: a rerun skips the texts already done.

    python scripts/grow_corpus.py --model embedded:qwen2.5-coder-1.5b
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from pathlib import Path

import yaml
from bench_eval import BENCH_MD, header
from bench_ledger import ROOT, RUNS

from graphwright.eval.benchmarks_md import write_section
from graphwright.growth import GrowthPolicy, grow, load
from graphwright.growth.resolve import name_key
from graphwright.growth.state import GrowthState
from graphwright.model.schema import load_schema
from graphwright.store import GraphStore

CORPUS = ROOT / "examples" / "growing"
FOLDER = RUNS / "grow-corpus"


def gold_keys(facts: dict) -> dict[str, str]:
    """name key -> canonical gold name, for the names and aliases that name one gold entity only."""
    names = {f[k] for f in facts["facts"] for k in ("subject", "object")}
    owners: dict[str, set[str]] = {}
    for name in names:
        for variant in [name, *facts.get("aliases", {}).get(name, [])]:
            owners.setdefault(name_key(str(variant)), set()).add(str(name))
    return {key: next(iter(v)) for key, v in owners.items() if len(v) == 1}


def node_gold(state: GrowthState, keys: dict[str, str]) -> dict[str, set[str]]:
    """node IRI -> the gold entities its names match (two or more: a wrong merge)."""
    return {iri: {keys[k] for k in {name_key(n) for n in {node.label, *node.aliases}} if k in keys}
            for iri, node in state.nodes.items()}


def read_graph(state: GrowthState, facts: dict, relation_iri) -> list[str]:
    keys = gold_keys(facts)
    matched = node_gold(state, keys)
    lines = []
    wrong_merges = {iri: g for iri, g in matched.items() if len(g) > 1}
    by_gold: dict[str, list[str]] = {}
    for iri, golds in matched.items():
        for g in golds:
            by_gold.setdefault(g, []).append(iri)
    split = {g: iris for g, iris in by_gold.items() if len(iris) > 1}
    lines += [f"- gold entities with more than one node (unresolved duplicates): {len(split)}"
              + (": " + "; ".join(f"{g} ({len(v)})" for g, v in sorted(split.items())) if split else ""),
              f"- nodes matching two or more gold entities (wrong merges): {len(wrong_merges)}"
              + (": " + "; ".join(" / ".join(sorted(g)) for g in wrong_merges.values()) if wrong_merges else "")]

    def find(fact):
        subjects, objects = set(by_gold.get(str(fact["subject"]), [])), set(by_gold.get(str(fact["object"]), []))
        p = relation_iri(fact["relation"])
        return next((e for e in state.edges.values() if e.predicate == p and e.subject in subjects
                     and e.object.value in objects), None)

    lines += ["", "| recurring fact | documents | status | votes | confidence |", "|---|---|---|---|---|"]
    recurring = [f for f in facts["facts"] if len(f["documents"]) >= 3]
    found_keys = set()
    for fact in recurring:
        edge = find(fact)
        if edge is not None:
            found_keys.add(edge.key)
        cells = (edge.status, str(edge.votes), f"{edge.confidence:.2f}") if edge else ("missing", "0", "")
        lines.append(f"| {fact['subject']} {fact['relation']} {fact['object']} | {len(fact['documents'])} | "
                     + " | ".join(cells) + " |")
    single = [f for f in facts["facts"] if len(f["documents"]) < 3]
    single_edges = [find(f) for f in single]
    found_keys |= {e.key for e in single_edges if e is not None}
    lines += ["", f"Single-document facts: {sum(e is not None for e in single_edges)} of {len(single)} found, "
                  f"{sum(e is not None and e.status == 'promoted' for e in single_edges)} promoted."]
    others = [e for e in state.edges.values() if e.key not in found_keys]
    lines += ["", f"Edges the gold does not hold: {len(others)} ({sum(e.status == 'promoted' for e in others)} "
                  "promoted), each read by hand below:", ""]
    for e in sorted(others, key=lambda e: (e.status, -e.votes, e.predicate_label or "")):
        subject = state.nodes[e.subject].label if e.subject in state.nodes else e.subject
        obj = state.nodes[e.object.value].label if e.object.value in state.nodes else e.object.value
        lines.append(f"- [{e.status}, {e.votes} votes] {subject} {e.predicate_label} {obj}")
    return lines


def ageing(state: GrowthState) -> list[str]:
    """What `graph age` would do 10 and 46 days after the run (on copies: the saved graph is not aged)."""
    from copy import deepcopy
    from datetime import datetime, timedelta

    from graphwright.growth.lifecycle import age
    from graphwright.growth.observe import Tick

    last = max(datetime.fromisoformat(e.last_seen) for e in state.edges.values())
    out = []
    for days in (10, 46):
        copy = deepcopy(state)
        aged = age(copy, GrowthPolicy(), Tick((last + timedelta(days=days)).isoformat(), copy.episode))
        out.append(f"- ageing {days} days after the run: {aged.decayed} edges decayed (confidence x "
                   f"{math.exp(-0.08 * max(0, days - 7)):.2f}), {aged.removed_edges} edges and "
                   f"{aged.removed_entities} entities removed")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="embedded:qwen2.5-coder-1.5b")
    parser.add_argument("--episode-size", type=int, default=10)
    args = parser.parse_args()
    store, out = FOLDER / "store", FOLDER / "out"
    command = (f"graphwright extract examples/growing --system agentic-kgr --config examples/growing/agentic-kgr.yaml "
               f"--kb none --grow --episode-size {args.episode_size} --model {args.model} --no-cache")
    done = subprocess.run([sys.executable, "-m", "graphwright.cli", *command.split()[1:], "--store", str(store),
                           "--out", str(out)], cwd=ROOT)
    if done.returncode not in (0, 2):
        sys.exit(done.returncode)
    facts = yaml.safe_load((CORPUS / "facts.yaml").read_text(encoding="utf-8"))
    schema = load_schema(CORPUS / "schema.yaml")
    with GraphStore.open(store, create=False) as graph_store:
        runs = {(r["document_id"], r["system"]) for r in graph_store.documents() if r["status"] == "ok"}
        iris = {e.iri for doc, system in runs for e in graph_store.entities(doc, system)}
        state = load(graph_store)
        before = state.counts()
        grow(graph_store, GrowthPolicy(), everything=True)  # the same runs again
        again = load(graph_store)
    lines = header("One graph grown over the 50 made-up texts of examples/growing (agentic-kgr)", args.model,
                   f"python scripts/grow_corpus.py --model {args.model}")
    lines += [f"- runs folded in: {len(runs)}; distinct entity IRIs in the runs: {len(iris)}; nodes after "
              f"resolution: {before['entities']}; merges: {before['merges']} "
              f"({', '.join(sorted({m.method for m in state.merges})) or 'none'})",
              f"- edges: {before['edges']} promoted, {before['pending']} pending; schema version "
              f"{state.schema_version}", ""]
    lines += ["| episode | runs | entities | edges | pending | promoted | merges | entity gain | relation gain | "
              "degree entropy | Laplacian change |", "|---|" + "---|" * 10]
    for ep in state.episodes:
        c, m = ep.counts, ep.metrics
        lines.append(f"| {ep.number} | {ep.documents} | {c['entities']} | {c['edges']} | {c['pending']} | "
                     f"{c['promoted']} | {c['new_merges']} | {m['entity_coverage_gain']:.2f} | "
                     f"{m['relation_coverage_gain']:.2f} | {m['degree_entropy']:.3f} | {m['laplacian_change']:.3f} |")
    lines += [""] + read_graph(state, facts, schema.relation_iri)
    lines += [""] + ageing(again)
    changed = {k: (before[k], v) for k, v in again.counts().items() if before[k] != v}
    lines += ["", "Folding the same 50 runs in again (`graph merge --all`) changed "
              + (", ".join(f"{k} {a} -> {b}" for k, (a, b) in changed.items()) if changed else "no count")
              + "; last-seen times moved to the new episode."]
    write_section(BENCH_MD, "grow-corpus", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
