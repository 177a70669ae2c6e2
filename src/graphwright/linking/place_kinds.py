"""What kind of place a gloss or a KB description names, in broad kinds (issue 61).

The model's gloss says what a name is in a few words ("Blue Nile, a river"); a KB description does too
("state of Sudan"). Where one is water and the other land (or a mountain), the KB entity is another thing of
that name. Among kinds of land the gloss is too loose to judge by: the 1.5B model calls Tibet, Tahiti and
French Guiana "a country" and Hong Kong "a city", so a settlement, a region, a country and an island do not
clash (measured on the linking halves, see docs/decisions.md).
"""

from __future__ import annotations

import re

from graphwright.linking.occupations import head
from graphwright.linking.vocabulary import Vocabulary

#: kinds of place, "|" between the words for each
KINDS: dict[str, str] = {
    "settlement": (
        "city|town|village|capital|capital city|county seat|municipality|commune|comune|borough|hamlet|"
        "suburb|metropolis|port city|federal city|township"
    ),
    "region": "state|province|region|county|district|territory|prefecture|canton|department|oblast|governorate",
    "river": "river|stream|tributary|creek",
    "lake": "lake|reservoir|lagoon",
    "sea": "sea|ocean|gulf|bay|strait",
    "mountain": "mountain|peak|volcano|mountain range|hill",
    "island": "island|archipelago|isle",
    "country": "country|sovereign state|kingdom|republic|nation|empire|principality",
}
#: what clashes: kinds of different grounds
GROUNDS = {"river": "water", "lake": "water", "sea": "water", "mountain": "relief"}  # the rest: land
#: words a gloss uses for a person, whatever they do
PERSON_WORDS = frozenset(
    """leader man woman person figure hero heroine king queen boy girl child son daughter father mother brother
sister husband wife""".split()
)
PLACES = Vocabulary(KINDS)


def place_kinds(phrase: str) -> frozenset[str]:
    """The kinds of place the head of ``phrase`` names: "county seat city in Erie County" -> settlement;
    "state of Sudan" -> region; "a man" -> none."""
    return PLACES.families(head(phrase))


def grounds(kinds: frozenset[str]) -> frozenset[str]:
    return frozenset(GROUNDS.get(kind, "land") for kind in kinds)


def names_a_person(phrase: str) -> bool:
    """Whether the head of a gloss calls the name a person ("a Vietnamese revolutionary leader")."""
    return bool(PERSON_WORDS & set(re.findall(r"\w+", head(phrase).casefold())))
