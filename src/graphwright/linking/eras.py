"""When a KB entity was, as its description says it, against the years a text writes (issue 61).

The KB often holds a modern namesake of a historical entity it lacks: the actor John Hancock "(1941-1992)"
for the signer of 1776, a "1995 historical drama film" Restoration for the Restoration of 1660, the
"19th-century United States political party" for the Whigs of Walpole's day. A text whose every year lies
before such an entity began (a person's birth, a work's year, a body's founding) cannot mean it; nor can
a text whose every year lies after a state, body or era ended ("Great Britain (1707-1801)" in a text of
2021 is the island). The years read are those of the sentences that hold the mention: a document's other
years are often another time ("in 1096 teaching had begun" beside Margaret Thatcher). Only the description
is read: the KB slice holds no dates. A person's or a work's end is never used (the dead are written
about, old films shown), and a mention whose sentences write no year is not judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphwright.kb.records import KBRecord

_Y = r"(\d{3,4})"
_DASH = r"\s*[-–—]\s*"
# a person's life or a body's years: "(1941-1992)", "(born 1996)", "(c. 1450 – 1519)", "1911 - 1985"
_RANGE = re.compile(rf"\((?:born |b\. |c\. |ca\. )?{_Y}(?:{_DASH}(?:c\. )?(\d{{3,4}})?)?[;)]")
_OPENING_RANGE = re.compile(rf"^(?:c\. )?{_Y}{_DASH}(\d{{3,4}})?")
_BORN = re.compile(rf"\(born {_Y}\)")
# a body's or a state's: "existed from 1949 to 1990", "between 1861 and 1946", "founded 1848"
_FROM_TO = re.compile(rf"\b(?:from|between) {_Y} (?:to|and|until) {_Y}\b")
_TO = re.compile(rf"\bto {_Y}\b")
_FOUNDED = re.compile(rf"\b(?:founded|established|formed|created|opened|built)(?: in)? {_Y}\b", re.I)
_LEAD_YEAR = re.compile(rf"^{_Y}\b(?!\s*[-–—])")
# a work's year after its kind, before the first comma: "TV series in 2000, remake of 1963"
_KIND_YEAR = re.compile(
    rf"^[^,;(]*?\b(?:film|movie|series|serial|show|programme|program|novel|book|play|musical|opera|album|song|"
    rf"single|game)\s+(?:in|of|from)\s+{_Y}\b"
)
# the first of "13th- and 14th-century"; a century gives a start, never an end ("a castle dating from the 9th
# century" stands today)
_CENTURY = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)\b(?:[- ]*(?:and|or|to|–)?[- ]*\d{1,2}(?:st|nd|rd|th))?[- ]century\b(?! (?:BC|BCE|B\.C\.))"
)

# years a text writes: "in 1582", "the 1990s", "146 BC"; not counts and sums ("1500 employees", "$2000")
_BC = re.compile(r"\b(\d{1,4})\s*(?:BC|BCE|B\.C\.)(?!\w)")
_TEXT_YEAR = re.compile(r"(?<![\w$€£¥.,])(1[0-9]{3}|20[0-9]{2})(?:s\b|(?![\w,.]\d|\w))")
_COUNTED = re.compile(
    r"\s+(?:[a-z]+-)?(?:people|persons|men|women|children|staff|employees|workers|members|residents|"
    r"inhabitants|students|soldiers|troops|copies|units|cars|ships|tonnes|tons|km|kilometres|kilometers|"
    r"miles|metres|meters|feet|ft|hectares|acres|dollars|euros|pounds|kroner|francs|yen|votes|seats|pages|"
    r"words|times|square)\b"
)

PERSON_MARGIN = 0  # no one acts before birth
WORK_MARGIN = 1  # a film shot the year before its release
BODY_MARGIN = 10  # a body's founding and a state's end are written loosely ("traces its roots to")


@dataclass(frozen=True)
class Span:
    """The years an entity's description gives: when it began, and for bodies, states and eras, when it
    ended (None: not said)."""

    start: int | None
    end: int | None


def span(record: KBRecord, *, person: bool, work: bool) -> Span:
    """What the description says of when the entity was: a person's birth, a work's year, a body's or a
    state's first and last years."""
    text = record.description or ""
    if person:
        match = _BORN.search(text) or _RANGE.search(text) or _OPENING_RANGE.match(text)
        return Span(int(match.group(1)) if match else None, None)  # not a century: "(20th century)" is
        # when a person worked, not when they were born
    if work:
        match = _LEAD_YEAR.match(text) or _KIND_YEAR.match(text)
        return Span(int(match.group(1)) if match else None, None)
    if match := _FROM_TO.search(text) or _RANGE.search(text):
        end = match.group(2)
        return Span(int(match.group(1)), int(end) if end else None)
    start = _FOUNDED.search(text) or _LEAD_YEAR.match(text)
    end = _TO.search(text)
    return Span(int(start.group(1)) if start else _century(text), int(end.group(1)) if end else None)


def _century(text: str) -> int | None:
    match = _CENTURY.search(text)
    return (int(match.group(1)) - 1) * 100 if match else None


def text_years(text: str) -> list[int]:
    """The years a text writes, BC ones negative ("146 BC" is -146); a decade counts as its first year."""
    years = [-int(m.group(1)) for m in _BC.finditer(text)]
    masked = _BC.sub(" ", text)
    for match in _TEXT_YEAR.finditer(masked):
        if _COUNTED.match(masked, match.end()):
            continue
        years.append(int(match.group(1)))
    return years


def out_of_time(years: list[int], record: KBRecord, *, person: bool, work: bool) -> str | None:
    """Why the entity cannot be the one a text of these years means, or None."""
    if not years:
        return None
    when = span(record, person=person, work=work)
    margin = PERSON_MARGIN if person else WORK_MARGIN if work else BODY_MARGIN
    if when.start is not None and max(years) < when.start - margin:
        began = "was born" if person else "is of" if work else "began"
        return f"the text's years end at {max(years)}, {record.id} {began} in {when.start}"
    if not person and not work and when.end is not None and min(years) > when.end + margin:
        return f"the text's years start at {min(years)}, {record.id} ended in {when.end}"
    return None
