"""entity_kinds / type_fit on a hand-made KB, and semantic validation with the default KB's derived types."""

from __future__ import annotations

import json

import pytest

from graphwright.kb import LocalKB, build_kb, default_kb
from graphwright.tools.semantic_validation import semantic_validation
from graphwright.tools.type_constraints import entity_kinds, type_fit

ENTITIES = [
    {"id": "Q5", "label": "human", "subclass_of": ["Q215627"]},
    {"id": "Q215627", "label": "person"},
    {"id": "Q515", "label": "city", "subclass_of": ["Q9000001"]},
    {"id": "Q9000001", "label": "urban area", "subclass_of": ["Q2221906"]},  # not a broad class itself
    {"id": "Q2221906", "label": "geographic location"},
    {"id": "Q1", "label": "Ada", "types": ["Q5"]},
    {"id": "Q2", "label": "Springfield", "types": ["Q515"]},
    {"id": "Q3", "label": "Untyped thing"},
    {"id": "Q4", "label": "Odd thing", "types": ["Q9000002"]},
]
PROPERTIES = [
    {
        "id": "P26",
        "label": "spouse",
        "datatype": "wikibase-item",
        "subject_types": ["Q215627"],
        "value_types": ["Q215627", "Q95074"],
    }
]


@pytest.fixture(scope="module")
def small_kb(tmp_path_factory):
    root = tmp_path_factory.mktemp("typed")
    for name, rows in (("entities.jsonl", ENTITIES), ("properties.jsonl", PROPERTIES)):
        (root / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    path = build_kb(
        root / "kb",
        properties_dir=False,
        arnold_dir=False,
        entity_files=[root / "entities.jsonl"],
        property_files=[root / "properties.jsonl"],
    )
    with LocalKB(path) as kb:
        yield kb


def test_property_jsonl_carries_expected_types(small_kb):
    p26 = small_kb.get("P26")
    assert p26.subject_types == ["Q215627"] and p26.value_types == ["Q215627", "Q95074"]


def test_entity_kinds_are_the_broad_classes_reached(small_kb):
    assert entity_kinds(small_kb, "Q1") == {"Q5", "Q215627"}
    assert entity_kinds(small_kb, "Q2") == {"Q2221906"}  # two levels up, past a non-broad class
    assert entity_kinds(small_kb, "Q2", depth=1) == set()
    assert entity_kinds(small_kb, "Q3") == set() and entity_kinds(small_kb, "Q4") == set()


def test_type_fit_says_fits_conflicts_or_unknown(small_kb):
    person = small_kb.get("P26").subject_types
    assert type_fit(small_kb, "Q1", person) is True
    assert type_fit(small_kb, "Q2", person) is False
    assert type_fit(small_kb, "Q3", person) is None  # no type
    assert type_fit(small_kb, "Q1", []) is None  # nothing expected
    assert type_fit(small_kb, "Q4", person) is False  # typed, but its type leads nowhere expected
    assert type_fit(small_kb, "Q2", ["Q2221906"], depth=1) is False and type_fit(small_kb, "Q2", ["Q2221906"]) is True


@pytest.fixture(scope="module")
def kb():
    return default_kb()


def test_default_kb_types_reach_broad_classes_in_one_superclass_level(kb):
    for qid, broad in (("Q2685", "Q215627"), ("Q65", "Q2221906"), ("Q29468", "Q43229")):  # Arnold, LA, GOP
        one_level = {s for t in kb.types(qid) for s in kb.superclasses(t, depth=1)}
        assert broad in one_level, qid
        assert broad in entity_kinds(kb, qid, depth=1)
    assert kb.label("Q618779") == "award" and kb.label("Q12737077") == "occupation"  # broad classes are records


def test_default_kb_validation_rejects_a_city_as_spouse_and_accepts_a_person(kb):
    right, wrong = semantic_validation(kb, "wd:Q2685 wdt:P26 wd:Q230654 .\nwd:Q65 wdt:P26 wd:Q230654 .")
    assert right.verdict == "valid" and right.reasons == []
    assert wrong.verdict == "invalid"
    assert any(r.startswith("subject Q65 is not of an allowed type (Q215627 (person)") for r in wrong.reasons)
    assert wrong.expected_subject_types == ["Q215627", "Q95074"]


def test_default_kb_validation_checks_value_types(kb):
    # place of birth: Thal (a municipality) fits; Maria Shriver does not
    good, bad = semantic_validation(kb, "wd:Q2685 wdt:P19 wd:Q571822 .\nwd:Q2685 wdt:P19 wd:Q230654 .")
    assert good.verdict == "valid" and good.reasons == []
    assert bad.verdict == "invalid" and any("value Q230654 is not of an allowed type" in r for r in bad.reasons)
