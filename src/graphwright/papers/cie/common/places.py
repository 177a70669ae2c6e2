"""Place lists as texts write them: "Datong District, Taipei, Taiwan" names three places, each inside
the next. A small extractor copies such a list as one object, the search maps it to one of the three,
and the facts it states are lost. Read as a chain, it gives the first place to the triple and each
place's containing one to the next (Wikidata's P131, or P17 where the next is a country), and with a
locating property also the country to the subject.
"""

from __future__ import annotations

import re

#: properties whose value is a place, so that a list as their object is an address
PLACE_PROPERTIES = {"P131", "P276", "P17", "P19", "P20", "P159", "P740", "P551", "P937", "P706"}
#: ... and those that locate the subject itself, so that it is in the chain's country too
LOCATING = {"P131", "P276", "P17", "P706"}
COUNTRY_TYPES = {"Q6256", "Q3624078", "Q7275", "Q3024240"}  # country, sovereign state, state, historical country
CONTAINED_IN, COUNTRY = "P131", "P17"
_WITHIN = re.compile(r"\bin\b|\bof\b|\bIN\b|\bOF\b")  # a dateline writes them in capitals
_LEAD = re.compile(
    r"^(?:the|state|district|province|region|county|village|city|town|municipality)\s+of\s+|^the\s+", re.I
)


def place_chain(kb, words: str) -> list[tuple[str, str]]:
    """(KB id, its words) of each place a list names, most specific first; [] unless the words are a list of
    at least two places (each a capitalised part that is a KB name as written; other parts are skipped) and not
    themselves one name ("Republic of Korea")."""
    if kb.find_label(words.strip(), kind="entity"):
        return []
    places: dict[str, str] = {}
    for part in _parts(kb, words):
        part = _LEAD.sub("", part.strip()).strip()
        # a place in a list is a proper name, written as the KB writes it: "state" of "state of Maharashtra"
        # is no place of its own. A dateline's capitals ("GRAZ, AUSTRIA") hide the case, so it is not compared.
        hits = [r for r in kb.find_label(part, kind="entity") if _written_as(part, r)] if part[:1].isupper() else []
        if hits and len(part) > len(places.get(hits[0].id, "")):
            places[hits[0].id] = part  # the longest words that name it
    return list(places.items()) if len(places) >= 2 else []


def _written_as(part: str, record) -> bool:
    names = (record.label, *record.aliases)
    if len(part) > 2 and part.isupper():  # "US" stays as written: two capitals are an abbreviation
        return part.casefold() in {name.casefold() for name in names}
    return part in names


def _parts(kb, words: str) -> list[str]:
    """Commas separate the places; "in" and "of" only inside a part that is not a KB name itself
    ("Region of Southern Denmark" is one name, "Parner taluka in Ahmednagar district" two)."""
    return [
        piece
        for part in words.split(",")
        for piece in ([part] if kb.find_label(part.strip(), kind="entity") else _WITHIN.split(part))
    ]


def chain_triples(kb, subject: str, prop: str, places: list[str]) -> list[tuple[str, str, str]]:
    """(subject, prop, first place), then each place inside the next; all bare ids."""
    country = places[-1] if COUNTRY_TYPES & set(kb.types(places[-1])) else None
    out = [(subject, prop, places[0])]
    for inner, outer in zip(places, places[1:]):
        out.append((inner, COUNTRY if outer == country else CONTAINED_IN, outer))
    if country:
        out += [(place, COUNTRY, country) for place in places[:-2]]
        if prop in LOCATING and prop != COUNTRY:
            out.append((subject, COUNTRY, country))
    return list(dict.fromkeys(out))
