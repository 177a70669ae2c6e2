"""When a KB entity was, by its description, against the years of the mention's sentences, and a fictional
character against a text that tells no story (issue 61)."""

from __future__ import annotations

import pytest

from graphwright.kb.records import KBRecord
from graphwright.linking.eras import Span, out_of_time, span, text_years


def record(description: str, types: tuple[str, ...] = ()) -> KBRecord:
    return KBRecord(id="Q1", kind="entity", label="X", description=description, types=list(types))


@pytest.mark.parametrize(
    ("description", "person", "work", "expected"),
    [
        ("American actor (1941-1992)", True, False, Span(1941, None)),
        ("English association football player (born 1996)", True, False, Span(1996, None)),
        ("audio engineer (20th century)", True, False, Span(None, None)),  # when they worked, not their birth
        ("American politician, 5th President (in office from 1817 to 1825)", True, False, Span(None, None)),
        ("1984 film by Miloš Forman", False, True, Span(1984, None)),
        ("TV series in 2000, remake of 1963", False, True, Span(2000, None)),  # the year after its kind
        ("novel by Leo Tolstoy, published in 1869", False, True, Span(None, None)),  # past the comma: not read
        ("historical constitutional monarchy in Western Europe (1707–1801)", False, False, Span(1707, 1801)),
        ("kingdom in southern Europe between 1861 and 1946", False, False, Span(1861, 1946)),
        ("former university in Paris, France from the middle ages to 1970", False, False, Span(None, 1970)),
        ("private liberal arts college in Allentown, founded 1848", False, False, Span(1848, None)),
        ("19th-century United States political party", False, False, Span(1800, None)),
        ("13th- and 14th-century empire originating in Mongolia", False, False, Span(1200, None)),
        ("castle complex in Prague, dating from the 9th century", False, False, Span(800, None)),  # no end
        ("town in Tennessee, USA", False, False, Span(None, None)),
    ],
)
def test_a_description_gives_when_the_entity_was(description, person, work, expected):
    assert span(record(description), person=person, work=work) == expected


def test_the_years_a_text_writes_are_years_not_counts_or_sums():
    text = "In 1582 she married; in the 1990s; Carthage fell in 146 BC; 1500 employees; $2000; 1,500 km; 2015."
    assert sorted(text_years(text)) == [-146, 1582, 1990, 2015]


def test_out_of_time_reads_a_persons_birth_a_works_year_and_a_states_end():
    actor = record("American actor (1941-1992)")
    assert out_of_time([1776], actor, person=True, work=False)
    assert out_of_time([1776, 1990], actor, person=True, work=False) is None  # one year of its time is enough
    assert out_of_time([], actor, person=True, work=False) is None  # no year: not judged
    film = record("1984 film by Miloš Forman")
    assert out_of_time([1979], film, person=False, work=True)
    assert out_of_time([1983], film, person=False, work=True) is None  # shot the year before its release
    monarchy = record("historical constitutional monarchy in Western Europe (1707–1801)")
    assert out_of_time([2021], monarchy, person=False, work=False)
    assert out_of_time([1750], monarchy, person=False, work=False) is None
    assert out_of_time([2021], actor, person=True, work=False) is None  # the dead are written about


def test_a_play_that_opened_before_its_film_is_not_the_film(linker):
    text = "Peter Shaffer's Amadeus opened at the National Theatre in November 1979, with Paul Scofield as Salieri."
    assert linker(text, "Amadeus") != "Q190956"  # the 1984 film


def test_a_person_of_another_century_is_not_the_modern_namesake(linker):
    text = "John Hancock signed the Declaration of Independence in Philadelphia in 1776."
    assert linker(text, "John Hancock") is None  # not the actor (1941-1992), the KB's only John Hancock
    later = "John Hancock played the judge in the 1988 television film that Lumet produced."
    assert linker(later, "John Hancock") == "Q1700357"


def test_a_character_is_not_meant_by_a_text_that_tells_no_story(linker):
    boxer = "Muhammad Ali, born Cassius Clay in Louisville in 1942, won the Olympic title in 1960."
    assert linker(boxer, "Muhammad Ali") is None  # not Q28846112, the "fictional analogon of the boxer"
    signer = "John Hancock, president of the Continental Congress, was the first to sign the Declaration."
    assert linker(signer, "John Hancock") != "Q54850974"  # the superhero
    story = "Peter Jackson's film follows Bilbo Baggins, played by Martin Freeman, with Gandalf."
    assert linker(story, "Bilbo Baggins") == "Q185737"


def test_a_character_whose_description_names_its_work_needs_that_work_in_the_text(linker):
    othello = "In Shakespeare's play Othello, the ensign Iago persuades the Moor that Desdemona is unfaithful."
    assert linker(othello, "Iago") is None  # not Q2635399, the parrot "in Disney's Aladdin franchise"
    aladdin = "In the Aladdin films, Iago is the sarcastic parrot of the vizier Jafar."
    assert linker(aladdin, "Iago") == "Q2635399"
    hamlet = "Ophelia drowns offstage in the play Hamlet, and the queen tells of her death."
    assert linker(hamlet, "Ophelia") is None  # not the character "from the 1983 film Trading Places"
    play = "Shakespeare's Hamlet opens on the battlements of Elsinore, where Prince Hamlet meets the ghost."
    assert linker(play, "Prince Hamlet") == "Q2447542"  # "character in Shakespeare's play Hamlet"
