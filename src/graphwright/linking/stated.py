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
from graphwright.linking.literals import XSD, parse_date, parse_quantity
from graphwright.linking.names import DEMONYMS, normalize
from graphwright.model import Document, ExtractionResult, Term

_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
                      "hundred": 100, "dozen": 12})
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
DATE_EXPRESSIONS = re.compile(
    rf"(?<![\w,.])(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{3,4}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{3,4}}"
    rf"|{_MONTH}\s+\d{{3,4}}|\d{{4}}-\d{{1,2}}(?:-\d{{1,2}})?|\d{{3,4}})(?!\w|[,.]\d)", re.IGNORECASE)
_NUMBERS = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:\s+(?:thousand|million|billion))?", re.IGNORECASE)
# scripts written without spaces between words (Chinese, Japanese, Thai): a name is a substring there
_UNSPACED = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_TIME_TYPES = {XSD + "date", XSD + "gYear", XSD + "gYearMonth", XSD + "dateTime"}


def fold_text(text: str) -> str:
    """Words of a text as ``normalize`` makes names: lower case, no accents, punctuation as spaces."""
    return " " + normalize(text) + " "


def names_stated(names: list[str], folded_text: str) -> bool:
    """One of ``names`` occurs in the (folded) text as whole words, or is a country its demonym names."""
    for name in names:
        key = normalize(name)
        if key and (f" {key} " in folded_text or (_UNSPACED.search(key) and key in folded_text)):
            return True
        if key and any(f" {word} " in folded_text for word in _demonyms_of(key)):
            return True
    return False


@lru_cache(maxsize=None)
def _demonyms_of(country: str) -> tuple[str, ...]:
    regular = (country + "n", country + "ian", country[:-1] + "an", country[:-1] + "ian", country + "ese",
               country[:-1] + "ese", country + "ish") if " " not in country else ()
    return tuple(d for d, c in DEMONYMS.items() if c == country or c == country.removeprefix("the ")) + regular


@lru_cache(maxsize=256)
def dates_in(text: str) -> frozenset[str]:
    """Every date value the text writes, with the year and year-month of each full date."""
    values = set()
    for match in DATE_EXPRESSIONS.finditer(text):
        parsed = parse_date(match.group(0))
        if parsed:
            parts = parsed.lexical.split("-")
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
    for word in re.findall(r"[a-z]+", text.casefold()):
        if word in _NUMBER_WORDS:
            values.add(Decimal(_NUMBER_WORDS[word]))
    for tens, ones in re.findall(r"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(one|two|three|four|five|"
                                 r"six|seven|eight|nine)\b", text.casefold()):
        values.add(Decimal(_NUMBER_WORDS[tens] + _NUMBER_WORDS[ones]))
    return frozenset(values)


def unstated(term: Term, text: str, folded_text: str, kb: Any = None) -> str | None:
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
        return None if names_stated(words, folded_text) or _value_words(words, text) else \
            f"the text does not write {term.value!r}"
    names = [w for w in (term.surface, term.label) if w]
    if not is_unlinked(term.value) and kb is not None:
        record = kb.get(parse_wikidata_id(term.value) or term.value)
        if record is not None:
            names += [record.label, *record.aliases]
    if names_stated(names, folded_text):
        return None
    shown = term.surface or term.label or term.value
    return f"the text does not name {shown!r}"


def _value_words(words: list[str], text: str) -> bool:
    """A value the system wrote as the text does (a date or number in its own spelling)."""
    return any(parse_date(w) and parse_date(w).lexical in dates_in(text) for w in words) or any(
        parse_quantity(w) and Decimal(parse_quantity(w).lexical) in numbers_in(text) for w in words)


def drop_unstated(result: ExtractionResult, document: Document, kb: Any = None) -> ExtractionResult:
    """The result without the triples whose subject or object the text does not state."""
    if result.status != "ok" or not result.triples:
        return result
    folded = fold_text(document.text)
    kept, why = [], []
    for triple in result.triples:
        reason = unstated(triple.subject, document.text, folded, kb) or unstated(triple.object, document.text, folded, kb)
        if reason:
            why.append(f"dropped {_show(triple)}: {reason}")
        else:
            kept.append(triple)
    if not why:
        return result
    return result.model_copy(update={"triples": kept, "warnings": result.warnings + why,
                                     "extra": {**result.extra, "unstated": len(why)}})


class StatedOnly:
    """Wraps a system: same name and settings; its triples about things the text does not state dropped."""

    def __init__(self, system: Any, kb: Any):
        self.system, self.kb, self.name = system, kb, system.name

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.system, attr)

    async def run(self, document: Document) -> ExtractionResult:
        return drop_unstated(await self.system.run(document), document, self.kb)


def _show(triple) -> str:
    return " | ".join(t.surface or t.label or t.value for t in (triple.subject, triple.predicate, triple.object))
