"""Values as typed literals, by the property's Wikibase datatype.

"won the Nobel Prize in 1911" must never become an item called "1910": a time-valued property gets an
``xsd:gYear`` / ``xsd:gYearMonth`` / ``xsd:date``, a quantity an ``xsd:decimal``, strings and
identifiers a string. A surface that does not parse as the datatype asks for gives None, and the
caller drops the triple rather than store a malformed value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from graphwright.model import Term
from graphwright.model.schema import name_entity_iri

XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"

ITEM_DATATYPES = {"wikibase-item", "wikibase-property", "wikibase-lexeme", "wikibase-form", "wikibase-sense"}
#: datatypes whose values are text as written
STRING_DATATYPES = {
    "string": XSD + "string",
    "external-id": XSD + "string",
    "url": XSD + "anyURI",
    "math": XSD + "string",
    "musical-notation": XSD + "string",
    "commonsMedia": XSD + "string",
}
LITERAL_DATATYPES = {"time", "quantity", "monolingualtext", *STRING_DATATYPES}

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        (
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        )
    )
}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<year>\d{3,4})"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_DATE_FORMS = [
    re.compile(rf"^{_YEAR}-(?P<mnum>\d{{1,2}})-(?P<day>\d{{1,2}})$"),  # 1867-11-07
    re.compile(rf"^{_YEAR}-(?P<mnum>\d{{1,2}})$"),  # 1867-11
    re.compile(rf"^{_DAY} {_MONTH},? {_YEAR}$"),  # 7 November 1867
    re.compile(rf"^(?:the )?{_DAY} of {_MONTH},? {_YEAR}$"),  # 7th of November 1867
    re.compile(rf"^{_MONTH} {_DAY},? {_YEAR}$"),  # November 7, 1867
    re.compile(rf"^{_MONTH},? {_YEAR}$"),  # November 1867
    re.compile(rf"^(?:in |the year )?{_YEAR}$"),  # 1911
]


_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")  # 3/17/2013 or 17/3/2013


def _slashed_date(first: int, second: int, year: int) -> TypedValue | None:
    """A date written with slashes, when only one reading is a date: 3/17/2013 is 17 March (month first),
    17/3/2013 too (day first); 3/4/2013 could be either and is none."""
    if first > 12 >= second:
        day, month = first, second
    elif second > 12 >= first:
        month, day = first, second
    else:
        return None
    try:
        return TypedValue(date(year, month, day).isoformat(), XSD + "date")
    except ValueError:
        return None


@dataclass(frozen=True)
class TypedValue:
    lexical: str
    datatype: str
    lang: str | None = None
    unit: str | None = None  # a quantity's unit as written: "kilometres", "km/h"


_WIKIBASE_TIME = re.compile(r"^\+?(\d{3,4})-(\d{2})-(\d{2})t[\d:]+z?$")  # +1947-07-30T00:00:00Z, 00 = unknown


def parse_date(text: str) -> TypedValue | None:
    """A year, year-month or full date in the usual English spellings; None for anything else."""
    cleaned = re.sub(r"\s+", " ", text.strip().casefold())
    stamp = _WIKIBASE_TIME.match(cleaned)
    if stamp:
        year, month, day = stamp.groups()
        cleaned = "-".join(part for part in (year, month, day) if part != "00") if month != "00" else year
    slashed = _SLASHED.match(cleaned)
    if slashed:
        return _slashed_date(*map(int, slashed.groups()))
    for form in _DATE_FORMS:
        m = form.match(cleaned)
        if not m:
            continue
        parts = m.groupdict()
        year = int(parts["year"])
        month = int(parts["mnum"]) if parts.get("mnum") else _MONTHS.get(parts.get("month") or "")
        if parts.get("day"):
            try:
                return TypedValue(date(year, month or 0, int(parts["day"])).isoformat(), XSD + "date")
            except ValueError:
                return None  # 31 February, month 13
        if month:
            return TypedValue(f"{year:04d}-{month:02d}", XSD + "gYearMonth") if 1 <= month <= 12 else None
        return TypedValue(f"{year:04d}", XSD + "gYear")
    return None


_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
#: numbers written in words, the one list every reader of text uses ("six people", "twenty-five staff")
NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
} | {
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "dozen": 12,
}
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
#: a number in words: "six", "twenty-five", "ninety nine"
SPELLED_NUMBER = re.compile(
    rf"\b(?:(?P<tens>{_TENS})[- ](?P<ones>one|two|three|four|five|six|seven|eight|nine)|"
    rf"(?P<word>{'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))}))\b",
    re.IGNORECASE,
)


def spelled_value(match: re.Match[str]) -> int:
    """The value of a ``SPELLED_NUMBER`` match."""
    if match["tens"]:
        return NUMBER_WORDS[match["tens"].casefold()] + NUMBER_WORDS[match["ones"].casefold()]
    return NUMBER_WORDS[match["word"].casefold()]


_QUANTITY = re.compile(
    r"^(?:about |around |approximately |over |some )?(?P<sign>[-−])?(?P<num>\d[\d,]*(?:\.\d+)?)"
    r"(?: (?P<scale>thousand|million|billion|trillion))?(?: (?P<rest>[^\d]+?(?:\^?[23])?))?$"
)  # a unit, no other number than its power ("km^2")
# Units of measure written out or abbreviated; a counted noun ("people", "employees") is no unit, as
# Wikidata counts carry none.
_UNIT = re.compile(
    r"(?:square |cubic )?(?:(?:kilo|centi|milli|micro|nano|mega|giga)?(?:metre|meter|gram|gramme|litre|liter|"
    r"second|watt|volt|hertz|joule|byte|tonne|ton)s?|(?:k|c|m|μ|n)?(?:m|g|l|s|w|hz)|km/h|mph|kph|knots?|"
    r"miles?|feet|foot|ft|inch(?:es)?|yards?|acres?|hectares?|ha|days?|hours?|minutes?|min|h|years?|weeks?|"
    r"months?|kelvins?|degrees?(?: celsius| fahrenheit)?|°c|°f|%|per ?cent|percent|lbs?|pounds?|ounces?|oz|"
    r"kilometres? per (?:second|hour)|metres? per second|m/s|km/s|au|light[- ]years?)"
    r"(?: (?:squared|cubed))?(?:\^?[23]|²|³)?"
)


def parse_quantity(text: str) -> TypedValue | None:
    """The number of "1,200", "3.5 million people", "six people", "42 km", with the unit as written when it is one
    ("42 km", "253260.0 (millimetres)": whatever a quantity's writer put in brackets after it)."""
    written = re.sub(r"\s+", " ", text.strip())
    spelled = SPELLED_NUMBER.match(written)  # "six people": 6; "twenty-five staff": 25; not "One World Trade Center"
    if spelled and not re.search(r"(?:^|\s)[A-Z]", written[spelled.end() :]):
        written = f"{spelled_value(spelled)}{written[spelled.end() :]}"
    m = _QUANTITY.match(written.casefold())
    if not m:
        return None
    try:
        value = Decimal(m["num"].replace(",", "")) * _SCALES.get(m["scale"] or "", 1)
    except InvalidOperation:
        return None
    if m["sign"]:
        value = -value
    return TypedValue(
        format(value.normalize(), "f"), XSD + "decimal", unit=_unit(written[m.start("rest") :]) if m["rest"] else None
    )


def _unit(rest: str) -> str | None:
    bracketed = re.fullmatch(r"\((.+)\)", rest.strip())
    if bracketed:
        return bracketed.group(1).strip() or None
    return rest.strip() if _UNIT.fullmatch(rest.strip().casefold()) else None


def typed_value(datatype: str, text: str) -> TypedValue | None:
    """``text`` as a literal of a Wikibase ``datatype``; None when it does not parse or the datatype
    takes items (or cannot be written from text, e.g. coordinates and shapes)."""
    text = text.strip()
    if not text or datatype not in LITERAL_DATATYPES:
        return None
    if datatype == "time":
        return parse_date(text)
    if datatype == "quantity":
        return parse_quantity(text)
    if datatype == "monolingualtext":
        return TypedValue(text, RDF_LANG_STRING, lang="en")
    return TypedValue(text, STRING_DATATYPES[datatype])


_NUMBER = re.compile(r"^[-−]?\d[\d,]*(?:\.\d+)?$")


def name_or_value(words: str) -> Term:
    """The graph term for words the model copied from a text: a date or a bare number is a typed value,
    never a node ("in 2009" is no entity called 2009); anything else is the name's own node."""
    value = parse_date(words) or (parse_quantity(words) if _NUMBER.match(words) else None)
    if value is not None:
        return Term.literal(value.lexical, datatype=value.datatype, surface=words, unit=value.unit)
    return name_term(words)


def name_term(words: str) -> Term:
    """The graph node of a name as the text writes it. A subject is always one: a statement is about a
    thing, and a thing may be named by a number (the band 311)."""
    return Term.iri(name_entity_iri(words), surface=words, label=words)
