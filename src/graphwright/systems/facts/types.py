"""Coarse types of the names in a text, as the extractor tags them, and what a relation expects.

The extractor writes no types (listing the names cost a small model most of its answer, and it fell into
loops there); each name's type is inferred (``infer_types``): from the KB entity of that exact name, from
the name's own words ("... GmbH", "University of ..."), else from what the document's relations say of it.
They settle the direction a small model leaves loose: "Sofie Halvmark | chief executive | Korvbro" has a
person where the table's "chief executive" (organisation > person) wants the organisation, so the
fact is read the other way round. They also keep KB properties whose declared subject or value
classes (the default KB's broad classes) cannot hold the names out of the mapping call.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import Literal

from graphwright.linking.names import PERSON_TITLES
from graphwright.linking.occupations import occupations, written_career
from graphwright.text import sentences

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
    "person": "person",
    "parent": "person",
    "child": "person",
    "player": "person",
    "teacher": "person",
    "actor": "person",
    "successor": "person",
    "predecessor": "person",
    "organisation": "organisation",
    "company": "organisation",
    "party": "organisation",
    "team": "organisation",
    "school or university": "organisation",
    "exchange": "organisation",
    "place": "place",
    "country": "place",
    "city": "place",
    "building": "place",
    "region": "place",
    "event": "event",
    "competition": "event",
    "work": "work",
    "film": "work",
    "play": "work",
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


def reads_backwards(
    subject: str | None, obj: str | None, allows: tuple[frozenset[str] | None, frozenset[str] | None]
) -> bool:
    """True when the names fit the relation only the other way round."""
    forward = (fits(subject, allows[0]), fits(obj, allows[1]))
    backward = (fits(obj, allows[0]), fits(subject, allows[1]))
    return False in forward and False not in backward and True in backward


#: last words of organisations' names (legal forms, kinds of body), and first words
_ORGANISATION_ENDS = frozenset(
    """gmbh ag inc inc. ltd ltd. llc plc sa s.a. s.r.o. s.r.o nv bv ab asa oy oyj spa
se kg co co. corp corp. corporation company group groep gruppe holding holdings systems technologies therapeutics
biosystems university institute college school academy agency bank foundation association society council
committee ministry party club fc a/s analytics studio studios labs laboratories laboratory entreprise arkitekter partners
press records publishing airlines instruments industries solutions software robotics electronics networks motors
pharmaceuticals ventures logistics shipping engineering consulting microsystems semiconductors biotech aerospace
dairy creamery brewery bakery winery distillery mills foods energy media ferries airways railways""".split()
)
_ORGANISATION_STARTS = frozenset({"university", "institute", "bank", "ministry", "academy", "college"})
_PLACE_ENDS = frozenset(
    """bridge tower building hotel station church cathedral castle palace museum stadium airport
park street square road river lake mountain island bay valley gorge harbour harbor port capitol""".split()
)
#: last words of products' names ("ChipFlow 3 analyser"): a work, made, not founded nor employing
_PRODUCT_ENDS = frozenset(
    """analyser analyzer sensor scanner printer camera phone smartphone tablet laptop console drone robot
tractor vaccine drug""".split()
)
_EVENT_STARTS = frozenset({"battle", "siege", "war", "treaty", "congress", "summit"})
_OTHER_ENDS = frozenset({"award", "prize", "medal", "cup", "trophy"})


def shape_type(name: str) -> str | None:
    """The type a name's own words give ("Brunnhaldt Antriebstechnik GmbH", "University of Porto", "Karla
    Aaløkke Bridge", "Battle of Jutland")."""
    words = name.casefold().split()
    if words[:1] == ["the"]:  # "The Treaty of Portsmouth"
        words = words[1:]
    if len(words) < 2:
        return None
    if (
        words[-1] in _ORGANISATION_ENDS
        or words[0] in _ORGANISATION_STARTS
        or _ORGANISATION_STARTS & set(words)
        or name.split()[-1] == "AS"  # Norwegian and Danish limited companies; "as" alone is an English word
    ):
        return "organisation"
    if words[-1] in _PLACE_ENDS:
        return "place"
    if words[-1] in _PRODUCT_ENDS:
        return "work"
    if words[0] in _EVENT_STARTS:
        return "event"
    if words[-1] in _OTHER_ENDS:
        return "other"
    return None


_HE_OR_SHE = re.compile(r"(?:He|She|His|Her)\b")
_BY_NAME = re.compile(r"\bby\s+(?:[a-z]+\s+){0,2}[A-Z]")


def person_cue(name: str, text: str, spans: list[str] | None = None) -> bool:
    """Whether the text itself says the name is a person's: a title before it ("Dr. Ilse Voss"), a career
    with it ("Harlan Voss, a retired engineer"; "the potter Ilse Voss"), or the sentence after one that
    opens with it opening with "He" or "She". The model's relations are read loosely by a small model
    ("Harlan Voss | founded by | Kestrel Dairy"); these are what the writer wrote. ``spans``: the text's
    sentences, where the caller has split it already."""
    if len(name.split()) < 2 or not re.match(r"[A-Z]", name):
        return False
    if re.search(rf"\b{PERSON_TITLES}\s+{re.escape(name)}(?!\w)", text):
        return True
    if occupations(written_career(name, text)):
        return True
    spans = spans if spans is not None else [s.strip() for s in sentences(text)]
    return any(
        # not after a passive sentence: "X was founded by Morag Lindsay. She ..." is about its agent
        opening.startswith(name) and not _BY_NAME.search(opening) and _HE_OR_SHE.match(following)
        for opening, following in zip(spans, spans[1:])
    )


def kb_type(types: Iterable[str]) -> str | None:
    """The name type of an entity from its classes and their superclasses; where several are reached, the
    one more of whose broad classes are (a city is a settlement, a territory and a location, and also a
    legal person: an organisation), on a tie a person before a place before the rest."""
    classes = set(types)
    reached = {kind: len(broad & classes) for kind, broad in BROAD_CLASSES.items() if broad & classes}
    order = ("person", "place", "work", "event", "organisation")
    return max(reached, key=lambda kind: (reached[kind], -order.index(kind)), default=None)


def infer_types(
    facts: Iterable[tuple[str, tuple[frozenset[str] | None, frozenset[str] | None] | None, str | None]],
    known: Callable[[str], str | None],
    text: str = "",
) -> dict[str, str]:
    """Each name's type: ``known`` (the KB's, by exact name), else its shape, else a person where ``text``
    says so (``person_cue``), else the majority of what the relations the document uses with it expect
    (``facts``: subject, the table entry's allowed types or None, object or None for a value). A name none
    of them types is left out."""
    votes: dict[str, Counter] = defaultdict(Counter)
    names: list[str] = []
    for subject, allows, obj in facts:
        names += [name for name in (subject, obj) if name]
        for name, allowed in zip((subject, obj), allows or (None, None)):
            if name and allowed is not None and len(allowed) == 1:
                votes[name][next(iter(allowed))] += 1
    types: dict[str, str] = {}
    spans = [s.strip() for s in sentences(text)]  # once for all the names, not once a name
    for name in dict.fromkeys(names):
        kind = known(name) or shape_type(name) or ("person" if text and person_cue(name, text, spans) else None)
        # one relation's word is no evidence against itself: a single vote would keep a fact the model wrote
        # backwards ("Kazimír Ondráček | founded by | Velomora") from being read the other way round
        if kind is None and sum(votes[name].values()) >= 2:
            (first, n), *rest = votes[name].most_common(2) + [(None, 0)]
            kind = first if n > rest[0][1] else None
        if kind:
            types[name] = kind
    return types
