"""Coarse types of the names in a text, as the extractor tags them, and what a relation expects.

They settle the direction a small model leaves loose: "Sofie Halvmark | chief executive | Korvbro" has a
person where the table's "chief executive" (organisation > person) wants the organisation, so the
fact is read the other way round. They also keep KB properties whose declared subject or value
classes (the default KB's broad classes) cannot hold the names out of the mapping call.
"""

from __future__ import annotations

from typing import Iterable, Literal

NameType = Literal["person", "organisation", "place", "work", "event", "other"]
NAME_TYPES: tuple[str, ...] = ("person", "organisation", "place", "work", "event", "other")

#: the broad classes (graphwright.kb.expected_types) an entity of each type is an instance of
BROAD_CLASSES: dict[str, frozenset[str]] = {
    "person": frozenset({"Q5", "Q215627"}),
    "organisation": frozenset({"Q43229", "Q4830453", "Q7278", "Q2385804", "Q12973014", "Q2088357"}),
    "place": frozenset({"Q2221906", "Q6256", "Q486972", "Q56061", "Q811979", "Q271669", "Q15324"}),
    "work": frozenset({"Q17537576", "Q11424", "Q482994", "Q7366", "Q5398426", "Q7725634", "Q1002697", "Q7397"}),
    "event": frozenset({"Q1656682", "Q1190554"}),
}
#: words of the relation table's "args" and the types they stand for (other words: no expectation)
ARG_TYPES: dict[str, str] = {
    "person": "person", "parent": "person", "child": "person", "player": "person", "teacher": "person",
    "actor": "person", "successor": "person", "predecessor": "person",
    "organisation": "organisation", "company": "organisation", "party": "organisation", "team": "organisation",
    "school or university": "organisation", "exchange": "organisation",
    "place": "place", "country": "place", "city": "place", "building": "place", "region": "place",
    "event": "event", "competition": "event",
    "work": "work", "film": "work", "play": "work",
}


def expected(side: str) -> frozenset[str] | None:
    """The types one side of a table entry's args allows ("person or organisation"); None: any."""
    types = set()
    for word in side.split(" or "):
        kind = ARG_TYPES.get(word.strip())
        if kind is None:
            return None  # "thing", "product", "award": the table does not narrow it
        types.add(kind)
    return frozenset(types)


def fits(name_type: str | None, allowed: frozenset[str] | None) -> bool | None:
    """Whether a name of this type can stand there; None when either side is unknown."""
    if name_type is None or name_type == "other" or allowed is None:
        return None
    return name_type in allowed


def fits_classes(name_type: str | None, classes: Iterable[str]) -> bool | None:
    """Whether a name of this type can be an instance of one of a property's declared classes."""
    classes = set(classes)
    if name_type not in BROAD_CLASSES or not classes:
        return None
    return bool(BROAD_CLASSES[name_type] & classes)


def reads_backwards(subject: str | None, obj: str | None, allows: tuple[frozenset[str] | None, frozenset[str] | None]) \
        -> bool:
    """True when the names fit the relation only the other way round."""
    forward = (fits(subject, allows[0]), fits(obj, allows[1]))
    backward = (fits(obj, allows[0]), fits(subject, allows[1]))
    return False in forward and False not in backward and True in backward
