"""NIL decisions and open-world resolution on a hand-made KB with look-alike names."""

from __future__ import annotations

import pytest

from graphwright.kb.namespaces import WD, WDT
from graphwright.linking import Resolver, resolve
from graphwright.linking.literals import RDF_LANG_STRING, XSD
from graphwright.linking.resolve import Drop
from graphwright.model import Document, ExtractionResult, Provenance, Term, Triple

UNLINKED = "https://graphwright.dev/entity/"


def triple(doc: Document, s: tuple[str, str], p: str, o: tuple[str, str] | str, literal: bool = False) -> Triple:
    """(surface, Q id) subject, P id, and an item object (surface, Q id) or a literal."""
    obj = Term.literal(o) if literal else Term.iri(WD + o[1], surface=o[0] or None)
    return Triple(
        subject=Term.iri(WD + s[1], surface=s[0] or None),
        predicate=Term.iri(WDT + p),
        object=obj,
        provenance=Provenance(system="test", evidence=doc.sentence_around(doc.find(s[0] or "x") or doc.span(0, 1))),
    )


def run(judge, text: str, *triples) -> ExtractionResult:
    doc = Document(text=text)
    result = ExtractionResult(document_id=doc.id, system="test", triples=[triple(doc, *t) for t in triples])
    return resolve(result, doc, judge)


def test_an_exact_name_of_the_right_type_is_linked(judge, small_kb):
    evidence, decision = judge.judge(
        "Madame Curie",
        small_kb.get("Q7186"),
        document="Madame Curie",
        sentence="",
        prop=small_kb.get("P26"),
        role="value",
    )
    assert evidence.name.kind == "exact" and evidence.type_fit is True
    assert decision.linked and decision.confidence >= 0.5


def test_a_look_alike_name_is_not_linked(judge, small_kb):
    _, decision = judge.judge(
        "Katrin Vogel",
        small_kb.get("Q467464"),
        document="Katrin Vogel founded it.",
        sentence="Katrin Vogel founded it.",
        prop=small_kb.get("P112"),
        role="value",
    )
    assert not decision.linked and "not its name" in decision.reason


def test_an_exact_name_of_the_wrong_type_is_not_linked(judge, small_kb):
    _, decision = judge.judge(
        "Pierre", small_kb.get("Q40747"), document="Pierre", sentence="", prop=small_kb.get("P26"), role="value"
    )
    assert not decision.linked and "type" in decision.reason


def test_a_short_form_needs_the_full_name_in_the_document(judge, small_kb):
    marie = small_kb.get("Q7186")
    assert judge.judge(
        "Curie",
        marie,
        document="Marie Curie was born in Warsaw. Curie moved to Paris.",
        sentence="Curie moved to Paris.",
    )[1].linked
    assert not judge.judge("Curie", marie, document="Curie moved to Paris.", sentence="Curie moved to Paris.")[1].linked


def test_unknown_people_and_companies_are_minted_not_forced_on_look_alikes(judge):
    text = "Katrin Vogel founded Nordwind Logistics in Hamburg."
    out = run(
        judge,
        text,
        (("Nordwind Logistics", "Q177777"), "P112", ("Katrin Vogel", "Q467464")),
        (("Nordwind Logistics", "Q177777"), "P159", ("Hamburg", "Q1055")),
    )
    founded, hq = out.triples
    assert founded.subject.value == UNLINKED + "Nordwind%20Logistics" and founded.subject.label == "Nordwind Logistics"
    assert founded.object.value == UNLINKED + "Katrin%20Vogel" and founded.object.label == "Katrin Vogel"
    assert hq.subject.value == founded.subject.value  # one node per name in a document
    assert hq.object.value == WD + "Q1055"  # the real city stays linked
    minted = {e.iri: e for e in out.entities}
    assert set(minted) == {UNLINKED + "Nordwind%20Logistics", UNLINKED + "Katrin%20Vogel"}
    assert not any(e.linked for e in minted.values())
    assert minted[UNLINKED + "Katrin%20Vogel"].mentions[0].span.start == 0
    decisions = {(d["surface"], d["decision"]) for d in out.extra["linking"]}
    assert ("Katrin Vogel", "rejected") in decisions and ("Katrin Vogel", "minted") in decisions


def test_a_name_of_only_separators_is_dropped_not_minted(judge):
    text = "Katrin Vogel founded Nordwind Logistics.\u2028 \x85"
    out = run(judge, text, (("Nordwind Logistics", "Q177777"), "P112", ("\u2028 \x85", "Q467464")))
    assert out.triples == [] and UNLINKED not in {e.iri for e in out.entities}  # no nameless node
    assert any("is not a name" in w for w in out.warnings)


def test_a_fact_relating_an_entity_to_itself_is_dropped(judge):
    text = "Katrin Vogel founded Nordwind Logistics."
    out = run(
        judge,
        text,
        (("Katrin Vogel", "Q467464"), "P19", ("Katrin Vogel", "Q467464")),
        (("Nordwind Logistics", "Q177777"), "P112", ("Katrin Vogel", "Q467464")),
    )
    assert [(t.subject.label, t.object.label) for t in out.triples] == [("Nordwind Logistics", "Katrin Vogel")]
    assert any("relates Katrin Vogel to itself" in w for w in out.warnings)


def test_a_wrong_choice_is_replaced_by_the_kb_entity_the_text_names(judge):
    out = run(judge, "Madame Curie married Pierre Curie.", (("Madame Curie", "Q90"), "P26", ("Pierre Curie", "Q40747")))
    (t,) = out.triples
    assert t.subject.value == WD + "Q7186"  # Paris was the system's mistake; the KB has Madame Curie
    assert t.object.value == UNLINKED + "Pierre%20Curie"  # "Pierre" (given name) is not Pierre Curie


def test_a_kb_entity_of_the_wrong_type_drops_the_triple(judge):
    out = run(judge, "Marie Curie worked in Paris.", (("Marie Curie", "Q7186"), "P108", ("Paris", "Q90")))
    assert out.triples == [] and "not of a type" in out.warnings[0]


def test_years_are_literals_and_never_items(judge):
    text = "Marie Curie was born on 7 November 1867. She won the Nobel Prize in Chemistry in 1911."
    out = run(
        judge,
        text,
        (("Marie Curie", "Q7186"), "P569", ("7 November 1867", "Q2075")),
        (("Marie Curie", "Q7186"), "P166", ("1911", "Q2075")),
        (("Marie Curie", "Q7186"), "P166", ("Nobel Prize in Chemistry", "Q44585")),
    )
    born, award = out.triples
    assert (born.object.kind, born.object.value, born.object.datatype) == ("literal", "1867-11-07", XSD + "date")
    assert award.object.value == WD + "Q44585"
    assert any("'1911' is a number or date" in w for w in out.warnings)  # an award is not a year


def test_literal_datatypes(judge):
    text = "Nordwind Logistics, officially Nordwind Logistik GmbH, employs 1,200 people."
    out = run(
        judge,
        text,
        (("Nordwind Logistics", "Q177777"), "P1082", "1,200", True),
        (("Nordwind Logistics", "Q177777"), "P1448", "Nordwind Logistik GmbH", True),
        (("Nordwind Logistics", "Q177777"), "P569", "officially", True),
    )
    population, name = out.triples
    assert (population.object.value, population.object.datatype) == ("1200", XSD + "decimal")
    assert (name.object.value, name.object.lang, name.object.datatype) == ("Nordwind Logistik GmbH", "en", None)
    assert any("not a time value" in w for w in out.warnings)
    assert RDF_LANG_STRING.endswith("langString")


def test_coordinated_names_become_two_entities(judge):
    text = "Nordwind Logistics was founded by Katrin Vogel and Jonas Berg."
    out = run(judge, text, (("Nordwind Logistics", "Q177777"), "P112", ("Katrin Vogel and Jonas Berg", "Q467464")))
    assert sorted(t.object.value for t in out.triples) == [UNLINKED + "Jonas%20Berg", UNLINKED + "Katrin%20Vogel"]


def test_an_entity_the_text_does_not_name_is_dropped(judge):
    doc = Document(text="She won it.")
    t = Triple(
        subject=Term.iri(WD + "Q7186"),
        predicate=Term.iri(WDT + "P166"),
        object=Term.iri(WD + "Q44585"),
        provenance=Provenance(system="test"),
    )
    out = Resolver(judge, doc).result(ExtractionResult(document_id=doc.id, system="test", triples=[t]))
    assert out.triples == [] and "not named in the text" in out.warnings[0]


def test_failed_results_pass_through(judge):
    doc = Document(text="x")
    failed = ExtractionResult.failed(doc.id, "test", "boom")
    assert resolve(failed, doc, judge) is failed


def test_coordinated_kb_entities_are_each_linked(judge):
    text = "Nordwind Logistics ships freight between Paris and Hamburg."
    out = run(judge, text, (("Nordwind Logistics", "Q177777"), "P159", ("Paris and Hamburg", "Q90")))
    assert sorted(t.object.value for t in out.triples) == [WD + "Q1055", WD + "Q90"]
    solo = run(
        judge, "It is Hamburg and Kiel.", (("Nordwind Logistics", "Q177777"), "P159", ("Hamburg and Kiel", "Q90"))
    )
    assert [t.object.value for t in solo.triples] == [UNLINKED + "Hamburg%20and%20Kiel"]  # Kiel alone is no name


def test_a_piece_of_a_longer_name_is_not_linked_on_its_own(judge):
    out = run(
        judge,
        "Katrin Vogel founded Nordwind Logistics in Hamburg.",
        (("Katrin Vogel", "Q467464"), "P108", ("Logistics", "Q177777")),
    )
    (t,) = out.triples
    assert t.object.value == UNLINKED + "Nordwind%20Logistics" and t.object.surface == "Nordwind Logistics"


def test_a_function_word_is_dropped_not_linked(judge):
    doc = Document(text="Maren Solberg opened the hall on 4 June.")
    resolver = Resolver(judge, doc)
    with pytest.raises(Drop, match="function word"):
        resolver.link_or_mint("on", None, None, "value", doc.text)


def test_a_title_is_no_part_of_a_minted_name_whatever_system_wrote_it(judge):
    text = "Dr. Ingrid Solvang founded Fjellgard Labs in Tromsø."
    doc = Document(text=text)
    fact = Triple(
        subject=Term.literal("Fjellgard Labs", surface="Fjellgard Labs"),
        predicate=Term.iri(WDT + "P112"),
        object=Term.literal("Dr. Ingrid Solvang", surface="Dr. Ingrid Solvang"),
        provenance=Provenance(system="test", evidence=doc.sentence_around(doc.find("Fjellgard Labs"))),
    )
    out = resolve(ExtractionResult(document_id=doc.id, system="test", triples=[fact]), doc, judge)
    assert [t.object.label for t in out.triples] == ["Ingrid Solvang"]
    assert out.triples[0].object.value == UNLINKED + "Ingrid%20Solvang"
