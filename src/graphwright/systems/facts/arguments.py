"""From the words the model wrote to an argument the text states: a name (in its full form) or a value.

The model is asked for full names, but writes "Lauvås" or "the company" now and then, puts a description
before a name, or writes what it remembers. Each argument is placed in the text; a short name is grown
to the one longer name of the document it is part of ("Schwarzenegger" -> "Arnold Schwarzenegger"); a
demonym names its country ("Danish" -> Denmark); a date or number must be one the text writes. What
cannot be placed is not stated, and the fact is dropped with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal

from graphwright.linking.literals import SPELLED_NUMBER, TypedValue, parse_date, parse_quantity
from graphwright.linking.names import DEMONYMS, is_number_or_date, normalize, without_title
from graphwright.linking.stated import QUALIFIER, dates_in, dates_written, numbers_in, without_stated_qualifier
from graphwright.model import Document, Span
from graphwright.systems.facts.relations import ObjectKind
from graphwright.systems.open_triples import occurrences, place, trim, whole_words

#: words that stand for a name without being one: the model was asked to resolve them
REFERRING = frozenset(
    """he she it they him her them his hers its their theirs this that these those who which we
us our i me my you""".split()
) | {
    f"the {noun}"
    for noun in """company firm group band team city town country
university school couple pair two organisation organization museum ship bridge club party project""".split()
}
_COORDINATED = re.compile(r"\s*(?:,\s*and\s+|,\s*|\s+and\s+)")


def coordinated(
    words: str, is_one_name: Callable[[str], bool] = lambda words: False, *, nouns: bool = False
) -> list[str]:
    """ "Ingrid Lauvås and Tor Lauvås", "Germany and Austria" -> each name; anything else -> itself. Only
    capitalised names are split ("salt and pepper" is one product; with ``nouns``, where each part is a class
    such as an occupation, "physicist and mathematician" is two), not "&" ("Pennell & Drury" is a firm),
    and not one name (as ``is_one_name`` tells: "Black and Decker"). Two names with a comma and no "and"
    are a place and the place it lies in ("Kelowna, British Columbia"): the first is the one meant."""
    # "marine engineer Ingrid Lauvås and her brother Tor Lauvås": each name without what describes it
    parts = [without_description(p) for p in _COORDINATED.split(words.strip()) if p]
    if nouns and len(parts) > 1 and all(p[:1].islower() and len(p.split()) <= 2 for p in parts):
        return parts
    if len(parts) < 2 or not all(p[:1].isupper() for p in parts) or is_one_name(words.strip()):
        return [words]
    if len(parts) == 2 and not re.search(r"\band\b", words):
        return parts[:1]
    return parts


# an argument that starts so is the rest of a clause ("since the start", "for three decades")
_DEMONYMS_OF: dict[str, list[str]] = {}
for _demonym, _country in DEMONYMS.items():
    _DEMONYMS_OF.setdefault(_country, []).append(_demonym)
_LEADING_PREPOSITIONS = frozenset(
    "since for from until till during after before about across against along "
    "among around because despite like through toward towards under while with "
    "within without".split()
)
_CLAUSE_STARTS = frozenset("and but or which who whose whom while because although".split())
_VAGUE_COUNTS = frozenset({"several", "many", "few", "dozens", "hundreds", "thousands"})
_JOINING = frozenset({"of", "for", "and", "at", "on", "in", "the"})
# a number before a capitalised word that is no unit (units are in capitals: USD, MW) begins a name
_NUMBERED_NAME = re.compile(r"^\d[\d,.]*\s+(?:[A-Z][a-z]|[A-Z]\b)")
_CODE = re.compile(r"\d[-/:]\d|[A-Z]{2,}\d|\d[A-Z]{2,}")  # ISBN 1-56947-301-3, BA123, 2GB: codes, not amounts
_GLUED_UNIT = re.compile(r"^(\d[\d,.]*)(?=(?!st$|nd$|rd$|th$)[a-z]{1,3}$)")
_NUMBER = re.compile(r"^(?:about |around |over |some |nearly |more than |almost |roughly )?\d[\d,.]*\b")


_NAME = re.compile(r"[A-Z][\w'’-]*(?:(?:\s+(?:of|de|van|von|der|den|la|le|da|di|du|del))*\s+[A-Z][\w'’-]*)+")
_NOT_NAME_START = re.compile(
    r"^(?:(?:The|A|An|In|On|At|By|For|From|With|After|Before|During|Since|His|Her|Its|Their|This|"
    r"That|When|While|Under|Today)\s+)+"
)


_POSSESSIVE = re.compile(r"['’]s?$")  # "Akeem Ayers' draft round": the name is Akeem Ayers
_NAME_PARTICLES = frozenset(
    {
        "of",
        "in",
        "for",
        "the",
        "de",
        "del",
        "della",
        "di",
        "da",
        "du",
        "des",
        "van",
        "von",
        "der",
        "den",
        "la",
        "le",
        "y",
        "and",
        "on",
        "at",
        "am",
        "upon",
        "bei",
    }
)


def without_description(words: str) -> str:
    """A name without the description a model left before it when that begins with a capital:
    "Copenhagen enzyme maker Korvbro Biosystems" is Korvbro Biosystems ("University of Oslo" stays), and
    without a title ("Dr. Jonas Eide" is Jonas Eide)."""
    words = without_title(words)
    parts = words.split()
    if len(parts) < 3 or not parts[-1][:1].isupper() or parts[0][:1].isdigit():  # "875.4 million USD" is a value
        return words
    for i in range(len(parts) - 2, 0, -1):
        word = parts[i]
        if word[:1].islower() and word.casefold() not in _NAME_PARTICLES:
            rest = parts[i + 1 :]
            return " ".join(rest) if rest and rest[0][:1].isupper() else words
    return words


# a name the model wrote with the time of the fact after it: "Caledonian MacBrayne for eleven years"
_TRAILING_TIME = re.compile(
    r"^(?P<name>[A-Z][\w.'’&-]*(?:\s+[A-Z0-9][\w.'’&-]*)*)\s+(?:for|since|until|from|during|in)\s+[a-z0-9][\w\s-]*$"
)


def without_time(words: str) -> str:
    """A capitalised name without the lowercase phrase of time a model left after it ("Caledonian MacBrayne
    for eleven years", "Statoil since 2009"); "Institute for Advanced Study" stays."""
    found = _TRAILING_TIME.match(words)
    return found["name"] if found else words


_NAME_JOINERS = frozenset(
    {
        "of",
        "de",
        "del",
        "der",
        "den",
        "van",
        "von",
        "la",
        "le",
        "da",
        "di",
        "du",
        "am",
        "im",
        "upon",
        "on",
        "and",
        "&",
        "y",
    }
)


def _has_capital(words: list[str]) -> bool:
    return any(w[:1].isupper() for w in words)


def name_like(words: str) -> bool:
    """Whether words can be a name: at most six, each capitalised, a number or a joining word."""
    parts = words.split()
    return (
        0 < len(parts) <= 6
        and parts[0][:1].isupper()
        and all(p[:1].isupper() or p[:1].isdigit() or p in _NAME_JOINERS for p in parts)
    )


def text_names(text: str) -> list[str]:
    """Names of two or more capitalised words the text writes ("Ingrid Lauvås", "University of Oslo")."""
    names = (_POSSESSIVE.sub("", _NOT_NAME_START.sub("", m.group(0))) for m in _NAME.finditer(text))
    return [n for n in names if len(n.split()) > 1]


def covered(span: Span) -> str:
    """The text a span of the document covers: every span here is made by ``Document.span``, which fills it in."""
    assert span.text is not None, "a span of the document holds its text"
    return span.text


@dataclass(frozen=True)
class Argument:
    words: str  # the name or value as the text writes it (a name in its full form)
    span: Span  # where the text states it
    kind: ObjectKind
    value: TypedValue | None = None  # a date's or number's typed value
    name: str | None = None  # the name to look up when it differs from the words ("Denmark" for "Danish")

    @property
    def lookup(self) -> str:
        return self.name or self.words


class Grounder:
    """Places the arguments of one document's facts in its text."""

    def __init__(self, document: Document, names: list[str], max_words: int, *, written_forms: bool = False):
        """``names``: the names the model wrote for this document; the text's own names join them. With
        ``written_forms`` (the user's examples set how names are written) a name the text states with other
        punctuation or without its qualifier ("St. Louis" for "St Louis", "Mermaid (Train song)" where the
        text says "the Train song Mermaid") keeps the model's form."""
        self.document, self.max_words, self.written_forms = document, max_words, written_forms
        self.text_names = [" ".join(n.split()) for n in text_names(document.text)]
        # only the model's arguments that are names can be a short name's full form: not "The American
        # president Theodore Roosevelt had brought the two sides together"
        found = [without_description(" ".join(n.split())) for n in names if name_like(n)] + self.text_names
        self.names = sorted({n for n in found if n[:1].isupper()}, key=len, reverse=True)
        self._name_words = [(name, normalize(name).split()) for name in self.names]  # folded once, read per argument

    def pair(self, head: str, tail: str, within: Span | None = None) -> tuple[Argument | str, Argument | str]:
        """Subject and object, each placed at its occurrence nearest the other's (the sentence that states
        the fact, ``within`` when the model said which); a short name that several full names end with takes
        the one nearest the other argument."""
        subject, obj = self.ground(head), self.ground(tail)
        if isinstance(subject, str) or isinstance(obj, str):
            return subject, obj
        subject = self._nearest_full_name(subject, obj.span)
        obj = self._nearest_full_name(obj, subject.span)
        spans = self._nearest(covered(subject.span), covered(obj.span), within)
        if spans:
            subject, obj = replace(subject, span=spans[0]), replace(obj, span=spans[1])
        return subject, obj

    def _nearest(self, first: str, second: str, within: Span | None = None) -> tuple[Span, Span] | None:
        """The occurrences of two strings closest together, inside ``within`` where both can be."""
        pairs = [(a, b) for a in occurrences(self.document, first) for b in occurrences(self.document, second)]
        if not pairs:
            return None

        def outside(span: Span) -> bool:
            return within is not None and not (within.start <= span.start and span.end <= within.end)

        return min(pairs, key=lambda ab: (outside(ab[0]) + outside(ab[1]), abs(ab[0].start - ab[1].start), ab[0].start))

    def _nearest_full_name(self, argument: Argument, near: Span) -> Argument:
        if argument.kind != "item" or not argument.words[:1].isupper() or self._named_alone_first(argument.words):
            return argument
        longer = self._longer_names(argument.words)
        if len(longer) < 2:
            return argument
        spans = [(s, name) for name in longer for s in occurrences(self.document, name)]
        if not spans:
            return argument
        sentence = self.document.sentence_around(near)
        span, name = min(
            spans, key=lambda sn: (not (sentence.start <= sn[0].start < sentence.end), abs(sn[0].start - near.start))
        )
        return Argument(name, span, "item")

    def ground(self, words: str) -> Argument | str:
        """The argument, or why the text does not state it."""
        # the model's form, its full stops kept ("Torino F.C.")
        written = " ".join(words.split()).strip(" \"'“”‘’,;:")
        words = without_time(without_description(trim(words.strip(" \t\n\"'“”‘’.,;:"))))
        if not words:
            return "an empty argument"
        if len(words.split()) > self.max_words:
            return f"{words!r} is a clause, not a name or value"
        folded = words.casefold()
        if folded in REFERRING:
            return f"{words!r} refers to a name it does not give"
        words = re.sub(
            r"^(?:to|at|of|in|on|by)\s+(?=(?:about |around |over |some |nearly |more than |almost )?\d)", "", words
        )  # "grows to about 9 millimetres", "in 2015"
        words = _GLUED_UNIT.sub(r"\1 ", words)  # "253.26m"
        if is_number_or_date(words) or (_NUMBER.match(words) and not _NUMBERED_NAME.match(words)):
            value = self._value(re.sub(r"\s+in\s+\d{4}$", "", words))  # "61 million euros in 2023": the amount
            code = place(self.document, words) if isinstance(value, str) and _CODE.search(words) else None
            # a code the text writes as it stands ("ISBN 1-56947-301-3") is kept as a name, not lost
            return Argument(covered(code), code, "item") if code is not None else value
        first, *rest = words.split()
        if SPELLED_NUMBER.fullmatch(first) and first.casefold() not in ("one", "zero") and not _has_capital(rest):
            # "six", "six people", "twenty-five staff": a count ("one of the founders" is no number, "Seven
            # Sisters" a name)
            count = self._value(words) if len(rest) <= 2 else None
            return count if isinstance(count, Argument) else f"{words!r} is a phrase, not a name or value"
        if folded.split()[0] in _LEADING_PREPOSITIONS or (
            folded.split()[0] in _VAGUE_COUNTS and len(folded.split()) > 1
        ):
            return f"{words!r} is a phrase, not a name or value"  # "since the start", "several developers"
        if folded.split()[0] in _CLAUSE_STARTS and len(folded.split()) > 2:
            return f"{words!r} is a clause, not a name or value"  # "and historians have argued about the result"
        span = place(self.document, words)
        if span is None or (" " not in folded and self._only_inside(covered(span))):
            demonym = self._demonym_of_country(folded)  # "Mexico" where the text says "Mexican" (and "Mexico City")
            if demonym:
                return demonym
        if span is None and self.written_forms:
            kept = self._written_form(words)
            if kept:
                return kept
        if span is None:
            return f"the text does not hold {words!r}"
        stated = covered(span)
        longer = self._longer_names(stated) if stated[:1].isupper() and not self._named_alone_first(stated) else []
        if len(longer) == 1:
            return Argument(longer[0], place(self.document, longer[0]) or span, "item")
        inside = None if longer else self._only_inside(stated)  # several: pair() takes the nearest
        if inside:
            return f"the text names {words!r} only inside {inside!r}"
        country = DEMONYMS.get(folded) if " " not in folded else None
        if self.written_forms and written != stated and self._holds_form(written, span):
            return Argument(written, span, "item")
        return Argument(stated, span, "item", name=country.title() if country else None)

    def _holds_form(self, written: str, span: Span) -> bool:
        """Whether the model's form of a name the text states is that name with what the text holds around
        it: its final full stop ("Washington, D.C.") or a bracketed qualifier whose words the text has."""
        stated = covered(span)
        if (
            written == stated + "." and self.document.text[span.end : span.end + 1] == "." and "." in stated.split()[-1]
        ):  # an abbreviation's, not the sentence's
            return True
        return bool(QUALIFIER.search(written)) and without_stated_qualifier(written, self.document.text) == stated

    def _written_form(self, words: str) -> Argument | None:
        """The model's form of a name whose words the text holds: the name without its bracketed qualifier
        or its full stops is in the text, and so is every word of the qualifier."""
        bare = without_stated_qualifier(words, self.document.text)
        if not bare:
            return None
        span = place(self.document, bare) or place(self.document, bare.replace(".", ""))
        return Argument(words, span, "item") if span is not None else None

    def _demonym_of_country(self, country: str) -> Argument | None:
        for demonym in _DEMONYMS_OF.get(country, ()):
            span = place(self.document, demonym)
            if span is not None and covered(span)[:1].isupper():
                return Argument(covered(span), span, "item", name=country.title())
        return None

    def _value(self, words: str) -> Argument | str:
        date = parse_date(words) if not re.fullmatch(r"\d{1,3}", words) else None  # "250 staff": no year 0250
        if date is not None:
            if date.lexical not in dates_in(self.document.text):
                return f"the text gives no date {words!r}"
            fuller = self._fuller_date(date)
            if fuller is not None:
                return fuller
            return Argument(words, place(self.document, words) or self._first_date(date), "date", date)
        number = parse_quantity(words)
        if number is None:
            return f"{words!r} is neither a date nor a number"
        if Decimal(number.lexical) not in numbers_in(self.document.text):
            return f"the text gives no number {words!r}"
        span = place(self.document, words) or place(
            self.document, found.group(0).strip() if (found := _NUMBER.match(words)) else words
        )
        return Argument(words, span or self.document.span(0, 0), "number", number)

    def _fuller_date(self, date: TypedValue) -> Argument | None:
        """The one date the text writes in full where the model wrote only its year (or month): "1998" for
        "founded on 14 April 1998", when the text never writes that year alone."""
        written = [
            (start, end, value)
            for start, end, value in dates_written(self.document.text)
            if value.startswith(date.lexical)
        ]
        fuller = {value for _, _, value in written if len(value) > len(date.lexical)}
        if len(fuller) != 1 or any(value == date.lexical for _, _, value in written):
            return None
        start, end, _ = next(w for w in written if w[2] in fuller)
        span = self.document.span(start, end)
        return Argument(covered(span), span, "date", parse_date(covered(span)))

    def _first_date(self, date: TypedValue) -> Span:
        """Where the text writes the date the model spelt otherwise ("1961-05-04" for "4 May 1961")."""
        for start, end, value in dates_written(self.document.text):
            if value.startswith(date.lexical):
                return self.document.span(start, end)
        return self.document.span(0, 0)

    def _longer_names(self, words: str) -> list[str]:
        """The document's longer names that begin or end with these words, as a person's full name ends
        with the surname; not a name that holds them after "of" ("Technical University of Denmark")."""
        key = normalize(words).split()
        found = []
        for name, words_of in self._name_words:
            if len(words_of) <= len(key):
                continue
            # a first word grows ("Korvbro" -> "Korvbro Biosystems"), a full name does not ("Karla Aaløkke" is no
            # short form of "Karla Aaløkke Bridge"); a last name grows ("Meitner" -> "Lise Meitner")
            if (len(key) == 1 and words_of[0] == key[0]) or (
                words_of[-len(key) :] == key and words_of[-len(key) - 1] not in _JOINING
            ):
                found.append(name)
        return found

    def _only_inside(self, words: str) -> str | None:
        """The longer name of the text that every occurrence of ``words`` is part of, if any: "Denmark" in a
        text that only says "Technical University of Denmark" names no country."""
        if not words[:1].isupper():
            return None
        containing = self._containing(words)
        if not containing:
            return None
        return None if self._alone(words, containing) else containing[0]

    def _named_alone_first(self, words: str) -> bool:
        """Whether the text writes these words alone before any longer name holding them: "Ubisoft is a
        French publisher ... Ubisoft Montreal" introduces Ubisoft in its own right, whereas in "Arnold
        Schwarzenegger ... Schwarzenegger" the surname is a short form."""
        containing = self._containing(words)
        alone = self._alone(words, containing)
        if not containing or not alone:
            return False
        first_longer = min(self.document.text.find(name) for name in containing)
        return alone[0] < first_longer

    def _containing(self, words: str) -> list[str]:
        pattern = whole_words(words)
        return [n for n in self.text_names if len(n) > len(words) and re.search(pattern, n)]

    def _alone(self, words: str, containing: list[str]) -> list[int]:
        """Where the text writes ``words`` outside the longer names that hold them."""
        text = self.document.text
        if containing:  # blanked, not cut out, so that positions stay those of the text
            text = re.sub(
                "|".join(map(re.escape, sorted(containing, key=len, reverse=True))),
                lambda m: " " * len(m.group(0)),
                text,
            )
        return [m.start() for m in re.finditer(whole_words(words), text)]
