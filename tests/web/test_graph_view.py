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
        assert [d["iri"] for d in facets["documents"]] == ["doc-1", "doc-2"] and facets["types"][0]["iri"].endswith(
            "Q5"
        )
        # the filter names each document by its file, and by its id too where two files share a name
        assert [d["label"] for d in facets["documents"]] == ["texts/curie.txt (doc-1)", "texts/curie.txt (doc-2)"]
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


def test_filters_keep_unscored_facts_name_systems_as_runs_and_type_nodes_by_instance_of():
    from graphwright.kb.namespaces import WD, WDT
    from graphwright.model import Provenance, Term, Triple

    document = make_document("doc-1")
    result = make_result(document, system="cie.network")
    for triple in result.triples:  # provenance names the system with its version, as cie.* writes it
        triple.provenance = triple.provenance.model_copy(update={"system": "cie.network.v1"})
    result.entities = []  # no entity records: the node's type comes from its instance-of fact
    result.triples.append(
        Triple(
            subject=Term.iri(WD + "Q7186", label="Marie Curie"),
            predicate=Term.iri(WDT + "P31", label="instance of"),
            object=Term.iri(WD + "Q5", label="human"),
            provenance=Provenance(system="cie.network.v1"),
        )
    )
    with GraphStore.in_memory() as store:
        store.add_result(document, result)
        index = GraphIndex(store, [])
        facets = index.facets(0)
        assert facets["systems"] == ["cie.network"], "the name the Jobs page shows"
        assert [t["label"] for t in facets["types"]] == ["human"]
        assert index.select(0, Filters(type=WD + "Q5"), 10)["total"] == 4
        scored = index.select(0, Filters(min_confidence=0.9), 10)
        # the date of death (1.0) passes, the birth place (0.875) does not, unscored facts are not judged
        assert {e["label"] for e in scored["edges"]} == {"date of death", "nickname", "instance of"}
