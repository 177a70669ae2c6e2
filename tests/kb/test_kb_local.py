"""LocalKB on the embedded default KB (package data): search modes, kind filters, look-ups,
hierarchy and stats. The KB and its embedding indices are built once per machine (conftest)."""

from __future__ import annotations

import pytest

from graphwright.errors import UserError
from graphwright.kb import LocalKB, default_kb, open_kb


def ids(hits) -> list[str]:
    return [h.id for h in hits]


def test_default_kb_is_built_once_and_shared(kb: LocalKB):
    assert default_kb() is kb and open_kb("default") is kb
    assert kb.path.name.startswith("default-") and (kb.path / "manifest.json").is_file()
    stats = kb.stats()
    assert stats["entities"] > 40_000 and stats["properties"] > 11_000 and stats["triples"] > 200_000


def test_search_exact_label_comes_first(kb: LocalKB):
    hits = kb.search("Arnold Schwarzenegger", kind="entity")
    assert hits[0].id == "Q2685" and hits[0].matched == "exact" and hits[0].score == 1.0
    assert hits[0].record.iri == "http://www.wikidata.org/entity/Q2685"


def test_search_alias(kb: LocalKB):
    for alias in ("Governator", "arnie", "The Styrian Oak"):
        hit = kb.search(alias, kind="entity", mode="label")[0]
        assert (hit.id, hit.matched) == ("Q2685", "alias"), alias
    assert kb.search("CDU", kind="entity")[0].id == "Q49762"


@pytest.mark.parametrize("mode", ["label", "fused"])
def test_search_misspelling(kb: LocalKB, mode):
    for typo, qid in (("Arnold Schwarzeneger", "Q2685"), ("Maria Schriver", "Q230654"), ("Angela Merkle", "Q567")):
        hit = kb.search(typo, kind="entity", mode=mode)[0]
        assert hit.id == qid, (typo, [h.record.short() for h in kb.search(typo, kind="entity", mode=mode)])
    assert kb.search("Arnold Schwarzeneger", kind="entity", mode="label")[0].matched == "fuzzy"


def test_search_property_from_example_sentence(kb: LocalKB):
    hits = kb.search("Angela Merkel is a member of the CDU", kind="property", mode="fused")
    assert "P102" in ids(hits[:5])
    assert all(h.record.kind == "property" for h in hits)


def test_search_property_from_paraphrase_in_description_and_example_modes(kb: LocalKB):
    for mode in ("description", "example", "fused"):
        assert kb.search("the political party a person belongs to", kind="property", mode=mode)[0].id == "P102", mode


def test_search_entity_by_description(kb: LocalKB):
    hits = kb.search("Austrian bodybuilder who became governor of California", kind="entity", mode="description")
    assert "Q2685" in ids(hits[:3])


def test_search_kind_filters(kb: LocalKB):
    assert all(h.id.startswith("P") for h in kb.search("member of", kind="property", k=10))
    assert all(h.id.startswith("Q") for h in kb.search("member of", kind="entity", k=10))
    both = kb.search("member of political party", k=10)
    assert both[0].id == "P102" and any(h.id.startswith("Q") for h in both)
    assert kb.search("Arnold", kind="entity", mode="example") == []
    assert all(h.id.startswith("P") for h in kb.search("Arnold was born in Thal", mode="example"))


def test_search_sentence_is_not_swamped_by_identifier_properties(kb: LocalKB):
    hits = kb.search("She was born in Hamburg", kind="property", mode="fused")
    assert hits[0].id == "P19"
    assert not any(kb.get(h.id).datatype == "external-id" for h in hits)


def test_search_validates_arguments(kb: LocalKB):
    with pytest.raises(UserError, match="unknown search mode"):
        kb.search("x", mode="semantic")
    with pytest.raises(UserError, match="unknown kind"):
        kb.search("x", kind="item")
    assert kb.search("   ") == [] and kb.search("Arnold", k=0) == []


def test_get_and_contains_accept_every_iri_form(kb: LocalKB):
    forms = [
        "Q2685",
        "wd:Q2685",
        "http://www.wikidata.org/entity/Q2685",
        "<http://www.wikidata.org/entity/Q2685>",
        "https://www.wikidata.org/wiki/Q2685",
    ]
    for form in forms:
        assert kb.get(form).label == "Arnold Schwarzenegger", form
        assert kb.contains(form)
    for form in ("P102", "wdt:P102", "wd:P102", "http://www.wikidata.org/prop/direct/P102", "Property:P102"):
        rec = kb.get(form)
        assert rec.id == "P102" and rec.kind == "property" and rec.datatype == "wikibase-item", form
    assert kb.label("wdt:P19") == "place of birth"
    for missing in ("Q999999999999", "q2685", "Arnold", "", "wd:Q0"):
        assert kb.get(missing) is None and not kb.contains(missing) and kb.label(missing) is None


def test_property_record_has_examples_and_aliases(kb: LocalKB):
    p102 = kb.get("P102")
    assert "party" in p102.aliases and p102.super_properties == ["P463"]
    assert "Eleanor Roosevelt member of political party …" in p102.examples


def test_super_and_sub_properties_of_p102(kb: LocalKB):
    # What the property data says (KGTK claims.properties P1647 rows): member of political party
    # (P102) is a subproperty of member of (P463), which is a subproperty of affiliation (P1416,
    # not "part of" as in the CIExMAS example); nothing is declared below P102.
    assert [(r.id, r.label) for r in kb.super_properties("P102")] == [("P463", "member of")]
    assert kb.sub_properties("P102") == []
    assert [r.id for r in kb.super_properties("wdt:P463")] == ["P1416"]
    siblings = {r.id for r in kb.sub_properties("P463")}
    assert siblings == {"P53", "P54", "P102", "P114", "P550", "P611", "P4100", "P7779"}
    assert kb.super_properties("Q5") == [] and kb.sub_properties("not an id") == []


def test_types_and_superclasses(kb: LocalKB):
    assert kb.types("Q2685") == ["Q5"]
    assert kb.types("wd:Q571822") == ["Q562061", "Q667509"]  # Thal: municipality classes
    supers = kb.superclasses("Q5")
    assert {kb.label(c) for c in supers} >= {"person"}
    assert kb.superclasses("Q5", depth=0) == []
    assert kb.superclasses("Q999999999999") == []


def test_sparql_rows_and_errors(kb: LocalKB):
    rows = kb.sparql('SELECT ?p WHERE { ?p rdfs:label "member of political party"@en }')
    assert rows == [{"p": "http://www.wikidata.org/entity/P102"}]
    assert kb.sparql("ASK { wd:Q2685 wdt:P31 wd:Q5 }") is True
    with pytest.raises(UserError, match="invalid SPARQL"):
        kb.sparql("SELECT WHERE {")
