"""A side of a match in sport is a team, not the country or place of its name (issue 61)."""

from __future__ import annotations

import pytest

from graphwright.linking.teams import plays_as_team

FINAL = "Germany beat Argentina 1-0 after extra time in the 2014 World Cup final in Rio de Janeiro."


@pytest.mark.parametrize(
    ("surface", "text", "expected"),
    [
        ("Germany", FINAL, True),
        ("Argentina", FINAL, True),  # beaten by the other side
        ("Rio de Janeiro", FINAL, False),  # where it was played
        ("Greece", "Greece, 80-1 outsiders before the tournament, won Euro 2004 by beating the hosts.", True),
        ("Japan", "Japan defeated Russia at Tsushima in 1905, and the war ended that autumn.", False),  # no sport
        ("Kentucky", "Ali, born in Louisville, Kentucky, in 1942, won the Olympic title in 1960.", False),
        ("Germany", "He moved to Germany before the 2006 World Cup and coached there.", False),  # where he went
    ],
)
def test_a_side_of_a_match_is_read_from_its_sentence(surface, text, expected):
    assert plays_as_team(surface, text) is expected


def test_a_country_that_plays_a_match_is_not_linked_to_the_state(linker):
    assert linker(FINAL, "Germany") != "Q183"
    assert linker(FINAL, "Rio de Janeiro") == "Q8678"
    assert linker("Germany borders Poland and the Czech Republic to the east.", "Germany") == "Q183"
    college = "Army beat Navy 17-13 on Saturday, and the cadets meet Air Force next."
    assert linker(college, "Navy") == "Q559549"  # the Naval Academy fields the team: not a place
