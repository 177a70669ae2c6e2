"""The user's edits of the graph: a merge, a rename and a removed fact hold when a document is extracted
again, and each one undone brings the graph back to what the systems wrote (with the other edits kept)."""

from __future__ import annotations

import pytest

from graphwright.curation import Edit, edit_graph, edits, undo_edit
from graphwright.errors import DataNotFoundError, UserError
from graphwright.kb.namespaces import WD, WDT
from graphwright.model import Term
from graphwright.model.schema import name_entity_iri
from graphwright.store import GraphStore
from tests.store.conftest import SYSTEM, make_document, make_result

CURIE, MANYA = WD + "Q7186", name_entity_iri("Manya Skłodowska")
FIRST, SECOND = make_document("doc-1"), make_document("doc-2")


def second_result():
    """doc-2 names her as a node the KB lacked: the duplicate a user merges."""
    result = make_result(SECOND)
    for triple in result.triples:
        triple.subject = Term.iri(MANYA, surface="Manya Skłodowska", label="Manya Skłodowska")
    result.entities = []
    return result


def facts(store: GraphStore) -> set[tuple[str, str, str]]:
    return {(t.subject.value, t.predicate.value, t.object.value) for t in store.triples()}


def subject_labels(store: GraphStore) -> set[str]:
    return {t.subject.label for t in store.triples()}


@pytest.fixture
def store(tmp_path):
    with GraphStore.open(tmp_path / "store") as s:
        s.add_result(FIRST, make_result(FIRST))
        s.add_result(SECOND, second_result())
        yield s


def test_merge_rename_and_remove_hold_on_rerun_and_undo_one_at_a_time(store):
    written = facts(store)
    assert {s for s, _, _ in written} == {CURIE, MANYA}
    merge = edit_graph(store, Edit(0, "merge", source=MANYA, target=CURIE))
    assert {s for s, _, _ in facts(store)} == {CURIE}
    assert store.unedited_quads("doc-2", SYSTEM) is not None and store.unedited_quads("doc-1", SYSTEM) is None
    rename = edit_graph(store, Edit(0, "rename", node=CURIE, label="Maria Skłodowska-Curie"))
    assert subject_labels(store) == {"Maria Skłodowska-Curie"}
    assert store.labels()[CURIE] == "Maria Skłodowska-Curie"
    death = (CURIE, WDT + "P570", "1934")
    remove = edit_graph(store, Edit(0, "remove", fact=death))
    assert death not in facts(store) and facts(store)
    assert [e.number for e in edits(store)] == [merge.number, rename.number, remove.number] == [1, 2, 3]

    store.add_result(SECOND, second_result())  # extracted again: the system writes what it wrote before
    assert {s for s, _, _ in facts(store)} == {CURIE} and death not in facts(store)
    assert subject_labels(store) == {"Maria Skłodowska-Curie"}

    undo_edit(store, merge.number)
    assert {s for s, _, _ in facts(store)} == {CURIE, MANYA}, "the duplicate is back"
    assert (MANYA, WDT + "P570", "1934") in facts(store) and death not in facts(store), "the removal still holds"
    undo_edit(store, remove.number)
    undo_edit(store, rename.number)
    assert facts(store) == written and subject_labels(store) == {"Marie Curie", "Manya Skłodowska"}
    assert all(store.unedited_quads(d, SYSTEM) is None for d in ("doc-1", "doc-2")), "no edit left: nothing kept"
    with pytest.raises(DataNotFoundError, match="no edit 1 to undo"):
        undo_edit(store, merge.number)


def test_an_edit_must_name_what_the_store_holds(store):
    with pytest.raises(DataNotFoundError, match="holds no"):
        edit_graph(store, Edit(0, "merge", source=WD + "Q1", target=CURIE))
    with pytest.raises(UserError, match="into itself"):
        edit_graph(store, Edit(0, "merge", source=CURIE, target=CURIE))
    with pytest.raises(DataNotFoundError, match="holds no"):
        edit_graph(store, Edit(0, "remove", fact=(CURIE, WDT + "P19", WD + "Q64")))
    assert edits(store) == []


def test_the_command_line_edits_lists_and_undoes(tmp_path):
    from typer.testing import CliRunner

    from graphwright.cli import app

    with GraphStore.open(tmp_path / "store") as s:
        s.add_result(FIRST, make_result(FIRST))
        s.add_result(SECOND, second_result())
    where = ["--store", str(tmp_path / "store")]
    merged = CliRunner().invoke(app, ["graph", "edit", "merge", MANYA, CURIE, *where])
    assert merged.exit_code == 0 and "graph edit undo 1" in merged.output
    assert "edit 1: merge Manya Skłodowska into Marie Curie" in merged.output  # named by label
    listed = CliRunner().invoke(app, ["graph", "edit", "list", *where], terminal_width=200)
    assert "active" in listed.output and "merge" in listed.output
    undone = CliRunner().invoke(app, ["graph", "edit", "undo", "1", *where])
    assert undone.exit_code == 0 and "undid edit 1" in undone.output
    again = CliRunner().invoke(app, ["graph", "edit", "undo", "1", *where])
    assert again.exit_code == 1 and "no edit 1 to undo" in again.output
    with GraphStore.open(tmp_path / "store") as s:
        assert MANYA in {t.subject.value for t in s.triples()}


def test_an_edit_reads_only_the_runs_that_name_its_entity_or_an_edit_changed(store, monkeypatch):
    for n in range(3, 8):  # documents that never name her
        other = make_result(make_document(f"doc-{n}"))
        for triple in other.triples:
            triple.subject = Term.iri(WD + f"Q{n}", surface=f"Person {n}", label=f"Person {n}")
        other.entities = []
        store.add_result(make_document(f"doc-{n}"), other)
    read = []
    original = store.run_quads
    monkeypatch.setattr(store, "run_quads", lambda d, s: read.append(d) or original(d, s))
    merge = edit_graph(store, Edit(0, "merge", source=MANYA, target=CURIE))
    assert (
        read == ["doc-2"]
        and {s for s, _, _ in facts(store)} >= {CURIE}
        and MANYA not in {s for s, _, _ in facts(store)}
    )
    read.clear()
    edit_graph(store, Edit(0, "rename", node=WD + "Q4", label="Someone"))
    assert sorted(read) == ["doc-2", "doc-4"], "the run it names, and the run the merge changed"
    read.clear()
    undo_edit(store, merge.number)
    assert sorted(read) == ["doc-2", "doc-4"] and MANYA in {s for s, _, _ in facts(store)}


@pytest.mark.parametrize("crash", ["curation.edit-ready:1", "curation.edit-committed:1"])
def test_a_merge_killed_at_any_step_leaves_the_store_as_before_or_after(tmp_path, crash):
    import signal

    from tests.support.cli_process import cli

    def state(path):
        with GraphStore.open(path) as s:
            return (
                sorted(map(str, s.triples())),
                sorted(map(str, s.query("SELECT ?s ?o WHERE { ?s wdt:P19 ?o }"))),
                [e.describe() for e in edits(s)],
            )

    for name in ("clean", "killed"):
        with GraphStore.open(tmp_path / name) as s:
            s.add_result(FIRST, make_result(FIRST))
            s.add_result(SECOND, second_result())
    before = state(tmp_path / "clean")
    with GraphStore.open(tmp_path / "clean") as s:
        edit_graph(s, Edit(0, "merge", source=MANYA, target=CURIE))
    after = state(tmp_path / "clean")
    args = ["graph", "edit", "merge", MANYA, CURIE, "--store", str(tmp_path / "killed")]
    assert cli(args, failpoints=crash) == -signal.SIGKILL
    assert state(tmp_path / "killed") == (before if crash.startswith("curation.edit-ready") else after)
