from __future__ import annotations

import json
import re

from graphwright.kb.namespaces import WD, WDT
from graphwright.model import ExtractionResult, Provenance, Term, Triple
from graphwright.store import render_html, write_html
from graphwright.store.html_view import EMPTY_MESSAGE, graph_data, json_for_script

from .conftest import EVIL, make_document, make_result
from .page_harness import needs_node, run_page

DATA_BLOCK = re.compile(r'<script type="application/json" id="gw-data">(.*?)</script>', re.S)


def data_of(page: str) -> dict:
    return json.loads(DATA_BLOCK.search(page).group(1))


def test_html_view_embeds_nodes_edges_and_evidence(filled, document):
    data = data_of(render_html(filled, title="Curie"))
    labels = {n["label"] for n in data["nodes"]}
    assert {"Marie Curie", "Warszawa 🇵🇱", "1934"} <= labels
    born = next(e for e in data["edges"] if e["iri"] == WDT + "P19")
    assert born["label"] == "place of birth"
    [support] = born["support"]
    assert support["evidence"] == "Marie Curie wurde in Warschau geboren."
    assert support["surfaces"] == ["Marie Curie", "geboren", "Warschau"]
    assert (support["document_id"], support["agent"], support["confidence"]) == (document.id, "extractor", 0.875)
    assert data["documents"] == [document.id]


def test_html_view_is_self_contained(filled):
    page = render_html(filled)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "fetch(" not in page and "XMLHttpRequest" not in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert "innerHTML" not in page


def test_html_view_malicious_label_cannot_break_out(store, document):
    store.add_result(document, make_result(document, label=EVIL))
    page = render_html(store, title=EVIL)
    assert "</script><script>" not in page
    assert page.count("</script") == 2  # the two real script elements
    assert page.count("<script") == 2
    assert "<!--" not in page
    scripts = "".join(re.findall(r"<script[^>]*>(.*?)</script>", page, re.S))
    assert "\u2028" not in scripts and "\u2029" not in scripts
    data = data_of(page)
    assert EVIL in {n["label"] for n in data["nodes"]}
    assert data["title"] == EVIL
    assert "<title>Evil&quot;&gt; &lt;/script&gt;" in page


def test_html_view_json_for_script_round_trips():
    value = {"a": EVIL, "b": ["<", ">", "&", "\u2028", "🇵🇱"]}
    text = json_for_script(value)
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == value


def test_html_view_empty_store_shows_the_message(store):
    page = render_html(store)
    assert EMPTY_MESSAGE in page
    assert '<div id="empty" >' in page  # not hidden
    assert data_of(page)["edges"] == []


def test_html_view_merges_one_triple_from_several_runs(store):
    a, b = make_document("a"), make_document("b")
    store.add_result(a, make_result(a))
    store.add_result(b, make_result(b, system="agentre"))
    data = graph_data(store)
    assert len(data["edges"]) == 3
    assert [len(e["support"]) for e in data["edges"]] == [2, 2, 2]
    assert data["total_triples"] == 6
    assert len(graph_data(store, document_id="a")["edges"]) == 3


def test_html_view_caps_edges(store, document):
    store.add_result(document, _many(document.id, 50))
    data = graph_data(store, max_edges=10)
    assert len(data["edges"]) == 10 and data["total_triples"] == 50


def _unlinked_result(document) -> ExtractionResult:
    vogel = Term.iri("https://graphwright.dev/entity/Katrin%20Vogel", surface="Katrin Vogel", label="Katrin Vogel")
    return ExtractionResult(
        document_id=document.id,
        system="s",
        triples=[
            Triple(
                subject=Term.iri(WD + "Q7186", label="Marie Curie"),
                predicate=Term.iri(WDT + "P26", label="spouse"),
                object=vogel,
                provenance=Provenance(system="s"),
            )
        ],
    )


def test_html_view_marks_unlinked_entities(store, document):
    store.add_result(document, _unlinked_result(document))
    nodes = {n["label"]: n for n in graph_data(store)["nodes"]}
    assert nodes["Katrin Vogel"]["unlinked"] and not nodes["Marie Curie"]["unlinked"]


def test_html_view_write_html(filled, tmp_path):
    path = write_html(filled, tmp_path / "out" / "kg.html", title="KG")
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def _many(doc_id: str, n: int) -> ExtractionResult:
    triples = [
        Triple(
            subject=Term.iri(f"{WD}Q{i % 97 + 1}", label=f"item {i % 97}"),
            predicate=Term.iri(f"{WDT}P{i % 7 + 1}", label=f"prop {i % 7}"),
            object=Term.iri(f"{WD}Q{(i * 31) % 151 + 1000}", label=f"value {i}"),
            provenance=Provenance(system="s", confidence=0.5),
        )
        for i in range(n)
    ]
    return ExtractionResult(document_id=doc_id, system="s", triples=triples)


@needs_node
def test_html_view_script_runs_and_shows_evidence(store, document, tmp_path):
    store.add_result(document, make_result(document, label=EVIL))
    out = run_page(render_html(store), tmp_path)
    assert (out["edges"], out["nodes"], out["badGeometry"]) == (3, 4, 0)
    assert out["stats"] == "4 nodes (0 not in the KB) · 3 triples · 1 document"
    assert not out["emptyShown"]
    assert out["selected"]
    assert out["marks"] == ["Marie Curie", "Warschau", "geboren"]
    for text in (
        EVIL,
        "place of birth",
        WDT + "P19",
        document.id,
        "cie.react.v1",
        "extractor",
        "qwen2.5-0.5b",
        "0.88",
        "Marie Curie wurde in Warschau geboren.",
    ):
        assert text in out["edgePanel"]
    assert out["panelAfterDrag"] == out["edgePanel"]
    assert "Triples (3)" in out["nodePanel"]
    assert out["viewBox"]


@needs_node
def test_html_view_script_draws_unlinked_entities_apart(store, document, tmp_path):
    store.add_result(document, _unlinked_result(document))
    out = run_page(render_html(store), tmp_path)
    assert out["stats"] == "2 nodes (1 not in the KB) · 1 triples · 1 document"
    assert "not in the KB" in out["edgePanel"]


@needs_node
def test_html_view_script_handles_empty_store(store, tmp_path):
    out = run_page(render_html(store), tmp_path)
    assert out["emptyShown"] and out["edges"] == 0


@needs_node
def test_html_view_script_lays_out_hundreds_of_triples(store, document, tmp_path):
    store.add_result(document, _many(document.id, 400))
    out = run_page(render_html(store), tmp_path)
    assert out["edges"] == 400 and out["badGeometry"] == 0
