"""Builders on tiny files in every source layout (no model: a hashing embedder)."""

from __future__ import annotations

import json

import pytest

from graphwright.errors import DataNotFoundError, UserError
from graphwright.kb import LocalKB, build_kb, build_rebel_kb, open_kb
from graphwright.kb.kgtk import parse_literal
from tests.kb.fakes import HashEmbedder, write_arnold_dir, write_entity_jsonl, write_properties_dir, write_rebel


@pytest.fixture()
def sources(tmp_path):
    root = tmp_path / "data"
    return {
        "properties_dir": write_properties_dir(root),
        "arnold_dir": write_arnold_dir(root),
        "rebel_path": write_rebel(root),
        "entity_files": [write_entity_jsonl(root)],
    }


@pytest.fixture()
def full_kb(tmp_path, sources):
    with LocalKB(build_kb(tmp_path / "kb", **sources), embedder=HashEmbedder()) as kb:
        yield kb


def test_parse_literal_handles_kgtk_and_csv_quoting():
    assert parse_literal("'Arnold Schwarzenegger\\'s mother'@en") == "Arnold Schwarzenegger's mother"
    assert parse_literal('"\'see ""place"" (P276)\'@en"') == 'see "place" (P276)'
    assert parse_literal("'a \\\"b\\\"'@en") == 'a "b"'


def test_build_kb_property_catalogue_merges_glirel_and_kgtk(full_kb):
    p102 = full_kb.get("P102")
    assert p102.label == "member of political party"  # GLiREL (newer) wins
    assert p102.aliases == ["member of party", "party"]  # the renamed 2021 label stays findable
    assert p102.super_properties == ["P463"] and p102.datatype == "wikibase-item"
    # the dump declares type constraints but not their classes: known to exist, not checkable
    assert p102.unchecked_constraints == ["subject type", "value type"] and p102.subject_types == []
    # P1855 gives only the example's subject; its label comes from the arnold entities.
    assert p102.examples == ["Eleanor Roosevelt member of political party …"]
    p19 = full_kb.get("P19")
    assert p19.description == 'most specific known birth location, see "place" (P276)'
    assert p19.examples == []  # Q424242 has no label in any source
    assert full_kb.get("P214").datatype == "external-id"


def test_build_kb_entities_merge_by_source_priority(full_kb):
    arnold = full_kb.get("Q2685")
    assert arnold.label == "Arnold S."  # the user's JSONL has priority over arnold and rebel
    assert arnold.aliases[:2] == ["Arnold Schwarzenegger", "Arnie"] and "Schwarzenegger" in arnold.aliases
    assert arnold.description == "user's own description" and arnold.types == ["Q5"]
    assert full_kb.get("Q23800370").description == "Arnold Schwarzenegger's mother"
    assert full_kb.get("Q1").label == "Universe"  # most frequent REBEL surface form
    assert full_kb.get("Q1").aliases == ["the Universe"]
    assert full_kb.get("Q42").aliases == ["DNA"]
    counts = full_kb.manifest["counts"]
    assert counts["property"] == 4 and counts["entity"] == 7 and counts["subclass_edges"] == 1
    assert [s["kind"] for s in full_kb.manifest["sources"]] == [
        "entity-jsonl",
        "wikidata-properties",
        "kgtk-entities",
        "rebel",
    ]
    assert full_kb.manifest["embedding_model"] == "all-MiniLM-L6-v2-onnx-int8" and full_kb.manifest["built"]


def test_build_kb_hierarchy_is_queryable(full_kb):
    assert [r.id for r in full_kb.super_properties("P102")] == ["P463"]
    assert [r.id for r in full_kb.sub_properties("P463")] == ["P102"]
    assert full_kb.types("Q2685") == ["Q5"] and full_kb.superclasses("Q5") == ["Q215627"]
    rows = full_kb.sparql("SELECT ?l WHERE { wd:Q5 rdfs:label ?l }")
    assert rows == [{"l": "human"}]
    assert full_kb.sparql("ASK { wd:P214 wikibase:propertyType wikibase:ExternalId }") is True


def test_build_kb_search_label_alias_and_misspelling(full_kb):
    assert [(h.id, h.matched) for h in full_kb.search("Arnold S.", kind="entity", k=1)] == [("Q2685", "exact")]
    assert [(h.id, h.matched) for h in full_kb.search("arnie", kind="entity", k=1)] == [("Q2685", "alias")]
    hit = full_kb.search("Arnold Schwarzeneger", kind="entity", mode="label", k=1)[0]
    assert (hit.id, hit.matched) == ("Q2685", "fuzzy") and hit.score > 0.9
    assert full_kb.search("born in", kind="property", k=1)[0].id == "P19"


def test_identifier_properties_are_demoted_unless_asked_for(full_kb):
    assert full_kb.search("VIAF identifier", kind="property", k=1)[0].id == "P214"
    hits = full_kb.search("VIAF", kind="property", k=4)  # a bare name: identifiers go last
    assert hits[-1].id == "P214" and len(hits) == 4
    assert full_kb.stats()["embedding_indices"] == [
        "property_description_ids",
        "property_description_rel",
        "property_label_ids",
        "property_label_rel",
    ]


def test_build_kb_writes_embedding_cache_on_first_use(tmp_path, sources):
    path = build_kb(tmp_path / "kb", **sources)
    with LocalKB(path, embedder=HashEmbedder()) as kb:
        kb.search("political party", kind="property", mode="description")
        assert kb.stats()["embedding_indices"] == ["property_description_rel"]  # identifiers: built on demand
    assert (path / "embeddings" / HashEmbedder.name / "property_description_rel.npy").is_file()


def test_build_rebel_kb_is_closed_world_with_support_classes(tmp_path, sources):
    path = build_rebel_kb(
        tmp_path / "rebel",
        properties_dir=sources["properties_dir"],
        arnold_dir=sources["arnold_dir"],
        rebel_path=sources["rebel_path"],
    )
    with LocalKB(path, embedder=HashEmbedder()) as kb:
        assert kb.stats()["entities"] == 2  # exactly the REBEL entities
        arnold = kb.get("Q2685")
        assert arnold.label == "Arnold Schwarzenegger" and "Schwarzenegger" in arnold.aliases and arnold.types == ["Q5"]
        assert not kb.contains("Q83396")  # in arnold, not in REBEL
        assert kb.label("Q5") == "human" and kb.superclasses("Q5") == ["Q215627"]  # support record
        assert all(h.id != "Q5" for h in kb.search("human", kind="entity", mode="label", k=5))


def test_missing_data_dir_names_the_path_and_the_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(DataNotFoundError) as info:
        build_kb(tmp_path / "kb")
    msg = str(info.value)
    assert str(tmp_path / "nowhere" / "wikidata-properties" / "all_wikidata_properties.json.gz") in msg
    assert "GRAPHWRIGHT_DATA_DIR" in msg
    assert not (tmp_path / "kb").exists()


def test_entity_jsonl_errors_point_at_the_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "Q1", "label": "ok"}\n{"id": "x1", "label": "bad id"}\n', encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.jsonl:2"):
        build_kb(tmp_path / "kb", properties_dir=False, arnold_dir=False, entity_files=[bad])
    bad.write_text('{"id": "Q1", "label": "ok"}\nnot json\n', encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.jsonl:2: not valid JSON"):
        build_kb(tmp_path / "kb", properties_dir=False, arnold_dir=False, entity_files=[bad])


def test_build_refuses_to_overwrite_a_foreign_directory(tmp_path, sources):
    out = tmp_path / "precious"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(UserError, match="not a graphwright KB"):
        build_kb(out, properties_dir=False, arnold_dir=False, entity_files=sources["entity_files"])
    assert (out / "notes.txt").read_text() == "keep me"


def test_build_replaces_an_existing_kb_atomically(tmp_path, sources):
    out = build_kb(tmp_path / "kb", properties_dir=False, arnold_dir=False, entity_files=sources["entity_files"])
    first = json.loads((out / "manifest.json").read_text())["counts"]["entity"]
    build_kb(out, properties_dir=False, arnold_dir=sources["arnold_dir"], entity_files=sources["entity_files"])
    assert json.loads((out / "manifest.json").read_text())["counts"]["entity"] > first
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".kb")] == []  # no temp dirs left


def test_open_kb_rejects_unknown_names_and_paths(tmp_path):
    with pytest.raises(DataNotFoundError, match="names: default, none, rebel, wikidata"):
        open_kb(str(tmp_path / "missing"))


def test_rebel_kb_without_shared_data_says_where_it_looked(tmp_path, monkeypatch):
    from graphwright.kb import rebel_kb

    monkeypatch.setenv("GRAPHWRIGHT_DATA_DIR", str(tmp_path / "empty"))
    with pytest.raises(DataNotFoundError, match=r"rebel-sample.*GRAPHWRIGHT_DATA_DIR"):
        rebel_kb()
