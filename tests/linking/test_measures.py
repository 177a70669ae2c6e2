"""A short word after a number, and a capitalised word against a common noun (issue 61)."""

from __future__ import annotations

from graphwright.linking.context import proper_against_common
from graphwright.linking.measures import after_number


def test_a_short_word_right_after_a_number_every_time_is_read_as_a_measure():
    text = "The flight leaves at 9:40 AM and lands at 12:55 EAT; they want to eat fish."
    assert after_number("AM", text) and after_number("EAT", text)
    assert not after_number("eat", text)  # written as it is, without a number
    assert after_number("MW", "a 1,500 MW solar park")
    assert not after_number("MW", "MW is a country code; a 1,500 MW park")  # once without a number: a name
    assert not after_number("Titanic", "the 1997 Titanic")  # a name, however short the number before it


def test_after_a_number_only_a_unit_time_zone_or_currency_is_linked(linker):
    assert linker("Leaving at 9:40 AM, the flight lands at 12:55 EAT.", "AM") is None  # not the Order of Australia
    assert linker("Leaving at 9:40 AM, the flight lands at 12:55 EAT.", "EAT") == "Q1773949"  # East Africa Time
    assert linker("Peak demand is expected to top 17 GW this summer.", "GW") is None  # not the university
    assert linker("The contract is for a 1,500 MW solar park.", "MW") == "Q6982035"  # megawatt, not Malawi


def test_one_capitalised_word_inside_sentences_is_a_name_not_the_common_noun():
    assert proper_against_common("Journey", "journey", "Steve Perry joined Journey as its lead singer.")
    assert proper_against_common("Depression", "depression", "in 1930, just as the Depression struck")
    assert not proper_against_common("Journey", "journey", "Journey is a band. They toured.")  # opens a sentence
    assert not proper_against_common("Labour", "Labour", "He joined Labour.")  # the KB's name is a name too
    assert not proper_against_common("NATO", "nato", "He joined NATO.")  # an acronym is written in capitals


def test_a_capitalised_band_name_is_not_linked_to_the_common_noun(linker):
    assert linker("Steve Perry joined Journey as its lead singer in 1977.", "Journey") is None  # not travel
