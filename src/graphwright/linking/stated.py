"""Nothing the text does not state: every argument of every fact must be in the document.

A small model copies its prompt's example, or writes what it remembers about a name ("born in Berlin"
for a text that never says Berlin). Whatever the system, a triple is kept only when both its subject
and its object are in the text:

* a name: its words as the system took them from the text, or the KB label or an alias, occur as
  whole words (case and accents aside); a country also by its demonym ("the Danish firm");
* a date: the text writes that date, at that precision or finer ("30 July 1947" states 1947-07-30,
  1947-07 and 1947);
* a number: the text writes that number ("1,200", "4.2 million", "eighty-five");
* other text values: their words occur.

``StatedOnly`` wraps every system (``make_system``): it drops the other triples, says why in the
result's warnings and counts them in ``extra["unstated"]``.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from typing import Any

from graphwright.kb.namespaces import is_unlinked, parse_wikidata_id
from graphwright.kb.protocol import KnowledgeBase
from graphwright.linking.literals import NUMBER_WORDS, SPELLED_NUMBER, XSD, parse_date, parse_quantity, spelled_value
from graphwright.linking.names import case_bound, case_fits, demonym_of, normalize
from graphwright.model import Document, ExtractionResult, Term

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DATE_EXPRESSIONS = re.compile(
    rf"(?<![\w,.])(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+\d{{3,4}}|\d{{1,2}}/\d{{1,2}}/\d{{4}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{3,4}}"
    rf"|{_MONTH}\s+\d{{3,4}}|\d{{4}}-\d{{1,2}}(?:-\d{{1,2}})?|\d{{3,4}})(?!\w|[,.]\d)",
    re.IGNORECASE,
)
_NUMBERS = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:\s+(?:thousand|million|billion))?", re.IGNORECASE)
# scripts written without spaces between words (Chinese, Japanese, Thai): a name is a substring there
_POSSESSIVE_S = re.compile(r"(?<=\w)['’]s\b")
_UNSPACED = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_TIME_TYPES = {XSD + "date", XSD + "gYear", XSD + "gYearMonth", XSD + "dateTime"}


@lru_cache(maxsize=256)
def _folded(text: str) -> str:
    """The text's words as ``normalize`` makes names (lower case, no accents, punctuation as spaces),
    between spaces, so that " name " finds whole words."""
    return " " + _normalized(text) + " "


@lru_cache(maxsize=256)
def _folded_without_stops(text: str) -> str:
    """``_folded`` of the text with its full stops taken out, not spaced: "A.C." as "ac"."""
    return _folded(text.replace(".", ""))


@lru_cache(maxsize=256)
def _text_words(text: str) -> frozenset[str]:
    return frozenset(_folded(text).split())


def _normalized(words: str) -> str:
    """``normalize``, with a possessive's "'s" apart on both sides: "A.F.C. Fylde's ground" names A.F.C.
    Fylde, and "Assassin's Creed" is still itself."""
    return normalize(_POSSESSIVE_S.sub(" s", words))


@lru_cache(maxsize=256)
def _capitalised_words(text: str) -> frozenset[str]:
    """The words that may be a demonym: capitalised, letters only ("Austrian" of "Austrian-born")."""
    return frozenset(w for w in re.findall(r"[^\W\d_]+", text) if w[:1].isupper())


QUALIFIER = re.compile(r"\s*\(([^()]+)\)\s*$")  # "Mermaid (Train song)": what tells it from its namesakes


def without_stated_qualifier(name: str, text: str) -> str | None:
    """The name without its bracketed qualifier when the text holds every word of the qualifier
    ("Mermaid" of "Mermaid (Train song)" in "the Train song Mermaid"); the name itself when it has
    none; None when the text lacks a word of it."""
    qualifier = QUALIFIER.search(name)
    if qualifier is None:
        return name
    if not set(_normalized(qualifier.group(1)).split()) <= _text_words(text):
        return None
    return QUALIFIER.sub("", name).strip() or None


def names_stated(names: list[str], text: str) -> bool:
    """One of ``names`` occurs in the text as whole words (case and accents aside; inside the words of a
    script without spaces), or is a country one of its capitalised words is the demonym of. A bracketed
    qualifier need not be next to the name, only in the text; full stops do not make another name."""
    folded = _folded(text)
    for written in names:
        name = without_stated_qualifier(written, text)
        if name is None:
            continue
        key = _normalized(name)
        if not key:
            continue
        if case_bound(name):  # "ON" (Ontario) is not stated by "opened on 4 June"
            if any(
                case_fits(m.group(0), name)
                for m in re.finditer(rf"(?<!\w){re.escape(name.strip())}(?!\w)", text, re.IGNORECASE)
            ):
                return True
            continue
        if f" {key} " in folded or (_UNSPACED.search(key) and key in folded):
            return True
        if f" {_normalized(name.replace('.', ''))} " in _folded_without_stops(text):
            return True  # full stops aside: "A.C. Lumezzane" is stated by "AC Lumezzane", and the other way
        # a demonym adds an ending of a few letters: "Stavanger" is no demonym of "Stav"
        if any(len(word) - len(key) <= 4 and demonym_of(word, name) for word in _capitalised_words(text)):
            return True
    return False


@lru_cache(maxsize=256)
def dates_written(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, value) of every date the text writes, in order."""
    found = ((m.start(), m.end(), parse_date(m.group(0))) for m in _DATE_EXPRESSIONS.finditer(text))
    return tuple((start, end, parsed.lexical) for start, end, parsed in found if parsed)


@lru_cache(maxsize=256)
def dates_in(text: str) -> frozenset[str]:
    """Every date value the text writes, with the year and year-month of each full date."""
    values: set[str] = set()
    for _, _, value in dates_written(text):
        parts = value.split("-")
        values.update("-".join(parts[:n]) for n in range(1, len(parts) + 1))
    return frozenset(values)


@lru_cache(maxsize=256)
def numbers_in(text: str) -> frozenset[Decimal]:
    values = set()
    for match in _NUMBERS.finditer(text):
        parsed = parse_quantity(match.group(0))
        if parsed:
            values.add(Decimal(parsed.lexical))
        values.add(Decimal(match.group(0).split()[0].replace(",", "")))
    for spelled in SPELLED_NUMBER.finditer(text):
        values.add(Decimal(spelled_value(spelled)))
        if spelled["tens"]:  # "twenty-five" gives 20 and 5 too, as the words alone did
            values.update(Decimal(NUMBER_WORDS[spelled[part].casefold()]) for part in ("tens", "ones"))
    return frozenset(values)


def unstated(term: Term, text: str, kb: KnowledgeBase | None = None) -> str | None:
    """Why the text does not state ``term``; None when it does."""
    if term.kind == "literal":
        if term.datatype in _TIME_TYPES:
            return None if term.value.lstrip("+") in dates_in(text) else f"the text gives no date {term.value}"
        if term.datatype == XSD + "decimal" or term.datatype == XSD + "integer":
            try:
                return None if Decimal(term.value) in numbers_in(text) else f"the text gives no number {term.value}"
            except ArithmeticError:
                return f"{term.value!r} is not a number"
        words = [w for w in (term.surface, term.value) if w]
        return (
            None
            if names_stated(words, text) or _value_words(words, text)
            else f"the text does not write {term.value!r}"
        )
    names = [w for w in (term.surface, term.label) if w]
    if not is_unlinked(term.value) and kb is not None:
        record = kb.get(parse_wikidata_id(term.value) or term.value)
        if record is not None:
            names += [record.label, *record.aliases]
    if names_stated(names, text):
        return None
    shown = term.surface or term.label or term.value
    return f"the text does not name {shown!r}"


def _value_words(words: list[str], text: str) -> bool:
    """A value the system wrote as the text does (a date or number in its own spelling)."""
    for word in words:
        if (date := parse_date(word)) and date.lexical in dates_in(text):
            return True
        if (number := parse_quantity(word)) and Decimal(number.lexical) in numbers_in(text):
            return True
    return False


def drop_unstated(result: ExtractionResult, document: Document, kb: KnowledgeBase | None = None) -> ExtractionResult:
    """The result without the triples whose subject or object the text does not state."""
    if result.status != "ok" or not result.triples:
        return result
    kept, why = [], []
    for triple in result.triples:
        reason = unstated(triple.subject, document.text, kb) or unstated(triple.object, document.text, kb)
        if reason:
            why.append(f"dropped {_show(triple)}: {reason}")
        else:
            kept.append(triple)
    if not why:
        return result
    return result.model_copy(
        update={"triples": kept, "warnings": result.warnings + why, "extra": {**result.extra, "unstated": len(why)}}
    )


class StatedOnly:
    """Wraps a system: same name and settings; its triples about things the text does not state dropped."""

    def __init__(self, system: Any, kb: KnowledgeBase | None):
        self.system, self.kb, self.name = system, kb, system.name

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.system, attr)

    async def run(self, document: Document) -> ExtractionResult:
        return drop_unstated(await self.system.run(document), document, self.kb)


def _show(triple) -> str:
    return " | ".join(t.surface or t.label or t.value for t in (triple.subject, triple.predicate, triple.object))
