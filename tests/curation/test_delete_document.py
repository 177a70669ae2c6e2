"""Deleting a document takes everything derived from it: every system's facts and provenance, its
text, its lines in every export and its part of the grown graph, while what other documents support
stays. A deletion killed at any step is finished by the next one (the CLI runs in a child process that
is really killed)."""

from __future__ import annotations

import signal

import pytest

from graphwright.curation import delete_document, finish_pending, pending
from graphwright.errors import DataNotFoundError
from graphwright.growth import GrowthPolicy, grow, load
from graphwright.store import GraphStore
from graphwright.store.export import serialize_graph
from tests.store.conftest import make_document, make_result
from tests.support.cli_process import cli

KEPT, GONE = make_document("doc-kept"), make_document("doc-gone")


def fill(store: GraphStore) -> None:
    store.add_result(KEPT, make_result(KEPT))  # the same three facts as GONE's: shared edges keep a vote
    gone = make_result(GONE, system="openie")
    gone.triples = gone.triples + [
        t.model_copy(update={"object": t.object.model_copy(update={"value": "1867"})})
        for t in gone.triples
        if t.predicate.label == "date of death"
    ]
    store.add_result(GONE, gone)
    store.add_result(GONE, make_result(GONE))  # a second system's run of the same document
    grow(store, GrowthPolicy(promote_votes=1))


def state(store: GraphStore) -> dict:
    grown = load(store)
    return {
        "triples": sorted(map(str, store.triples())),
        "texts": store.document_texts(),
        "edges": sorted(
            (e.subject, e.predicate, e.object.value, tuple(sorted(e.sources))) for e in grown.edges.values()
        ),
        "nodes": sorted((iri, tuple(sorted(n.sources))) for iri, n in grown.nodes.items()),
        # every export line but the times the runs were recorded at
        "nquads": sorted(
            line
            for line in serialize_graph(store, "nquads", include_provenance=True).decode().splitlines()
            if "recordedAt" not in line
        ),
    }


def test_a_deleted_document_leaves_nothing_behind_and_takes_nothing_else(tmp_path):
    with GraphStore.open(tmp_path / "store") as store:
        fill(store)
        before = load(store)
        assert any(e.sources == {"doc-gone"} for e in before.edges.values()), "an edge only the gone document supports"
        deleted = delete_document(store, "doc-gone")
        assert deleted.runs == 2 and deleted.grown.edges == 1 and deleted.grown.votes == 3
        assert store.graphs("prov", document_id="doc-gone") == [] and store.count(document_id="doc-gone") == 0
        assert store.document_texts() == {"doc-kept": KEPT.text}
        after = state(store)
        assert not [line for line in after["nquads"] if "doc-gone" in line or "1867" in line]
        assert all(sources == ("doc-kept",) for *_, sources in after["edges"]) and len(after["edges"]) == 3
        assert all("doc-gone" not in sources for _, sources in after["nodes"])
        assert {doc for doc, _ in load(store).merged_runs} == {"doc-kept"}
        assert pending(store) == []
        with pytest.raises(DataNotFoundError, match="no document 'doc-gone'"):
            delete_document(store, "doc-gone")


@pytest.mark.parametrize("crash", ["curation.journalled:1", "curation.deleted:1"])
def test_a_deletion_killed_at_any_step_leaves_the_store_as_before_or_after(tmp_path, crash):
    with GraphStore.open(tmp_path / "clean") as clean:
        fill(clean)
        before = state(clean)
        delete_document(clean, "doc-gone")
        after = state(clean)
    with GraphStore.open(tmp_path / "store") as store:
        fill(store)
    args = ["graph", "delete", "doc-gone", "--store", str(tmp_path / "store")]
    assert cli(args, failpoints=crash) == -signal.SIGKILL
    with GraphStore.open(tmp_path / "store") as store:
        killed = state(store)
        if crash.startswith("curation.journalled"):  # asked for, not begun: the journal says so
            assert killed == before and pending(store) == ["doc-gone"]
            assert [d.document_id for d in finish_pending(store)] == ["doc-gone"]
        else:
            assert killed == after
        assert state(store) == after and pending(store) == []


def test_the_command_line_lists_documents_and_deletes_one(tmp_path):
    from typer.testing import CliRunner

    from graphwright.cli import app

    with GraphStore.open(tmp_path / "store") as store:
        fill(store)
    where = ["--store", str(tmp_path / "store")]
    listed = CliRunner().invoke(app, ["graph", "documents", *where], terminal_width=200)
    assert listed.exit_code == 0 and listed.output.count("doc-gone") == 2 and "doc-kept" in listed.output
    deleted = CliRunner().invoke(app, ["graph", "delete", "doc-gone", *where])
    assert deleted.exit_code == 0 and "deleted doc-gone: 2 runs" in deleted.output
    missing = CliRunner().invoke(app, ["graph", "delete", "doc-gone", *where])
    assert missing.exit_code == 1 and "no document 'doc-gone'" in missing.output
