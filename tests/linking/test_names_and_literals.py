"""Name matching (what counts as naming an entity) and typed literals per datatype."""

from __future__ import annotations

import pytest

from graphwright.linking.literals import XSD, typed_value
from graphwright.linking.names import full_name, is_number_or_date, match_name, names_fit


@pytest.mark.parametrize(
    "surface,names,kind",
    [
        ("Marie Curie", ["Marie Curie"], "exact"),
        ("marie  CURIE", ["Marie Curie"], "exact"),
        ("Katrin Jakobsdottir", ["Katrín Jakobsdóttir"], "exact"),  # accents do not make another name
        ("Madame Curie", ["Marie Curie", "Madame Curie"], "exact"),  # an alias
        ("Toronto, Canada", ["Toronto"], "exact"),  # the name, then where it is
        ("Schwarzeneger", ["Schwarzenegger"], "spelling"),
        ("Curie", ["Marie Curie"], "part"),
        ("Afghan", ["Afghanistan"], "demonym"),
        # look-alikes: a shared first name, a shared word, most letters
        ("Katrin Vogel", ["Katrín Jakobsdóttir"], "none"),
        ("Jonas Berg", ["Jonas Rivera"], "none"),
        ("Pierre Curie", ["Pierre"], "none"),
        ("Irène Joliot-Curie", ["Irene Cara"], "none"),
        ("Nordwind Logistics", ["logistics"], "none"),
        ("chemist", ["biochemistry"], "none"),
        ("Jon", ["Jonas"], "none"),
        ("The Bridge", ["bridge"], "none"),  # a proper name is not the common noun it contains
        ("the bridge", ["bridge"], "exact"),
        ("The Hague", ["The Hague"], "exact"),
    ],
)
def test_match_name(surface, names, kind):
    assert match_name(surface, names).kind == kind


@pytest.mark.parametrize(
    "datatype,text,lexical,xsd",
    [
        ("time", "1911", "1911", "gYear"),
        ("time", "in 1911", "1911", "gYear"),
        ("time", "March 1911", "1911-03", "gYearMonth"),
        ("time", "7 November 1867", "1867-11-07", "date"),
        ("time", "November 7, 1867", "1867-11-07", "date"),
        ("time", "1867-11-07", "1867-11-07", "date"),
        ("time", "+1867-11-07T00:00:00Z", "1867-11-07", "date"),  # Wikibase's own spelling
        ("time", "1911-00-00T00:00:00Z", "1911", "gYear"),
        ("quantity", "1,200", "1200", "decimal"),
        ("quantity", "3.5 million people", "3500000", "decimal"),
        ("quantity", "42 km", "42", "decimal"),
        ("string", "ACME-7", "ACME-7", "string"),
        ("external-id", "113230702", "113230702", "string"),
        ("url", "https://example.org", "https://example.org", "anyURI"),
    ],
)
def test_typed_value(datatype, text, lexical, xsd):
    value = typed_value(datatype, text)
    assert (value.lexical, value.datatype) == (lexical, XSD + xsd)


@pytest.mark.parametrize(
    "text,lexical,unit",
    [
        ("42 km", "42", "km"),
        ("253260.0 (millimetres)", "253260", "millimetres"),  # the bracketed form of a user's examples
        ("19.94 kilometres per second", "19.94", "kilometres per second"),
        ("300 square kilometres", "300", "square kilometres"),
        ("3,287,590 km^2", "3287590", "km^2"),
        ("3.5 million people", "3500000", None),  # a counted noun is no unit
        ("about 40 members", "40", None),
        ("1,200", "1200", None),
    ],
)
def test_a_quantity_keeps_its_unit_as_written(text, lexical, unit):
    value = typed_value("quantity", text)
    assert (value.lexical, value.unit) == (lexical, unit)


def test_monolingual_text_is_a_language_tagged_string():
    value = typed_value("monolingualtext", "Nordwind Logistik GmbH")
    assert (value.lexical, value.lang) == ("Nordwind Logistik GmbH", "en")


@pytest.mark.parametrize(
    "datatype,text",
    [
        ("time", "Paris"),
        ("time", "31 February 2000"),
        ("time", "March 13th"),
        ("quantity", "many"),
        ("quantity", "7 November 1867"),
        ("wikibase-item", "Paris"),
        ("globe-coordinate", "48.85, 2.35"),
    ],
)
def test_values_that_do_not_parse_give_none(datatype, text):
    assert typed_value(datatype, text) is None


def test_numbers_and_dates_are_not_names():
    assert is_number_or_date("1911") and is_number_or_date("12 May 1990") and is_number_or_date("1,200")
    assert not is_number_or_date("Paris") and not is_number_or_date("Apollo 11")
    assert is_number_or_date("240 people") and is_number_or_date("about 3,000 employees")  # counts
    assert not is_number_or_date("1860 Munich") and not is_number_or_date("3 Doors Down")  # names


TEXT = (
    "Kenji Sato-Whitfield was mayor of Ridgecrest Falls. He won the Grand Prix de Vernay. Katrin Vogel founded "
    "Nordwind Logistics in Hamburg. In Hamburg it grew. He studied at the University of Toronto in Toronto, Canada. "
    "Marie Curie was born in Warsaw. Curie moved to Paris."
)


@pytest.mark.parametrize(
    "mention,name",
    [
        ("Falls", "Ridgecrest Falls"),
        ("Grand Prix", "Grand Prix de Vernay"),
        ("Logistics", "Nordwind Logistics"),
        ("Vogel", "Katrin Vogel"),
        ("University", "University of Toronto"),
        ("Hamburg", "Hamburg"),  # "In" starts a sentence; it is not part of the name
        ("Toronto", "Toronto"),  # "of" only joins a name rightwards
        ("Curie", "Curie"),  # one occurrence stands alone
        ("Whitfield", "Whitfield"),
        ("mayor", "mayor"),
        ("Paris", "Paris"),
    ],
)
def test_full_name_grows_a_piece_of_a_name(mention, name):
    assert full_name(mention, TEXT) == name


def test_names_fit_accepts_a_name_inside_the_words_and_rejects_unrelated_hits():
    assert names_fit("French comedy film", ["comedy film"])
    assert names_fit("Datong District, Taipei, Taiwan", ["Taipei"])
    assert names_fit("Schwarzenegger", ["Arnold Schwarzenegger"])
    assert not names_fit("cake", ["Kenya", "Republic of Kenya"])
    assert not names_fit("banker", ["Bangladesh"])
    assert names_fit("the University of Oslo", ["Oslo University"])  # order and filler words aside


def test_a_short_alias_matches_only_with_its_case():
    from graphwright.linking.names import match_name

    assert match_name("on", ["Ontario", "ON"]).kind == "none"
    assert match_name("ON", ["Ontario", "ON"]).kind == "exact"
    assert match_name("the UN", ["United Nations", "UN"]).kind == "exact"
    assert match_name("un", ["United Nations", "UN"]).kind == "none"
    assert match_name("Nasa", ["National Aeronautics and Space Administration", "NASA"]).kind == "exact"
    assert match_name("Ontario", ["Ontario", "ON"]).kind == "exact"  # a long name still folds case
    assert match_name("coach", ["Coach"]).kind == "none"  # the sitcom: a common noun is no proper name
    assert match_name("beds", ["Bedfordshire", "Beds"]).kind == "none"  # hospital beds
    assert match_name("hi", ["Hindi", "hi"]).kind == "none"  # a greeting, not a language code
    assert match_name("main", ["Main page", "(main)"]).kind == "none"  # a common word, not a name in marks
    assert match_name("horsepower", ["horsepower", "hp"]).kind == "exact"  # a lowercase label stays a name


def test_a_number_written_in_words_parses():
    from graphwright.linking.literals import parse_quantity
    from graphwright.linking.stated import numbers_in

    assert parse_quantity("twenty-five staff").lexical == "25" and parse_quantity("Six developers").lexical == "6"
    assert parse_quantity("seventy thousand").lexical == "70000" and parse_quantity("sixes") is None
    assert parse_quantity("One World Trade Center") is None and parse_quantity("Seven Sisters") is None
    assert {25, 12, 90} <= numbers_in("twenty-five staff, a dozen boats and ninety oars")
