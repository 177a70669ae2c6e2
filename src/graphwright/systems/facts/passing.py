"""Facts a text states in passing, read without the model: the small model lists a sentence's main
facts and skips what the sentence only says on the way ("the chemist Otto Hahn", "the Dutch company
Veldhaven Systems", "Kelowna, British Columbia"). Each is written as the model would write it, an open
triple with the sentence that states it, and goes through the same grounding and mapping:

- an occupation before or after a person's name ("the marine engineer Ingrid Lauvås", "Karla Aaløkke, a
  local schoolteacher", "Moira Tallcott ... is a Canadian rower"), with the demonym before it as the
  person's citizenship and "German-born" as the birthplace;
- a demonym before an organisation's noun and name ("the Belgian transport group Merelbeek Groep",
  "Havbris Sensorteknikk is a Norwegian maker") as its country;
- a place written with the place it lies in ("in Kelowna, British Columbia", "Carentoir, a village in
  Brittany");
- what a thing is ("The Kaweru Gorge Bridge, a suspension bridge");
- relatives ("Sigrid Aasen and her husband Pål Aasen", "His wife, ... Maria Shriver": the nearest person
  before, else the person the sentences before begin with);
- an organisation referred to by its noun ("The Danish firm employs ...", "the Swiss parent"): the
  organisation named last before it.

Occupations are the KB's (an entity typed occupation or profession) or words that only name one
("-ist", "-ian"); the nouns that name what a company is are not occupations ("the bicycle maker").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property

from graphwright.linking.names import DEMONYMS
from graphwright.model import Document, Span
from graphwright.systems.facts.arguments import covered, name_like, text_names
from graphwright.systems.facts.kb_names import KBNames
from graphwright.systems.facts.types import shape_type

#: nouns that say what an organisation is
ORGANISATION_NOUNS = frozenset(
    """company firm maker group publisher start-up startup studio bank manufacturer
producer developer retailer airline brand carmaker holding chain agency contractor supplier operator builder
shipyard yard brewery label broadcaster insurer investor fund utility""".split()
)
_MAKER_ENDINGS = ("maker", "builder", "producer", "manufacturer")


def is_organisation_noun(word: str) -> bool:
    """A noun for an organisation, also as the end of a compound ("shipbuilder", "toymaker")."""
    return word in ORGANISATION_NOUNS or any(word.endswith(end) and len(word) > len(end) for end in _MAKER_ENDINGS)


#: nouns that refer back to an organisation the text has named ("the firm")
_REFERRING_NOUNS = frozenset(
    {
        "company",
        "firm",
        "group",
        "parent",
        "studio",
        "start-up",
        "maker",
        "business",
        "publisher",
        "manufacturer",
        "bank",
        "carmaker",
    }
)
_DETERMINER = frozenset({"the", "a", "an", "her", "his", "their", "its", "our"})
_OCCUPATION_ENDS = ("ist", "ian")
_RELATIVES = frozenset(
    """son daughter wife husband brother sister mother father child children parent nephew niece
cousin uncle aunt friend partner colleague member citizen resident native""".split()
)
#: offices a person holds (Wikidata's position held, P39), not occupations
POSITIONS = frozenset(
    """minister chancellor mayor president governor senator king queen ambassador secretary premier
chairman chairwoman chairperson councillor councilor mp""".split()
)
_FUNCTION_WORDS = frozenset("""under with by of in on at for from to and or as than after before during""".split())
_RANKING = frozenset("first second third last only main new old famous best-known well-known local".split())
_NOT_OCCUPATION = frozenset({"christian", "guardian", "median", "pedestrian", "civilian"})
_PLACE_NOUNS = "village|town|city|borough|district|suburb|region|province|county|municipality|state|island|port"
_PLACE_IN = re.compile(rf"^,\s+(?:today\s+|now\s+)?(?:a|an|the)\s+(?:[a-z]+\s+)?(?:{_PLACE_NOUNS})\s+(?:in|of)\s+$")

Fact = tuple[str, str, str, Span]
#: an organisation's apposition that places it: ", a small operator based in Oban", ", headquartered in Turin"
_BASED_IN = re.compile(
    r",\s+(?:(?:a|an|the)\s+(?:[\w'’-]+\s+){0,4}?)?(?:based|headquartered)\s+in\s+([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)"
)
#: a relative's noun and the relation table's phrase for "<owner> | phrase | <relative>"
KINSHIP = {
    "husband": "spouse",
    "wife": "spouse",
    "son": "child",
    "daughter": "child",
    "brother": "sibling",
    "sister": "sibling",
    "father": "parent",
    "mother": "parent",
    "nephew": "relative",
    "niece": "relative",
}
_RELATIVE = re.compile(
    r"\b(?:[Hh]er|[Hh]is|[Tt]heir)\s+(?:(?:older|younger|elder|late|twin)\s+)?(?P<kin>" + "|".join(KINSHIP) + r")\b"
)


class PassingFacts:
    """The facts one document states in passing."""

    def __init__(
        self, document: Document, kb_names: KBNames, names: list[str], organisations: frozenset[str] = frozenset()
    ):
        """``kb_names``: what the KB says of a name; ``names``: the names the model wrote; ``organisations``: the
        names the model's facts treat as organisations."""
        self.document, self.kb_names, self.organisations = document, kb_names, organisations
        self.kind_of = kb_names.type_of
        # the model's arguments that are names (not "The frog honours Carmen Velarde, a retired ...")
        found = {" ".join(n.split()) for n in [*names, *text_names(document.text)] if name_like(n)}
        self.names = sorted(found, key=len, reverse=True)
        self.sentences = [document.span(a, b) for a, b in document.sentence_spans()]
        self._found: dict[str, list[tuple[str, int]]] = {}

    def facts(self) -> list[Fact]:
        out: list[Fact] = []
        for sentence in self.sentences:
            for fact in [
                *self._before_names(sentence),
                *self._after_names(sentence),
                *self._copula(sentence),
                *self._places(sentence),
                *self._relatives(sentence),
                *self._referred(sentence),
            ]:
                if fact not in out:
                    out.append(fact)
        return out

    # --------------------------------------------------------------- the words before a name

    def _before_names(self, sentence: Span) -> Iterator[Fact]:
        """ "the Austrian physicist Lise Meitner", "by the engineers Inês Carvalhal and Duarte Mendonça Rei",
        "Dutch logistics software company Veldhaven Systems"."""
        text = covered(sentence)
        for name, start in self._names_in(text):
            # the words of the name's own phrase: "the studio's director; Tom Avery builds" describes no Tom Avery
            phrase = re.split(r"[;:()\[\]—–]", text[:start])[-1]
            words = re.findall(r"[\w'’-]+", phrase)[-5:]
            if not words:
                continue
            described = _described(words)
            if not described:
                continue
            head = _singular(described[-1])
            if is_organisation_noun(head) and shape_type(name) != "person":
                yield from self._countries(name, described, sentence)
            elif self._person(name) and self._is_occupation(head, described):
                yield from self._person_facts(name, described, sentence)
                for other in _coordinated_after(text, start, name, self._names_in(text)):
                    yield from self._person_facts(other, described, sentence)

    def _referred(self, sentence: Span) -> Iterator[Fact]:
        """ "The Danish firm employs 230 people", "the Swiss parent", "The Trondheim company was founded": an
        organisation the text refers to by its noun, with a demonym or a place before it, is the one it
        named last before (the model's facts tell which names are organisations)."""
        text = covered(sentence)
        for found in re.finditer(
            r"\b[Tt]he\s+((?:[\w'’-]+\s+){0,3}?)(" + "|".join(sorted(_REFERRING_NOUNS)) + r")\b(?!\s+[A-Z])", text
        ):
            described = [*found.group(1).split(), found.group(2)]
            if not any(w[:1].isupper() for w in described[:-1]):
                continue
            at = sentence.start + found.start()
            before = [(self.document.text.rfind(name, 0, at), name) for name in self.organisations]
            before = [(position, name) for position, name in before if position >= 0]
            if before:
                yield from self._countries(max(before)[1], described, sentence)

    def _after_names(self, sentence: Span) -> Iterator[Fact]:
        """ "Karla Aaløkke, a local schoolteacher who ran a night school": the occupation ends its phrase."""
        text = covered(sentence)
        for name, start in self._names_in(text):
            rest = text[start + len(name) :]
            based = _BASED_IN.match(rest)  # "Harbourline Ferries, a small operator based in Oban,"
            if based and not self._person(name):
                yield name, "headquarters", based.group(1), sentence
            # "is"/"was" only after a name set off by commas ("Her father, Guillermo Kahlo, was a photographer"),
            # not after one that ends a clause ("Veldhaven, which is based in Rotterdam, is a subsidiary")
            verb = r"(?:(?:is|was)\s+)?" if text[:start].rstrip().endswith(",") else ""
            found = re.match(
                r",\s+" + verb + r"(?:a|an|the)\s+((?:[\w'’-]+\s+){0,3}?[a-z][\w-]*)(?=\s*(?:,|\.|;|$|\s+(?:who|whose|"
                r"and|at|of|from|in|with|for|since)\b))",
                rest,
            )
            if not found:
                continue
            described = _described(["a", *found.group(1).split()])
            if described and self._person(name) and self._is_occupation(_singular(described[-1]), described):
                yield from self._person_facts(name, described, sentence)
            elif described and not self._person(name):
                yield from self._kind(name, described, sentence)

    def _copula(self, sentence: Span) -> Iterator[Fact]:
        """ "Kazimír Ondráček, born on 3 March 1971 in Brno, is a Czech entrepreneur", "Havbris Sensorteknikk
        is a Norwegian maker of underwater sensors": the sentence's first name is what it is."""
        text = covered(sentence)
        names = self._names_in(text)
        if not names or not re.fullmatch(
            r"(?:(?:The|A|An|Her|His|Their|Its)\s+(?:[a-z]+\s+){0,2})?", text[: names[0][1]]
        ):
            return  # the first name is not the sentence's subject
        subject = names[0][0]
        found = re.search(
            r"\b(?:is|was)\s+(?:a|an|the)\s+((?:[\w'’-]+\s+){0,3}?[\w-]+)(?=\s*(?:,|\.|;|$|\s+(?:who|whose|"
            r"and|at|of|from|in|with|for|since|that|which|based)\b))",
            text,
        )
        if not found:
            return
        described = _described(["a", *found.group(1).split()])
        if not described:
            return
        head = _singular(described[-1])
        if is_organisation_noun(head):
            yield from self._countries(subject, described, sentence)
        elif self._person(subject) and self._is_occupation(head, described):
            yield from self._person_facts(subject, described, sentence)
        elif not self._person(subject):
            yield from self._kind(subject, described, sentence)

    # --------------------------------------------------------------- relatives

    def _relatives(self, sentence: Span) -> Iterator[Fact]:
        """ "Sigrid Aasen and her husband Pål Aasen", "His wife, the television journalist Maria Shriver": the
        relative is named; whose relative is the nearest person before it in the sentence, else the person
        the sentences before are about (a sentence that opens with "Her brother, ..., and her mother" is about
        one person throughout)."""
        text = covered(sentence)
        names = self._names_in(text)
        owner, opened = None, False
        for found in _RELATIVE.finditer(text):
            after = re.match(r",?\s+(?:the\s+(?:[a-z][\w-]*\s+){0,3})?", text[found.end() :])
            start = found.end() + (after.end() if after else 0)  # "her husband." names no one after
            relative = next((n for n, s in names if s == start), None) or _capitalised_at(text, start)
            if found.start() == 0:
                owner, opened = self._about(sentence), True
            elif not opened:
                owner = self._owner(sentence, found.start(), names)
            if relative and owner and owner != relative:
                yield owner, KINSHIP[found["kin"].casefold()], relative, sentence

    def _owner(self, sentence: Span, before: int, names: list[tuple[str, int]]) -> str | None:
        persons = [n for n, s in names if s < before and self._person(n)]
        return persons[-1] if persons else self._about(sentence)

    def _about(self, sentence: Span) -> str | None:
        """The person the sentences before this one begin with, else the text's first person."""
        index = self.sentences.index(sentence)
        for earlier in self.sentences[max(index - 2, 0) : index][::-1]:
            first = next(
                (n for n, s in self._names_in(covered(earlier)) if s < 30 and self._person(n)), None
            ) or self._full_person(_capitalised_at(covered(earlier), 0) or "")
            if first:
                return first
        return next((n for n in self._in_text_order if self._person(n)), None)

    def _full_person(self, words: str) -> str | None:
        """A full name, or the first full name of the text that ends with these words ("Tallcott")."""
        if not words:
            return None
        if self._person(words):
            return words
        return next((n for n in self._in_text_order if self._person(n) and n.split()[-1] == words), None)

    @cached_property
    def _in_text_order(self) -> list[str]:
        """The names, by where the text first writes them."""
        text = self.document.text
        return sorted((name for name in self.names if name in text), key=text.find)

    # --------------------------------------------------------------- places

    def _places(self, sentence: Span) -> Iterator[Fact]:
        """ "in Kelowna, British Columbia" and "Carentoir, a village in Brittany": the first place lies in the
        second (a country: its country)."""
        text = covered(sentence)
        names = self._places_in(text)
        for (inner, start), (outer, outer_start) in zip(names, names[1:]):
            between = text[start + len(inner) : outer_start]
            if (
                (between.strip() == "," or _PLACE_IN.match(between))
                and self.kind_of(outer) == "place"
                and self.kind_of(inner) in ("place", None)
                and not self._person(inner)
            ):
                relation = "country" if self._is_country(outer) else "located in"
                yield inner, relation, outer, sentence

    def _places_in(self, text: str) -> list[tuple[str, int]]:
        """Capitalised names (one word too) in order; a name inside a longer one is not counted."""
        found = []
        for match in re.finditer(r"[A-Z][\w'’-]*(?:\s+(?:de|del|am|im|upon|on|la|le)?\s*[A-Z][\w'’-]*)*", text):
            found.append((match.group(0).strip(), match.start()))
        return found

    def _is_country(self, name: str) -> bool:
        return self.kind_of(name) == "place" and self.kb_names.is_country(name)

    # --------------------------------------------------------------- shared

    def _person_facts(self, name: str, described: list[str], sentence: Span) -> Iterator[Fact]:
        occupation = self._occupation_words(described)
        yield name, "position held" if occupation.split()[-1] in POSITIONS else "occupation", occupation, sentence
        for word in described[:-1]:
            born = word.casefold().removesuffix("-born")
            if born in DEMONYMS and word[:1].isupper():
                yield (
                    name,
                    "born in" if word.casefold().endswith("-born") else "citizen of",
                    word.removesuffix("-born"),
                    sentence,
                )

    def _kind(self, name: str, described: list[str], sentence: Span) -> Iterator[Fact]:
        """ "The Kaweru Gorge Bridge, a suspension bridge": what a thing is (not a company: "a maker")."""
        words = [w for w in described if not w[:1].isupper()]
        while len(words) > 1 and (words[0].endswith("est") or words[0] in _RANKING):  # "the largest naval battle"
            words = words[1:]
        head = _singular(words[-1]) if words else ""
        if (
            head.isalpha()
            and not is_organisation_noun(head)
            and head not in _FUNCTION_WORDS
            and shape_type(name) != "organisation"
            and self.kind_of(name) != "organisation"
        ):
            yield name, "instance of", " ".join(words), sentence
        yield from self._countries(name, [*described, head], sentence)

    def _countries(self, name: str, described: list[str], sentence: Span) -> Iterator[Fact]:
        """ "the Belgian transport group": its country; "the Copenhagen studio", "the Porto-based start-up": its
        headquarters."""
        for word in described[:-1]:
            if not word[:1].isupper():
                continue
            if word.casefold() in DEMONYMS:
                yield name, "country", word, sentence
            elif word.endswith("-based") or self.kind_of(word) == "place":
                yield name, "headquarters", word.removesuffix("-based"), sentence

    def _occupation_words(self, described: list[str]) -> str:
        """The occupation as the KB names it where it can ("television journalist" -> journalist), else the
        lower-case words before it that the text writes with it ("marine engineer")."""
        words = [w for w in described if not w[:1].isupper()]
        if not words:  # "was a NASA test pilot" cut to capitalised words only: the head as written
            return _singular(described[-1])
        for i in range(len(words)):
            phrase = " ".join([*words[i:-1], _singular(words[-1])])
            if i < len(words) - 1 and self.kb_names.is_occupation(phrase):
                return phrase
        return _singular(words[-1])

    def _is_occupation(self, word: str, described: list[str]) -> bool:
        """An occupation's word; after a demonym any noun but a relative's ("a Canadian rower")."""
        if (
            not word.isalpha()
            or is_organisation_noun(word)
            or any(word in words for words in (_NOT_OCCUPATION, _RELATIVES, DEMONYMS, _FUNCTION_WORDS))
            or any(w[:1].isupper() for w in described[1:])
        ):
            return False
        if any(w[:1].isupper() and w.casefold().removesuffix("-born") in DEMONYMS for w in described[:-1]):
            return True
        return (word.endswith(_OCCUPATION_ENDS) and len(word) > 5) or self.kb_names.is_occupation(word)

    def _person(self, name: str) -> bool:
        """A name that can be a person's: two to four capitalised words, no organisation's word, not a place."""
        words = name.split()
        return 2 <= len(words) <= 4 and shape_type(name) is None and not self._is_country(name)

    def _names_in(self, text: str) -> list[tuple[str, int]]:
        """The document's names in this text, in order, longest first where two overlap (each sentence is
        asked about several times: found once)."""
        if text not in self._found:
            self._found[text] = self._find_names(text)
        return self._found[text]

    def _find_names(self, text: str) -> list[tuple[str, int]]:
        taken: list[tuple[int, int]] = []
        found = []
        for name in self.names:
            for match in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text):
                if any(a < match.end() and match.start() < b for a, b in taken):
                    continue
                taken.append((match.start(), match.end()))
                found.append((name, match.start()))
        return sorted(found, key=lambda nf: nf[1])


def _described(words: list[str]) -> list[str]:
    """The words after the last determiner ("the Austrian physicist" -> Austrian, physicist), [] without one;
    a capitalised first word may stand without one ("Dutch logistics software company")."""
    lowered = [w.casefold() for w in words]
    for i in range(len(words) - 1, -1, -1):
        if lowered[i] in _DETERMINER:
            return words[i + 1 :]
    start = next((i for i, w in enumerate(words) if w[:1].isupper() and w.casefold() in DEMONYMS), None)
    return words[start:] if start is not None and start == 0 else []


def _capitalised_at(text: str, start: int) -> str | None:
    """The capitalised words at ``start`` ("Diane", "Evan Tallcott"), not a sentence's opening word."""
    found = re.match(r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*", text[start:])
    if not found or found.group(0).split()[0].casefold() in _SENTENCE_OPENERS:
        return None
    return found.group(0)


_SENTENCE_OPENERS = frozenset(
    """the a an in on at by for from with after before during since when while his her
their its this that these those there it he she they we i today yesterday""".split()
)


def _singular(word: str) -> str:
    word = word.casefold()
    return word[:-1] if word.endswith(("ists", "ers", "ors", "ians")) else word


def _coordinated_after(text: str, start: int, name: str, names: list[tuple[str, int]]) -> list[str]:
    """The names joined to this one by "and" ("the engineers Inês Carvalhal and Duarte Mendonça Rei")."""
    end = start + len(name)
    out = []
    for other, other_start in names:
        if other_start > end and re.fullmatch(r"\s*(?:,\s*|,?\s+and\s+)", text[end:other_start]):
            out.append(other)
            end = other_start + len(other)
    return out
