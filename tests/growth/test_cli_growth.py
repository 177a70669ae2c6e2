"""The growing graph through the CLI: `extract --grow` against a scripted server on 127.0.0.1, then
`graph merge|stats|promote|age|snapshot|neo4j` on the store it wrote."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from graphwright.cli import app
from graphwright.store import GraphStore
from tests.growth.runs import NOVEL, result, triple
from tests.support.cie_script import TEXT, lean_script
from tests.support.openai_server import ScriptedOpenAIServer

runner = CliRunner()


def graph(*args: str, store) -> object:
    done = runner.invoke(app, ["graph", *args, "--store", str(store)])
    assert done.exit_code == 0, done.output
    return done


def test_extract_grow_then_maintain_the_grown_graph(tmp_path, default_kb):
    doc, store = tmp_path / "doc.txt", tmp_path / "store"
    doc.write_text(TEXT, encoding="utf-8")
    with ScriptedOpenAIServer(lean_script()) as server:
        done = runner.invoke(
            app,
            [
                "extract",
                str(doc),
                "--system",
                "cie.network",
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
                "--no-cache",
                "--store",
                str(store),
                "--out",
                str(tmp_path / "out"),
                "--grow",
            ],
        )
    assert done.exit_code == 0, done.output
    assert "episode 1: 1 runs" in done.output
    stats = json.loads(graph("stats", "--json", store=store).output)
    assert stats["counts"]["edges"] >= 1 and stats["counts"]["pending"] == 0
    assert stats["episodes"][0]["metrics"]["relation_coverage_gain"] >= 1
    assert "nothing new" in graph("merge", "--set", "embedder=null", store=store).output

    # a novel relation from three more documents, staged then promoted by a lowered vote
    with GraphStore.open(store) as s:
        for i in (1, 2):
            s.add_result(None, result(f"n{i}", [triple("Nordwind", NOVEL, "Kessler Werke", sentence=f"s{i}")]))
    merged = graph("merge", "--set", "embedder=null", "--now", "2030-01-01T00:00:00+00:00", store=store).output
    assert "episode 2: 2 runs" in merged and "1 pending" in merged
    assert "promoted 1 edges" in graph("promote", "--set", "promote_votes=2", store=store).output
    table = graph("stats", "--set", "promote_votes=2", store=store).output
    assert "schema v1" in table and "supplies_parts_to" in table

    assert "release-1" in graph("snapshot", "--id", "release-1", "--note", "before ageing", store=store).output
    aged = graph("age", "--now", "2031-01-01T00:00:00+00:00", store=store).output
    assert "edges and" in aged and json.loads(graph("stats", "--json", store=store).output)["counts"]["edges"] == 0

    graph("neo4j", str(tmp_path / "neo4j"), store=store)
    assert (tmp_path / "neo4j" / "import.cypher").is_file()


def test_growth_settings_are_checked(tmp_path):
    with GraphStore.open(tmp_path / "store") as s:
        s.add_result(None, result("d1", []))
    done = runner.invoke(app, ["graph", "merge", "--store", str(tmp_path / "store"), "--set", "promote_vote=2"])
    assert done.exit_code != 0 and "promote_vote" in done.output
    missing = runner.invoke(app, ["graph", "stats", "--store", str(tmp_path / "nowhere")])
    assert missing.exit_code == 1 and "no graph store" in missing.output


def test_the_grown_graph_exports_and_answers_queries(tmp_path):
    import pyoxigraph as ox

    from tests.growth.runs import EMPLOYER

    store = tmp_path / "store"
    with GraphStore.open(store) as s:
        s.add_result(None, result("d1", [triple("Lena Vogt", EMPLOYER, "Nordwind Logistik GmbH", sentence="a")]))
        s.add_result(None, result("d2", [triple("Lena Vogt", EMPLOYER, "Nordwind Logistik", sentence="b")]))
    graph("merge", "--set", "embedder=null", store=store)
    out = tmp_path / "grown.ttl"
    graph("export", str(out), "--grown", store=store)
    triples = {
        (t.subject.value, t.predicate.value, t.object.value)
        for t in ox.parse(out.read_bytes(), format=ox.RdfFormat.TURTLE)
    }
    assert sum(p == EMPLOYER for _, p, _ in triples) == 1  # one edge: the two names are one company
    rows = json.loads(
        graph(
            "query", "--grown", "--json", f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{EMPLOYER}> ?o }}", store=store
        ).output
    )
    assert rows == {"n": "1"}
