"""The web app's graph browser on a store of 10,000 edges (issue 28): how long the server takes to read
the graph and to answer the page, and how long Chromium takes to draw it. No model: the graph is
made up (names, relations, evidence sentences), so only the sizes matter.

    make bench-web        # writes its table into docs/BENCHMARKS.md
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.harness import BENCH_MD, header
from graphwright.model import Document, Entity, ExtractionResult, Provenance, Term, Triple
from graphwright.store import GraphStore
from graphwright.web.app import create_app
from graphwright.web.graph_view import Filters, GraphIndex
from graphwright.web.state import ServeConfig

FIRST = [
    "Ada",
    "Björn",
    "Chiara",
    "Dmitri",
    "Elif",
    "Farah",
    "Goran",
    "Hana",
    "Ines",
    "Jonas",
    "Kaito",
    "Lena",
    "Mateo",
    "Nadia",
    "Oskar",
    "Priya",
    "Quentin",
    "Rosa",
    "Sven",
    "Tamar",
]
LAST = [
    "Quist",
    "Lindqvist",
    "Okafor",
    "Brandt",
    "Moreau",
    "Haddad",
    "Novak",
    "Sato",
    "Varga",
    "Ekström",
    "Costa",
    "Weiss",
    "Ibsen",
    "Kowalski",
    "Duarte",
    "Nyberg",
    "Aalto",
    "Rinaldi",
    "Sherwood",
    "Tanaka",
]
FIRMS = ["Robotics", "Shipping", "Bioworks", "Analytics", "Foods", "Textiles", "Energy", "Optics", "Press", "Labs"]
PLACES = ["Uppsala", "Bergen", "Tampere", "Ghent", "Porto", "Graz", "Lyon", "Brno", "Aarhus", "Split"]
RELATIONS = {
    "works for": ("person", "firm"),
    "founded": ("person", "firm"),
    "lives in": ("person", "place"),
    "based in": ("firm", "place"),
    "supplies": ("firm", "firm"),
    "knows": ("person", "person"),
}
UNLINKED = "https://graphwright.dev/entity/"  # graphwright.kb.namespaces.UNLINKED: not in the KB
SCHEMA = "https://graphwright.dev/schema/bench/"
PAINTED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def made_up_graph(edges: int, per_document: int, seed: int = 0) -> list[tuple[Document, ExtractionResult]]:
    rng = random.Random(seed)
    names = {
        "person": [f"{first} {last}" for first in FIRST for last in LAST],
        "firm": [f"{last} {firm}" for last in LAST for firm in FIRMS],
        "place": PLACES + [f"{p} {d}" for p in PLACES for d in ("North", "South", "Harbour")],
    }
    seen: set[tuple[str, str, str]] = set()
    while len(seen) < edges:
        relation = rng.choice(list(RELATIONS))
        head, tail = (rng.choice(names[kind]) for kind in RELATIONS[relation])
        if head != tail:
            seen.add((head, relation, tail))
    facts = sorted(seen)
    rng.shuffle(facts)
    out = []
    for start in range(0, len(facts), per_document):
        chunk = facts[start : start + per_document]
        text = " ".join(f"{h} {r} {t}." for h, r, t in chunk)
        document = Document(text=text, source=f"made-up-{start // per_document:05d}.txt")
        result = ExtractionResult(document_id=document.id, system="bench")
        for h, r, t in chunk:
            sentence = f"{h} {r} {t}."
            evidence = document.find(sentence)
            result.triples.append(
                Triple(
                    subject=Term.iri(UNLINKED + h.replace(" ", "_"), label=h, surface=h),
                    predicate=Term.iri(SCHEMA + r.replace(" ", "_"), label=r, surface=r),
                    object=Term.iri(UNLINKED + t.replace(" ", "_"), label=t, surface=t),
                    provenance=Provenance(
                        evidence=evidence, system="bench", agent="made-up", confidence=round(rng.uniform(0.3, 1.0), 2)
                    ),
                )
            )
        result.entities = [
            Entity(iri=UNLINKED + n.replace(" ", "_"), label=n)
            for n in sorted({x for h, _, t in chunk for x in (h, t)})
        ]
        out.append((document, result))
    return out


def timed(fn, repeat: int = 1):
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - started)
    return value, best


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_in_thread(config: ServeConfig, port: int) -> uvicorn.Server:
    server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/info", timeout=1).raise_for_status()
            return server
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def browser_rows(url: str, limits: list[int], edges: int) -> list[tuple[str, float]]:
    """Seconds from opening the page (or changing the limit) until Cytoscape holds the edges."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if not chromium:
        print("no Chromium (apt-get install chromium): the browser rows are left out", file=sys.stderr)
        return []
    rows = []

    def wait_edges(page, n: int) -> None:
        """Until Cytoscape holds ``n`` edges and has painted them (two animation frames later)."""
        while page.evaluate(f"() => !(window.gwGraph && window.gwGraph.edges().length === {n})"):
            time.sleep(0.02)
        page.evaluate(PAINTED)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        started = time.perf_counter()
        page.goto(url + "/graph")
        wait_edges(page, min(300, edges))
        rows.append(
            ("open /graph on a started server, 300 edges drawn (facets, query, layout)", time.perf_counter() - started)
        )
        for limit in limits:
            started = time.perf_counter()
            page.select_option("#limit", str(limit))
            wait_edges(page, min(limit, edges))
            rows.append((f"redraw with {limit:,} edges", time.perf_counter() - started))
        hub = page.evaluate("() => window.gwGraph.nodes().max(n => n.data('degree')).ele.id()")
        started = time.perf_counter()
        # the block returns nothing: a Cytoscape collection handed back would be serialised, slowly
        page.evaluate(f"async () => {{ await expand(window.gwGraph.getElementById({json.dumps(hub)})); }}")
        page.evaluate(PAINTED)
        rows.append(("expand the busiest node's neighbourhood", time.perf_counter() - started))
        browser.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edges", type=int, default=10_000)
    parser.add_argument("--per-document", type=int, default=10)
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args()
    command = f"make bench-web (python -m graphwright.bench.web --edges {args.edges})"
    where = Path(tempfile.mkdtemp(prefix="bench-web-"))
    try:
        runs = made_up_graph(args.edges, args.per_document)
        with GraphStore.open(where / "store") as store:
            for document, result in runs:
                store.add_result(document, result)
            changes: list[tuple[str, str]] = []
            index = GraphIndex(store, changes)
            data, cold = timed(lambda: index.data(0))
            server_rows = [
                (
                    f"read the whole graph ({len(data['nodes']):,} nodes, {len(data['edges']):,} edges), "
                    "once, in the background as the server starts",
                    cold,
                )
            ]
            document, result = runs[0]
            store.add_result(document, result)  # a job stores a document: the index reads that run again
            changes.append((document.id, result.system))
            _, seconds = timed(lambda: index.data(1))
            server_rows.append(("take in one newly stored document", seconds))
            for label, filters in (
                ("best 300 edges, no filter", Filters()),
                ("best 300 edges matching a search", Filters(search="lindqvist")),
                ("best 300 edges of one document", Filters(document=runs[0][0].id)),
                ("best 300 edges with confidence >= 0.9", Filters(min_confidence=0.9)),
            ):
                _, seconds = timed(lambda f=filters: index.select(0, f, 300), repeat=5)
                server_rows.append((label, seconds))
            hub = max(data["adjacent"], key=lambda n: len(data["adjacent"][n]))
            _, seconds = timed(lambda: index.neighbourhood(0, hub, Filters(), 200), repeat=5)
            server_rows.append((f"neighbourhood of the busiest node ({len(data['adjacent'][hub])} edges)", seconds))
            payload = len(json.dumps(index.select(0, Filters(), 300)))
        port = free_port()
        server = serve_in_thread(ServeConfig(store=where / "store", data=where / "serve"), port)
        httpx.get(f"http://127.0.0.1:{port}/api/graph/facets", timeout=300)  # the server has read the graph
        try:
            page_rows = browser_rows(f"http://127.0.0.1:{port}", [1000, 3000], len(data["edges"]))
        finally:
            server.should_exit = True
    finally:
        shutil.rmtree(where, ignore_errors=True)
    lines = header(f"Graph browser at {args.edges:,} edges", None, command)
    lines += ["| step | seconds |", "|---|---|"]
    lines += [f"| server: {label} | {seconds:.3f} |" for label, seconds in server_rows]
    lines += [f"| Chromium: {label} | {seconds:.2f} |" for label, seconds in page_rows]
    lines += [
        "",
        f"The answer for 300 edges is {payload / 1024:.0f} KiB of JSON. Server rows are the best of 5 "
        "(the first read once); browser rows include the server's answer.",
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section(BENCH_MD, "web-graph-browser", body)


if __name__ == "__main__":
    main()
