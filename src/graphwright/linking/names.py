"""How well a mention's words name a KB entity: exact, a spelling variant, a shorter form, or not at all.

A link is only as good as its name match. Look-alikes ("Katrin Vogel" / "Katrín Jakobsdóttir", "Pierre
Curie" / "Pierre", "Nordwind Logistics" / "logistics") share a token or most letters but name someone
else, so anything below a near-exact match counts as no match at all.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz

from graphwright.linking.literals import parse_date

SPELLING_MIN = 0.9  # ratio of a misspelling of the same name ("Schwarzeneger"); look-alikes score lower
SPELLING_MIN_CHARS = 6  # short names differ by one letter from other names ("Jonas" / "Jon")

Kind = Literal["exact", "spelling", "part", "demonym", "none"]
DEMONYM_ENDINGS = ("an", "ian", "ese", "ish", "i", "ic", "ean", "er")  # Afghan, Congolese, Turkish, Israeli
#: a country's demonym, where the rule of `_demonym` (the name with an ending) misses it or may
DEMONYMS = {
    "danish": "denmark",
    "dane": "denmark",
    "polish": "poland",
    "pole": "poland",
    "french": "france",
    "swiss": "switzerland",
    "dutch": "netherlands",
    "british": "united kingdom",
    "english": "england",
    "scottish": "scotland",
    "scot": "scotland",
    "welsh": "wales",
    "irish": "ireland",
    "spanish": "spain",
    "swedish": "sweden",
    "swede": "sweden",
    "finnish": "finland",
    "finn": "finland",
    "greek": "greece",
    "turkish": "turkey",
    "chinese": "china",
    "japanese": "japan",
    "portuguese": "portugal",
    "icelandic": "iceland",
    "czech": "czech republic",
    "slovak": "slovakia",
    "american": "united states",
    "thai": "thailand",
    "filipino": "philippines",
    "peruvian": "peru",
    "norwegian": "norway",
    "belgian": "belgium",
    "luxembourgish": "luxembourg",
    "hungarian": "hungary",
    "croatian": "croatia",
    "serbian": "serbia",
    "lebanese": "lebanon",
    "vietnamese": "vietnam",
    "maltese": "malta",
    "cypriot": "cyprus",
    "new zealander": "new zealand",
    "argentine": "argentina",
    "argentinian": "argentina",
    "estonian": "estonia",
    "latvian": "latvia",
    "lithuanian": "lithuania",
    "slovenian": "slovenia",
    "slovene": "slovenia",
    "ukrainian": "ukraine",
    "russian": "russia",
    "austrian": "austria",
    "german": "germany",
    "italian": "italy",
    "canadian": "canada",
    "mexican": "mexico",
    "brazilian": "brazil",
    "indian": "india",
    "korean": "korea",
    "egyptian": "egypt",
    "kenyan": "kenya",
    "nigerian": "nigeria",
    "australian": "australia",
    "chilean": "chile",
    "colombian": "colombia",
    "romanian": "romania",
    "bulgarian": "bulgaria",
    "israeli": "israel",
    "iranian": "iran",
    "iraqi": "iraq",
    "pakistani": "pakistan",
}


#: words that are never a name, however a KB spells its aliases ("ON" is Ontario's, "it" Italy's, "We" a film's)
FUNCTION_WORDS = frozenset(
    """a an the and or but nor so yet if as at by for from in into of off on onto out over per
to up upon via with without within about above after against along among around before behind below beside between
beyond down during except near since than through toward towards under until is are was were be been being am do
does did has have had can could may might must shall should will would he she it they him her them his hers its
their theirs we us our ours i me my mine you your yours who whom whose which what that this these those there here
not no yes also""".split()
)


def is_function_word(surface: str) -> bool:
    """A pronoun, article, preposition, conjunction or auxiliary, or a single letter: never a name. Written in
    capitals it is an abbreviation ("ON" for Ontario, "ME" for Maine, "WHO"), which may be one."""
    word = surface.strip().strip(".,;:!?\"'()")
    if len(word) > 1 and word.isupper():
        return False
    return word.casefold() in FUNCTION_WORDS or (len(word) == 1 and word.isalpha())


#: words that open a phrase pointing back at a name the text gives elsewhere ("his grandfather", "this museum")
POINTING_WORDS = frozenset("his her their its my our your this that these those".split())


def points_back(surface: str) -> bool:
    """A possessive or demonstrative phrase of common nouns ("his grandfather", "This museum"): a reference,
    never a name. Titles that open so are capitalised ("My Fair Lady", "Our Lady of Lourdes")."""
    words = surface.split()
    return len(words) > 1 and words[0].casefold() in POINTING_WORDS and all(w.islower() for w in words[1:])


def case_bound(name: str) -> bool:
    """A short name (three letters or fewer) or one in capitals is a code or an acronym: it names its entity
    only as written ("ON" is Ontario, "on" is not; "UN" is the United Nations, "un" is not)."""
    letters = [c for c in name if c.isupper() or c.islower()]  # a script without case (Chinese) has none
    return bool(letters) and (len(name.strip()) <= 3 or (len(letters) >= 2 and all(c.isupper() for c in letters)))


def case_fits(surface: str, name: str) -> bool:
    """Whether ``surface`` writes a case-bound ``name`` as it is written (a leading "the" aside: "the UN");
    an acronym of four letters or more also in title case, as some styles write it ("Nasa", "Nato")."""
    written = re.sub(r"^the\s+", "", surface.strip(), flags=re.IGNORECASE)
    name = name.strip()
    return written == name or (len(name) >= 4 and name.isupper() and written == name.title())


def fold(name: str) -> str:
    """Case, quotes, punctuation and spacing folded away: how scores compare names."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = re.sub(r"[\"'`´’]", "", text)
    return re.sub(r"\s+", " ", re.sub(r"[^\w]+", " ", text)).strip()


def normalize(name: str) -> str:
    """``fold``, and accents, "&" for "and" and a leading "the" do not make another name either (linking)."""
    text = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch))
    text = text.replace("&", " and ")
    text = fold(text)
    return text[4:] if text.startswith("the ") else text


@dataclass(frozen=True)
class NameMatch:
    kind: Kind
    score: float  # 1.0 exact; the spelling ratio; the share of the name's words the mention has
    name: str = ""  # the KB name (label or alias) it matched

    @property
    def is_name(self) -> bool:
        return self.kind != "none"


NO_MATCH = NameMatch("none", 0.0)


def match_name(surface: str, names: Iterable[str]) -> NameMatch:
    """The best match of ``surface`` against a record's label and aliases.

    ``part``: every word of the mention is a word of the name ("Curie" for "Marie Curie"); whether the
    full name is also in the document is the judge's business. A name shorter than the mention
    ("Pierre" for "Pierre Curie") is never a match: the mention says more than the name."""
    names = list(names)
    best = _match(surface, names)
    head = surface.split(",")[0]
    if best.kind == "none" and head != surface:  # "Toronto, Canada": the name, then where it is
        best = _match(head, names)
    return best


def _match(surface: str, names: list[str]) -> NameMatch:
    mention = normalize(surface)
    if not mention:
        return NO_MATCH
    words = mention.split()
    best = NO_MATCH
    proper = len(surface.split()) > 1 and surface.strip()[:1].isupper()
    for name in names:
        norm = normalize(name)
        if not norm or (proper and name.islower()):  # "The Bridge" (a title) is not "bridge" (a structure)
            continue
        if case_bound(name) and not case_fits(surface, name):
            continue
        if surface.islower() and (
            name[:1].isupper() or (name is not names[0] and len(mention) <= 3) or not name[:1].isalnum()
        ):
            continue  # a lowercase word is no proper name ("doctor": not the title "Doctor"; "beds": not "Beds",
            # Bedfordshire), nor a code ("hi": Hindi's), nor a name in marks ("main": not "(main)")
        if norm == mention:
            return NameMatch("exact", 1.0, name)
        name_words = norm.split()
        if len(name_words) == len(words) and min(len(norm), len(mention)) >= SPELLING_MIN_CHARS:
            ratio = fuzz.ratio(norm, mention) / 100
            if ratio >= SPELLING_MIN and (best.kind != "spelling" or ratio > best.score):
                best = NameMatch("spelling", ratio, name)
        elif best.kind == "none" and len(name_words) > len(words) and _in_order(words, name_words):
            best = NameMatch("part", len(words) / len(name_words), name)
        if best.kind == "none" and _demonym(surface, mention, norm):
            best = NameMatch("demonym", 1.0, name)
    return best


FILLER = {"a", "an", "the", "of", "in", "on", "at", "and", "for", "to", "by", "de"}


def names_fit(surface: str, names: Iterable[str]) -> bool:
    """Whether a tool's pick can stand for ``surface`` at all: ``match_name`` finds a match, or every
    word of some name is in the surface ("comedy film" in "French comedy film", "Taipei" in "Datong
    District, Taipei"). Looser than a link decision; it only catches a search that returned an item
    for words it has no item for ("cake" -> Kenya, "banker" -> Bangladesh, "fort" -> Fort Worth).
    An item named by a number or a date ("1987") never stands for words: those are values."""
    names = [n for n in names if n]
    if names and is_number_or_date(names[0]):  # the label
        return False
    match = match_name(surface, names)
    if match.is_name:
        # a common word is no part of a proper name ("fort" of "Fort Worth")
        return not (match.kind == "part" and surface.islower() and not match.name.islower())
    words = set(normalize(surface).split()) - FILLER
    for name in names:
        name_words = set(normalize(name).split()) - FILLER
        if name_words and name_words <= words:
            return True
    return False


def national_form(surface: str, name: str, document: str) -> bool:
    """Whether ``name`` is ``surface`` with the demonym of a country the document names ("Estonian Reform
    Party" for "the Reform Party" in a text about Estonia): the text's short form of that name."""
    extra = normalize(name).split()
    for word in normalize(surface).split():
        if word not in extra:
            return False
        extra.remove(word)
    text = f" {normalize(document)} "
    return len(extra) == 1 and extra[0] in DEMONYMS and f" {DEMONYMS[extra[0]]} " in text


def demonym_of(word: str, name: str) -> bool:
    """Whether a capitalised word is the demonym of a name ("Danish" of Denmark, "Austrian" of Austria)."""
    return _demonym(word, normalize(word), normalize(name))


def _demonym(surface: str, mention: str, name: str) -> bool:
    """ "Afghan" / "Afghanistan", "Turkish" / "Turkey": one capitalised word that is the name with a
    demonym ending; the fitted weight of this kind says how far to trust it."""
    if not surface[:1].isupper():
        return False
    if mention in DEMONYMS:
        return DEMONYMS[mention] == name
    if " " in mention or " " in name or not mention.endswith(DEMONYM_ENDINGS):
        return False
    shared = len(os.path.commonprefix([mention, name]))
    return shared >= 4 and (shared >= len(name) - 2 or name.startswith(mention)) and mention != name


def _in_order(words: list[str], name_words: list[str]) -> bool:
    """``words`` occur in ``name_words`` in the same order, adjacent ("Curie" in "Marie Curie")."""
    n = len(words)
    return any(name_words[i : i + n] == words for i in range(len(name_words) - n + 1))


_NUMBERISH = re.compile(r"^[\d\s.,/:\-–]+(bc|bce|ad|ce|s)?$")


# a count of something: "240 people", "about 3,000 employees"; not "1860 Munich" or "3 Doors Down" (names)
_COUNT = re.compile(
    r"^(?:about |around |over |some |nearly |more than )?\d[\d,.]*(?: (?:thousand|million|billion))?"
    r" [a-z][a-z -]*$"
)


def is_number_or_date(surface: str) -> bool:
    """ "1911", "1,200", "12 May 1990", "240 people" style strings: values, never names of items."""
    text = surface.strip().casefold()
    return bool(text) and (
        bool(_NUMBERISH.match(text)) or parse_date(surface) is not None or bool(_COUNT.match(surface.strip()))
    )


_WORD = r"[^\W\d_][\w'’-]*"  # a word that starts with a letter
_PARTICLES = {
    "de",
    "du",
    "des",
    "da",
    "di",
    "del",
    "della",
    "van",
    "von",
    "der",
    "den",
    "la",
    "le",
    "of",
    "y",
    "al",
    "bin",
}
# capitalised at a sentence's start, or a title word, without being part of the name that follows
_NOT_NAME = {
    "a",
    "an",
    "the",
    "in",
    "on",
    "at",
    "by",
    "for",
    "from",
    "with",
    "as",
    "after",
    "before",
    "during",
    "his",
    "her",
    "their",
    "its",
    "this",
    "that",
    "these",
    "those",
    "he",
    "she",
    "it",
    "they",
    "we",
    "i",
    "and",
    "but",
    "or",
    "to",
    "when",
    "while",
    "since",
    "until",
    "although",
    "however",
    "today",
    "then",
}


# a title before a person's name is not part of it (KB labels leave it out): "Dr. Jonas Eide" is Jonas Eide
#: titles written before a person's name (not "Miss" nor "Lady": Miss Saigon, Lady Gaga are whole names)
PERSON_TITLES = r"(?:Dr|Prof|Mr|Mrs|Ms|Mx|Sir|Dame)\.?"
_TITLE = re.compile(rf"^{PERSON_TITLES}\s+(?=[A-Z])")


def without_title(name: str) -> str:
    """A person's name without the title written before it: "Prof. Aksel Monsen" -> "Aksel Monsen"."""
    return _TITLE.sub("", name)


def _is_name_word(word: str) -> bool:
    return word[:1].isupper() and word.casefold() not in _NOT_NAME


def full_name(surface: str, text: str) -> str:
    """The whole proper name a mention is part of, where the text writes it only inside one.

    Small models cut names into pieces ("Falls" of "Ridgecrest Falls", "Grand Prix" of "Grand Prix de
    Vernay", "Logistics" of "Nordwind Logistics"), and a piece often is some KB entity's name. A mention
    is grown over the capitalised words next to it (rightwards also over particles such as "de" or
    "of" before a capitalised word); if any occurrence stands alone, or the occurrences grow into
    different names, the mention is kept as written."""
    if not surface[:1].isupper():
        return surface
    grown = set()
    for m in re.finditer(r"(?<![\w'’-])" + re.escape(surface) + r"(?![\w'’-])", text):
        start, end = m.start(), m.end()
        while (left := re.search(r"(" + _WORD + r")[ -]$", text[:start])) and _is_name_word(left.group(1)):
            start = left.start(1)
        while True:
            right = re.match(r"[ -](" + _WORD + r")", text[end:])
            if right and _is_name_word(right.group(1)):
                end += right.end(1)
                continue
            particle = re.match(r" (\w+) (" + _WORD + r")", text[end:])
            if particle and particle.group(1) in _PARTICLES and _is_name_word(particle.group(2)):
                end += particle.end(2)
                continue
            break
        grown.add(text[start:end])
    if len(grown) != 1:
        return surface
    name = grown.pop()
    return surface if len(name) <= len(surface) else name
