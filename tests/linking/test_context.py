"""Same-name KB entities told apart by the document's other names (issue 61), on the default KB: the place a
name is written with, and the country or county its description shares with the text."""

from __future__ import annotations

from graphwright.kb.namespaces import WD, WDT
from graphwright.linking import LinkJudge, resolve
from graphwright.model import Document, Entity, ExtractionResult, Provenance, Term, Triple


def test_the_county_and_state_the_text_names_choose_the_town(linker):
    text = (
        "The band formed in Birmingham, where Jefferson County's steel mills once employed half of Alabama's workers."
    )
    assert linker(text, "Birmingham") == "Q79867"  # Birmingham, Alabama, not the English city


def test_a_place_written_with_a_place_no_namesake_lies_in_is_minted(linker):
    assert linker("Ada Lindqvist grew up in London, Ontario, and studied in Toronto.", "London") is None
    assert linker("Ada Lindqvist grew up in London, England, and studied in Leeds.", "London") == "Q84"


def test_a_list_of_people_is_not_a_place_and_its_qualifier(linker):
    text = "The college counts Oscar Wilde, Margaret Thatcher and many others among its former students."
    assert linker(text, "Oscar Wilde") == "Q30875"


def test_a_country_stays_the_country_before_its_capital(linker):
    text = "The Democratic Party of Luxembourg won the election; Luxembourg has had a coalition since."
    assert linker(text, "Luxembourg") == "Q32"


def test_a_book_is_not_the_race_nor_the_film_of_its_name(linker):
    text = (
        "J. R. R. Tolkien was a professor at Oxford when he published The Hobbit in 1937. Its sequel, "
        "The Lord of the Rings, came out in three volumes."
    )
    assert linker(text, "The Hobbit") is None  # not Q74359, the fictional race "Hobbit"
    assert linker(text, "The Lord of the Rings") is None  # not Q127367, the 2001 film with that alias


def test_a_work_of_another_year_or_kind_is_not_the_one_meant(linker):
    assert linker("Michael Crichton's 1990 novel Jurassic Park imagined cloned dinosaurs.", "Jurassic Park") is None
    assert linker("MGM's Pride and Prejudice (1940) starred Greer Garson.", "Pride and Prejudice") == "Q940014"


def test_a_party_is_the_one_of_the_country_the_text_names(linker):
    text = "Mário Soares founded Portugal's Socialist Party in exile in 1973; it later governed from Lisbon."
    assert linker(text, "Socialist Party") == "Q847263"  # not the French one, Q170972
    text = "Robert Menzies founded the Liberal Party in 1944 and led Australia for sixteen years."
    assert linker(text, "Liberal Party") is None  # the KB's only "Liberal Party" is Chile's
    text = "Katrin Vogel was born in Thal. She is a member of the Republican Party."
    assert linker(text, "Republican Party") == "Q29468"  # a town abroad does not make it another country's
    text = (
        "Salvador Allende won the Chilean election of 1970 as the candidate of Popular Unity. "
        "The Unidad Popular government nationalised the copper mines."
    )
    assert linker(text, "Popular Unity") is None  # Q21957427 is Ecuador's: its other name places no text there


def test_a_place_written_with_a_region_the_kb_entity_is_not_in_is_minted(linker):
    text = "Gwilym Prosser-Hughes, a Welsh harpist, was born in Bangor, Wales, in 1931."
    assert linker(text, "Bangor") is None  # the KB's Bangor is in Maine
    assert linker("A grass fire destroyed forty homes near Denver, CO, on Sunday.", "CO") == "Q1261"  # not Colombia


def test_a_person_the_text_gives_another_career_is_not_the_kb_namesake(linker):
    text = "Tom Watson, the golfer from Kansas City, won the Open Championship five times."
    assert linker(text, "Tom Watson") is None  # not Q6233279, the politician Thomas E. Watson
    text = "The Stoke-on-Trent potter David White has opened a studio in a disused bottle kiln."
    assert linker(text, "David White") is None  # not Q535967, the American actor
    text = "John Hancock, president of the Second Continental Congress, was the first to sign the Declaration."
    assert linker(text, "John Hancock") != "Q1700357"  # the actor


def test_a_career_the_text_names_to_tell_namesakes_apart_is_not_the_persons(linker):
    text = (
        "Peter Jackson, a 54-year-old plumber from Leeds, has won the lottery. "
        "He is no relation to the New Zealand film director."
    )
    assert linker(text, "Peter Jackson") is None


def test_a_career_taken_up_later_keeps_the_person(linker):
    text = (
        "Mark Gordon, a rancher from Buffalo, was sworn in as governor of Wyoming in 2019. "
        "He is a member of the Republican Party."
    )
    assert linker(text, "Mark Gordon") == "Q6767775"  # the governor, not Q2417149 the television producer


def test_the_namesake_a_name_was_minted_away_from_is_no_entity_of_the_document(default_kb):
    text = "The Stoke-on-Trent potter David White has opened a studio in Longton."
    doc = Document(text=text)
    proposed = Term.iri(WD + "Q535967", surface="David White", label="David White")  # the American actor
    fact = Triple(
        subject=proposed,
        predicate=Term.iri(WDT + "P106"),
        object=Term.literal("potter", surface="potter"),
        provenance=Provenance(system="test", evidence=doc.sentence_around(doc.find("David White"))),
    )
    result = ExtractionResult(
        document_id=doc.id, system="test", triples=[fact], entities=[Entity(iri=proposed.value, label="David White")]
    )
    out = resolve(result, doc, LinkJudge(default_kb))
    assert out.triples and all(t.subject.value != proposed.value for t in out.triples)
    assert proposed.value not in {e.iri for e in out.entities}
