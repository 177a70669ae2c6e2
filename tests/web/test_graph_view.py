"""The graph browser's index follows the store one changed run at a time and ends where a fresh read
would: added runs, a run stored again with fewer triples, and the filters over the result."""

from __future__ import annotations

from graphwright.model import Document
from graphwright.store import GraphStore
from graphwright.web.graph_view import Filters, GraphIndex
from tests.store.conftest import SYSTEM, make_document, make_result
from tests.store.test_relation_mapping import TEXT
from tests.store.test_relation_mapping import result as phrase_result


def edges(index: GraphIndex, version: int) -> set[tuple]:
    data = index.data(version)
    label = {i: n["label"] for i, n in data["nodes"].items()}
    return {(label[e["source"]], e["label"], label[e["target"]], len(e["support"])) for e in data["edges"].values()}


def test_the_index_patched_run_by_run_equals_a_fresh_read():
    first, second = make_document("doc-1"), make_document("doc-2")
    with GraphStore.in_memory() as store:
        changes: list[tuple[str, str]] = []
        store.add_result(first, make_result(first))
        changes.append((first.id, SYSTEM))
        index = GraphIndex(store, changes)
        assert len(edges(index, 1)) == 3

        store.add_result(second, make_result(second))  # the same three facts again: each edge gains a support
        changes.append((second.id, SYSTEM))
        shorter = make_result(first)
        shorter.triples = shorter.triples[:1]  # doc-1 again, with only its place of birth
        store.add_result(first, shorter)
        changes.append((first.id, SYSTEM))
        patched = edges(index, 3)
        assert patched == edges(GraphIndex(store, []), 0)
        assert ("Marie Curie", "place of birth", "Warszawa 🇵🇱", 2) in patched
        assert ("Marie Curie", "date of death", "1934", 1) in patched

        facets = index.facets(3)
        assert facets["documents"] == ["doc-1", "doc-2"] and facets["types"][0]["iri"].endswith("Q5")
        born = index.select(3, Filters(document="doc-1"), 10)
        assert [e["label"] for e in born["edges"]] == ["place of birth"] and born["total"] == 1
        human = index.select(3, Filters(type=facets["types"][0]["iri"]), 10)
        assert human["total"] == 3


def test_a_relation_kept_under_its_phrase_reaches_the_browser_as_unlinked():
    document = Document(id="tidewater", text=TEXT)
    with GraphStore.in_memory() as store:
        store.add_result(document, phrase_result(document))
        chosen = GraphIndex(store, []).select(0, Filters(), 10)
    assert chosen["edges"] and all(e["unlinked"] and e["label"] == "runs its office out of" for e in chosen["edges"])
