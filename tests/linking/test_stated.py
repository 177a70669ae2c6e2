"""Nothing the text does not state: a triple whose subject or object the document does not hold is
dropped, whichever system made it (the prompt's copied example, a remembered birthplace)."""

from __future__ import annotations

from graphwright.kb.namespaces import WD, WDT
from graphwright.linking.literals import XSD
from graphwright.linking.stated import dates_in, drop_unstated, names_stated, numbers_in
from graphwright.model import Document, ExtractionResult, Provenance, Term, Triple
from graphwright.model.schema import name_entity_iri

TEXT = (
    "Maren Solberg founded Tidewater Instruments, the Danish maker of ocean sensors, in Stavanger in "
    "2016. The firm had eighty-five staff and revenue of 4.2 million euro by 30 July 2021."
)


def fact(subject: Term, prop: str, obj: Term) -> Triple:
    return Triple(subject=subject, predicate=Term.iri(WDT + prop), object=obj, provenance=Provenance(system="test"))


def name(words: str) -> Term:
    return Term.iri(name_entity_iri(words), surface=words, label=words)


def kept(*triples: Triple, kb=None) -> list[tuple[str, str]]:
    doc = Document(text=TEXT)
    result = drop_unstated(ExtractionResult(document_id=doc.id, system="test", triples=list(triples)), doc, kb)
    return [(t.predicate.value.rsplit("/", 1)[1], t.object.surface or t.object.value) for t in result.triples]


def test_a_copied_example_about_real_entities_is_dropped_and_counted():
    maren = name("Maren Solberg")
    merkel_facts = [
        fact(maren, "P106", Term.iri(WD + "Q169470", surface="physicist", label="physicist")),
        fact(maren, "P19", Term.iri(WD + "Q64", surface="Berlin", label="Berlin")),
    ]
    stated = fact(name("Tidewater Instruments"), "P112", maren)
    doc = Document(text=TEXT)
    result = drop_unstated(ExtractionResult(document_id=doc.id, system="test", triples=[*merkel_facts, stated]), doc)
    assert [t.predicate.value for t in result.triples] == [WDT + "P112"]
    assert result.extra["unstated"] == 2
    assert any("does not name 'Berlin'" in w for w in result.warnings)


def test_names_are_matched_as_whole_words_without_case_or_accents():
    company = name("Tidewater Instruments")
    assert kept(fact(company, "P159", name("stavanger"))) == [("P159", "stavanger")]
    assert kept(fact(company, "P159", name("Stav"))) == []  # a piece of a word is not the word


def test_a_country_is_stated_by_its_demonym():
    company = name("Tidewater Instruments")
    denmark = Term.iri(WD + "Q35", surface=None, label="Denmark")
    assert kept(fact(company, "P17", denmark)) == [("P17", WD + "Q35")]
    assert kept(fact(company, "P17", Term.iri(WD + "Q20", label="Norway"))) == []


def test_a_kb_entity_is_stated_by_an_alias_the_kb_knows(small_kb):
    company = name("Tidewater Instruments")
    curie = Term.iri(WD + "Q7186", label="Marie Curie")  # its alias "Madame Curie" is not in the text either
    assert kept(fact(company, "P112", curie), kb=small_kb) == []


def test_dates_and_numbers_are_compared_by_value():
    assert {"2016", "2021", "2021-07", "2021-07-30"} <= dates_in(TEXT)
    assert {85, 4200000, 2016} <= {int(x) for x in numbers_in(TEXT)}
    company = name("Tidewater Instruments")
    assert kept(fact(company, "P571", Term.literal("2016", datatype=XSD + "gYear"))) == [("P571", "2016")]
    assert kept(fact(company, "P571", Term.literal("2015", datatype=XSD + "gYear"))) == []
    assert kept(fact(company, "P585", Term.literal("2021-07", datatype=XSD + "gYearMonth"))) != []
    assert kept(fact(company, "P1128", Term.literal("85", datatype=XSD + "decimal"))) != []
    assert kept(fact(company, "P2139", Term.literal("4200000", datatype=XSD + "decimal"))) != []
    assert kept(fact(company, "P1128", Term.literal("90", datatype=XSD + "decimal"))) == []


def test_a_number_inside_a_number_is_no_date():
    assert "200" not in dates_in("It sold 1,200 units.") and "0200" not in dates_in("It sold 1,200 units.")


def test_names_in_a_script_without_spaces_are_found_inside_the_words():
    doc = Document(text="周杰伦出生于台湾省新北市。")
    triple = fact(name("周杰伦"), "P19", name("新北市"))
    result = drop_unstated(ExtractionResult(document_id=doc.id, system="test", triples=[triple]), doc)
    assert len(result.triples) == 1


def test_a_possessive_states_the_name_it_follows():
    assert names_stated(["A.F.C. Fylde"], "A.F.C. Fylde's ground is Kellamergh Park.")
    assert not names_stated(["Fyldes"], "A.F.C. Fylde's ground is Kellamergh Park.")


def test_dates_written_with_of_or_slashes():
    assert {"2013-03-16", "2013-03-17"} <= dates_in("Christened on 16th of March 2013; first sailed 3/17/2013.")
    assert "2013-04-03" not in dates_in("Sailed 3/4/2013.") and "2013-03-04" not in dates_in("Sailed 3/4/2013.")
    assert names_stated(["Assassin's Creed"], "Ubisoft's best-known series is Assassin's Creed.")


def test_a_function_word_is_never_a_name():
    from graphwright.linking.names import is_function_word

    assert all(is_function_word(w) for w in ("on", "It", "she", "we", "x", "the"))
    assert not any(is_function_word(w) for w in ("ON", "WHO", "Oslo", "Ida"))  # abbreviations, names


def test_a_possessive_or_demonstrative_phrase_points_back():
    from graphwright.linking.names import points_back

    assert all(points_back(w) for w in ("his grandfather", "Their company", "this museum"))
    assert not any(points_back(w) for w in ("My Fair Lady", "Our Lady of Lourdes", "This", "Hisham Matar"))


def test_a_short_or_capitalised_alias_is_stated_only_as_written():
    assert not names_stated(["ON"], "The terminal opened on 4 June.")
    assert names_stated(["ON"], "She moved to Kingston, ON, in 2010.")
    assert names_stated(["UN"], "She worked for the UN in Geneva.")
    assert not names_stated(["UN"], "It was un peu cher.")
    assert names_stated(["NATO"], "Nato ministers met in Oslo.")  # an acronym in title case, as some write it


def test_a_bracketed_qualifier_is_stated_by_its_words_anywhere_in_the_text():
    text = "The song by Train called Mermaid is on the Sony Music Entertainment record label."
    assert names_stated(["Mermaid (Train song)"], text)
    assert not names_stated(["Mermaid (Shakira song)"], text)  # the text has no word "Shakira"
    assert not names_stated(["Siren (Train song)"], text)


def test_full_stops_do_not_make_another_name():
    assert names_stated(["A.C. Lumezzane"], "He now manages AC Lumezzane.")
    assert names_stated(["St Louis"], "He died in St. Louis in 1966.")
    assert not names_stated(["A.C. Milan"], "He now manages AC Lumezzane.")
