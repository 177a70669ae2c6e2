"""A town or county told from its namesakes by the places the text names beside it (issue 61)."""

from __future__ import annotations


def test_a_town_is_the_one_whose_county_the_text_names(linker):
    text = "Havana, a river town of about 3,000 people, is the seat of Mason County and sits on the Illinois River."
    assert linker(text, "Havana") == "Q575599"  # Havana, Illinois ("city in Mason County, Illinois"), not Cuba's
    assert linker(text, "Mason County") == "Q491343"  # the Illinois county, not Michigan's


def test_a_county_is_the_one_its_seat_names_in_its_state(linker):
    text = "Emporia, the seat of Lyon County, became known across the country through its daily paper."
    assert linker(text, "Lyon County") == "Q374442"  # Kansas's (Emporia: "county seat of Lyon County, Kansas")
    assert linker(text, "Emporia") == "Q1583523"


def test_a_place_named_in_another_state_supports_no_namesake(linker):
    text = "Superior, the seat of Douglas County, shares a harbour at the western tip of the lake."
    assert linker(text, "Douglas County") == "Q494936"  # Wisconsin's: not Georgia's, whose state's name is a country's
