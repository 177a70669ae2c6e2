"""What the open-extraction systems (``openie``, ``facts``) share: a model's words placed in the text,
a description trimmed off a name, and relations that name nothing."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from graphwright.linking.literals import SPELLED_NUMBER
from graphwright.model import Document, Span


def whole_words(words: str) -> str:
    """A pattern of the words as whole words, any spacing between them: "x" is not in "Max"."""
    return r"(?<!\w)" + r"\s+".join(map(re.escape, words.split())) + r"(?!\w)"


def occurrences(document: Document, words: str, *, ignore_case: bool = False) -> list[Span]:
    """Every occurrence of the words as whole words, in the text's own spelling."""
    if not words.split():
        return []
    flags = re.IGNORECASE if ignore_case else 0
    return [document.span(m.start(), m.end()) for m in re.finditer(whole_words(words), document.text, flags)]


def place(document: Document, words: str) -> Span | None:
    """The first occurrence of the words as whole words, whatever their case, and whatever their accents
    where they match no other way (a small model writes "Gdansk" for the text's "Gdańsk")."""
    found = re.search(whole_words(words), document.text, re.IGNORECASE) or re.search(
        whole_words(without_accents(words)), without_accents(document.text), re.IGNORECASE
    )
    return document.span(found.start(), found.end()) if found else None


@lru_cache(maxsize=64)  # the document's text is folded once, not once per argument the text lacks
def without_accents(text: str) -> str:
    """Each character as its base letter, one for one, so that positions stay those of the text."""
    return "".join((unicodedata.normalize("NFKD", ch)[:1] or ch) if ord(ch) > 127 else ch for ch in text)


_DESCRIBED = re.compile(r"^(?:[a-z][\w'’-]*[\s,]+)+(?=[A-Z])")  # "the printer ", "her grandson, "


def trim(words: str) -> str:
    """A name without the description before it: "the printer Odile Marchetti" is Odile Marchetti."""
    words = " ".join(words.split())
    return _DESCRIBED.sub("", words) or words


# a relation of these words alone names none: "Brightmoor Analytics | in | 2017" says no more than the
# two arguments did (a copula or "has" still says something, so they are not here)
FUNCTION_WORDS = frozenset(
    """a an the and or but nor of in on at to for from by with as into onto about after
before since until during under over between among near per via""".split()
)


#: a count and its noun inside a relation ("runs three vessels", "has 12 offices in")
_COUNT = re.compile(rf"(?:\b\d[\d,.]*|(?!(?:one|zero)\b){SPELLED_NUMBER.pattern}|\bdozens of)\s+[a-z]", re.I)


def holds_a_count(relation: str) -> bool:
    """Whether the relation holds its own object, a count of things ("runs three vessels"): the object the
    model wrote after it is then something else ("between Oban and Mull"), and the fact says nothing true."""
    return bool(_COUNT.search(relation))


def names_no_relation(relation: str) -> bool:
    return all(word in FUNCTION_WORDS for word in re.findall(r"[\w'’]+", relation.casefold()))
