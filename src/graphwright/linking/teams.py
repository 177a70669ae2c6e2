"""A side of a match in sport is a team, not the country or place of its name (issue 61).

"Germany beat Argentina 1-0 in the World Cup final" and "Greece won Euro 2004" name the teams, not the
states: linked to the country, "Mario Götze | member of sports team | Germany" would put a footballer in
a state, and "Germany | country | ..." would read a team's facts as a nation's. Where a sentence writes
the name as a side of a match (beating, drawing with, losing to, playing, or beaten by another) and speaks
of sport, a country, a place or a civilisation is not meant; the KB's team (or the college or academy
that fields it: "Army beat Navy 17-13"), where it holds one by that name, or a minted name stands instead.
"""

from __future__ import annotations

import re

from graphwright.kb.records import KBRecord
from graphwright.linking.geography import is_country
from graphwright.linking.occupations import head
from graphwright.linking.place_kinds import PLACES
from graphwright.text import sentences_with

_PLAYS = (
    r"(?:beat|beats|defeated|defeats|drew|draws|lost|loses|won|wins|played|plays|faced|faces|edged|thrashed|routed|"
    r"knocked out|eliminated)"
)
# not a bare "to" or "with": "he moved to Germany before the World Cup" names the country
_BY = r"(?:beat|beating|beaten by|defeated|defeating|against|versus|vs\.?|drew with|lost to|knocked out|eliminated)"
_PREPOSITION = r"(?:in|on|at|from|of|near|by|born)\b"  # "Louisville, Kentucky, in 1942, won": not Kentucky
_CIVILISATION = re.compile(r"\bcivili[sz]ation", re.I)  # Ancient Greece; not a "civilian" body
_SPORT = re.compile(
    r"\b(?:finals?|semi-finals?|quarter-finals?|cup|match|matches|game|goals?|scored|tournament|championships?|"
    r"league|olympics?|olympic|euro \d{4}|world cup|squad|coach|kick-off|penalt(?:y|ies)|extra time|"
    r"captain|striker|goalkeeper|innings|wickets?|tries|set point|medal)\b|\b\d{1,2}\s*[-–]\s*\d{1,2}\b",
    re.I,
)


def plays_as_team(surface: str, text: str) -> bool:
    """Whether a sentence of the text writes ``surface`` as a side of a match in sport (an apposition may
    come between: "Greece, 80-1 outsiders before the tournament, won Euro 2004")."""
    name = re.escape(surface)
    side = re.compile(
        rf"(?<!\w){name}(?:,\s(?!{_PREPOSITION})[^,.]{{1,60}},)?\s+(?:have\s+|has\s+|had\s+)?{_PLAYS}\b|\b{_BY}\s+{name}(?!\w)",
        re.I,
    )
    return any(side.search(sentence) and _SPORT.search(sentence) for sentence in sentences_with(surface, text))


def cannot_play(record: KBRecord) -> bool:
    """Whether the entity is a country, a place or a civilisation by its description: no side of a match.
    (By classes nearly everything is an organisation in Wikidata, a country and a college alike.)"""
    described = record.description or ""
    kind = " ".join(w for w in head(described).split() if w.islower())  # not "United States federal academy"
    return is_country(record) or bool(PLACES.families(kind)) or bool(_CIVILISATION.search(described))
