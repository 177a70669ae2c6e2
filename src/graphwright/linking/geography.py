"""Where a document is, and where a KB entity is, read from names and descriptions.

The default KB holds no country statements, but its descriptions say where things are ("capital of Malta",
"political party in the United Kingdom", "American political party", "city in Ontario, Canada"). A text's
places are its countries, its demonyms ("Maltese") and the places the KB describes ("Valletta": Malta);
an entity's are those its description names. Both are closed upwards through the descriptions of the
places named ("Lincolnshire" -> England -> United Kingdom), so that a county and its country agree.

Two same-name entities in different countries are then told apart by the document: a party "in Chile"
is not the one a text about Sydney and Australia means.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graphwright.kb.records import KBRecord
from graphwright.linking.names import DEMONYMS, FUNCTION_WORDS, normalize
from graphwright.text import opens_sentence

GEOGRAPHIC_LOCATION = "Q2221906"
COUNTRIES = frozenset({"Q6256", "Q3624078", "Q3336843"})  # country, sovereign state, country of the UK
HOPS = 3  # descriptions followed upwards: town -> county -> country -> union
_CAPITALISED = re.compile(r"[A-Z][\w'’-]*(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z][\w'’-]*)*")
_POSSESSIVE = re.compile(r"['’]s?$")
# "Boston, a market town in Lincolnshire"; "Paris, a small city in northeast Texas"; "Hamilton, at the western
# end of Lake Ontario" (", on Sunday" names no place: a bare preposition takes only a place the KB has)
_APPOSITION = r",\s+(?:(?:a|an|the)\s+(?:[a-z-]+\s+){0,4})?(?:in|of|near|on|at)\s+(?:[a-z-]+\s+){0,4}"
_DESCRIBED = r",\s+(?:a|an|the)\s+"  # the apposition says what the name is: any name after it is where
_PLACE_NAME = r"([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)*)"


def names_in(text: str) -> list[tuple[str, bool]]:
    """The capitalised names of a text, possessives cut ("Malta's" -> "Malta"), each with whether it is one
    word opening a sentence (capitalised there whatever it is: "Three years later")."""
    return [
        (_POSSESSIVE.sub("", m.group(0)), " " not in m.group(0) and opens_sentence(text, m.start()))
        for m in _CAPITALISED.finditer(text)
    ]


def is_country(record: KBRecord) -> bool:
    return bool(COUNTRIES & set(record.types)) or record.description.startswith("country ")


class Geography:
    """Countries of names, texts and KB entities, against one KB (memoised: documents repeat their names)."""

    def __init__(self, kb):
        self.kb = kb
        self._names: dict[str, frozenset[str]] = {}

    def is_place(self, record: KBRecord) -> bool:
        """Whether the entity is a geographic location (a city, a region, a country...), by its classes."""
        return is_country(record) or any(
            c == GEOGRAPHIC_LOCATION or GEOGRAPHIC_LOCATION in self.kb.superclasses(c, depth=6) for c in record.types
        )

    def of_record(self, record: KBRecord, hops: int = HOPS) -> frozenset[str]:
        """The countries (QIDs) an entity is in, as its description says; a country is in itself."""
        if is_country(record):  # the top, but for a union's parts: "country in north-west Europe, part of the UK"
            union = record.description.partition("part of ")[2]
            return frozenset({record.id} | (self._of_words(union, 0) if hops > 0 and union else set()))
        return frozenset(self._of_words(record.description, hops - 1) if hops > 0 else set())

    def of_text(self, text: str, leave_out: str | Iterable[str] = "") -> frozenset[str]:
        """The countries a text's names place it in; ``leave_out``: the mention being linked (or all the
        names of the entity it may be: "Unidad Popular" places no party of that name where "Popular Unity" is
        asked about)."""
        names = [leave_out] if isinstance(leave_out, str) else leave_out
        return frozenset(self._of_words(text, HOPS, leave_out=frozenset(normalize(n) for n in names)))

    def named(self, text: str) -> frozenset[str]:
        """The countries a text names itself, by name or demonym ("Malta's", "Estonian"), not through places."""
        words = {w for name, _ in names_in(text) for w in [normalize(name), *normalize(name).split()]}
        return frozenset().union(*(self.of_name(DEMONYMS.get(w, w), 0) for w in words))

    def of_name(self, name: str, hops: int = HOPS) -> frozenset[str]:
        """The countries the KB's entities of this name are in: the country of that name, else what all of them
        agree on ("Valletta", "Caroline Lucas": a British politician); nothing for namesakes in several."""
        key = f"{hops}:{normalize(name)}"
        if key not in self._names:
            self._names[key] = frozenset()  # a description that names its own entity does not recurse
            records = self.kb.find_label(name, kind="entity")
            country = next((r for r in records if is_country(r)), None)
            found = {self.of_record(r, hops) for r in ([country] if country else records)} - {frozenset()}
            self._names[key] = found.pop() if len(found) == 1 else frozenset()
        return self._names[key]

    def _of_words(self, text: str, hops: int, leave_out: frozenset[str] = frozenset()) -> set[str]:
        found: set[str] = set()
        for name, opens in names_in(text):
            folded = normalize(name)
            if not folded or folded in leave_out or folded in FUNCTION_WORDS:
                continue
            if hops < HOPS and name.isupper() and len(name) <= 2:  # "the movie ET" in a KB description is no
                continue  # country code (Ethiopia); the user's text is read with its codes ("Denver, CO")
            if (
                opens
                and not any(w in DEMONYMS for w in [folded, *folded.split()])
                and not any(self.is_place(r) for r in self.kb.find_label(folded))
            ):
                continue
            countries = self.of_name(DEMONYMS.get(folded, folded), hops)
            if not countries and " " in folded and not self.kb.find_label(folded, kind="entity"):
                # "Glasgow Hillhead", "Austrian-American": the places within; not "North America", a KB entity
                countries = frozenset().union(
                    *(
                        self.of_name(DEMONYMS.get(w, w), hops)
                        for w in folded.split()
                        if len(w) > 2 and w not in FUNCTION_WORDS and w not in leave_out
                    )
                )
            found |= countries
        return found

    def lies_in(self, record: KBRecord, place: str) -> bool:
        """Whether the entity's description or aliases name ``place`` (folded), or a region that the KB's
        description of ``place`` names too ("San Francisco Bay": bay on the California coast; Richmond: city
        in Contra Costa County, California). Sharing only a country is not enough: "Paris, a small city in
        Texas" is not Paris, Kentucky."""
        if normalize(record.label) == place or names_place(record, place):
            return True
        records = [r for r in self.kb.find_label(place, kind="entity") if self.is_place(r)]
        described = {normalize(name) for r in records for name, _ in names_in(r.description)}
        return any(
            names_place(record, region)
            for region in described
            if region and not any(is_country(r) for r in self.kb.find_label(region, kind="entity"))
        )

    def qualified(self, surface: str, text: str) -> list[list[KBRecord]] | None:
        """The KB's places of each name the text qualifies with ``surface``: "Denver, CO", "Melbourne, the
        capital of Victoria" -> [Denver's places], [Melbourne's places]; [[]] for a place the KB lacks that
        a code qualifies ("Savannah, GA"); None when ``surface`` qualifies no place."""
        name = re.escape(surface)
        code = surface.isupper() and 2 <= len(surface) <= 3
        found = []
        for pattern in (rf"{_PLACE_NAME},\s+{name}(?!\w)", rf"{_PLACE_NAME}{_APPOSITION}{name}(?!\w)"):
            for match in re.finditer(pattern, text):
                records = self.kb.find_label(_POSSESSIVE.sub("", match.group(1)), kind="entity")
                places = [r for r in records if self.is_place(r)]
                if places or (code and not records):  # not "Oscar Wilde, Margaret Thatcher and others"
                    found.append(places)
        return found or None

    def qualifier(self, surface: str, text: str) -> frozenset[str]:
        """The place a mention is written with, folded: "London, Ontario", "Boston, a market town in
        Lincolnshire"; for an abbreviation, the places the KB has it for ("ME": Maine, Montenegro)."""
        head, _, written_with = surface.partition(",")
        if written_with.strip():  # the system kept the qualifier in the name: "Portsmouth, New Hampshire"
            return self.qualifier(head.strip(), f"{head.strip()}, {written_with.strip()}")
        for pattern in (r",\s+" + _PLACE_NAME, _APPOSITION + _PLACE_NAME):
            match = re.search(rf"(?<!\w){re.escape(surface)}{pattern}", text)
            if match is None:
                continue
            place = _POSSESSIVE.sub("", match.group(1))  # "Córdoba, Argentina's second-largest city"
            between = match.group(0)[len(surface) :]
            if (
                pattern.startswith(_APPOSITION)
                and not re.match(_DESCRIBED, between)
                and re.fullmatch(r",\s+\w+\s+", between[: -len(match.group(1))])
                and not any(self.is_place(r) for r in self.kb.find_label(place, kind="entity"))
            ):
                continue  # ", on Sunday", ", in March": a time, not where; ", at the mouth of the Hunter River" is
            if not place.isupper():
                return frozenset({normalize(place)})
            return frozenset(
                normalize(r.label)
                for r in self.kb.find_label(place, kind="entity")
                if place in r.aliases and self.is_place(r)
            )
        return frozenset()


def names_place(record: KBRecord, place: str) -> bool:
    """Whether the entity's description or one of its aliases names ``place`` (folded) as whole words."""
    return f" {place} " in f" {normalize(' ; '.join([record.description, *record.aliases]))} "
