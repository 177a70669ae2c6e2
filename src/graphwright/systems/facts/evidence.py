"""Which sentence tells of a fact: one that names its subject beside its object (a birth place needs the birth
told; a fact the model copied onto a second subject needs that subject named), and names listed together."""

from __future__ import annotations

import re

from graphwright.model import Document, Span
from graphwright.systems.facts.arguments import Argument, covered
from graphwright.systems.facts.relations import normalize_phrase

_REFERENCE = r"(?i:he|she|his|her|him|they|their|them)"


def telling_sentence(
    document: Document,
    subject: Argument,
    obj: Argument,
    event: re.Pattern[str] | None = None,
    pronouns: bool = True,
    clauses: bool = False,
) -> Span | None:
    """The first sentence that writes the object, the subject (a word of its name, or a pronoun) and, where
    given, the event's word: "Solveig Brekke was born in Florø", when the fact's nearest pair of names is in
    "founded in 2011 by Solveig Brekke in Florø". With ``clauses``, a semicolon ends one too ("Karen Allen is
    the managing director; David Kaye runs the kitchens" tells no post of David Kaye's)."""
    names = [f"(?i:{re.escape(w)})" for w in {*subject.words.split(), *subject.lookup.split()} if len(w) > 2]
    refers = re.compile(r"\b(?:" + "|".join([_REFERENCE, *names] if pronouns else names) + r")\b")
    value = covered(obj.span) if obj.span.end else obj.words
    for start, end in _parts(document, clauses):
        sentence = document.text[start:end]
        if value in sentence and (event is None or event.search(sentence)) and refers.search(sentence):
            return document.span(start, end)
    return None


def _parts(document: Document, clauses: bool) -> list[tuple[int, int]]:
    """The document's sentences, or with ``clauses`` their parts between semicolons."""
    spans = document.sentence_spans()
    if not clauses:
        return list(spans)
    parts = []
    for start, end in spans:
        cut = start
        for semicolon in re.finditer(";", document.text[start:end]):
            parts.append((cut, start + semicolon.start()))
            cut = start + semicolon.end()
        parts.append((cut, end))
    return parts


Grounded = tuple[Argument, str, Argument, Span | None]


def without_copies(grounded: list[Grounded], document: Document) -> tuple[list[Grounded], list[str]]:
    """The facts less those a small model copied onto another subject: where a relation and object come with
    several subjects ("Lise Meitner | award | Max Planck Medal", then the same for Otto Hahn), each needs a
    sentence, or a clause between semicolons, that writes the object and names its subject ("She received the
    Max Planck Medal" names neither Hahn nor Frisch), or a list of it with another of them; the subject the
    model gave it first keeps it unless another subject's own sentence tells it. Also why each copy went."""
    holders: dict[tuple[str, str], list[Argument]] = {}  # each relation and object: its subjects, in order
    for subject, relation, obj, _ in grounded:
        given = holders.setdefault((normalize_phrase(relation), obj.lookup.casefold()), [])
        if all(other.lookup != subject.lookup for other in given):
            given.append(subject)

    answers: dict[tuple[tuple[str, str], str], bool] = {}  # (relation and object, subject) -> told

    def told(key: tuple[str, str], subject: Argument, obj: Argument) -> bool:
        """Listed with another of its subjects, or named in a clause that writes the object: "Hay Day and
        Clash of Clans"; "Karen Allen is the managing director; David Kaye runs the kitchens"."""
        if (key, subject.lookup) not in answers:
            others = [o for o in holders[key] if o.lookup != subject.lookup]
            answers[(key, subject.lookup)] = any(
                coordinated_in(document.text, o.words, subject.words) for o in others
            ) or bool(telling_sentence(document, subject, obj, pronouns=False, clauses=True))
        return answers[(key, subject.lookup)]

    kept, dropped = [], []
    for subject, relation, obj, sentence in grounded:
        key = (normalize_phrase(relation), obj.lookup.casefold())
        given = holders[key]
        others = [o for o in given if o.lookup != subject.lookup]
        # the subject the model gave it first keeps it where no subject's own clause tells it
        first_untold = given[0].lookup == subject.lookup and not any(told(key, o, obj) for o in others)
        if others and not first_untold and not told(key, subject, obj):
            dropped.append(
                f"dropped [{subject.words}, {relation}, {obj.words}]: given to several subjects, and no sentence "
                f"names {subject.words!r} with it"
            )
            continue
        kept.append((subject, relation, obj, sentence))
    return kept, dropped


def across_clauses(grounded: list[Grounded], document: Document) -> tuple[list[Grounded], list[str]]:
    """The facts less those whose relation, written as the text writes it, is parted from its object by a
    semicolon: in "Helen Marsh designs the glazes and serves as the studio's director; Tom Avery builds the
    kilns" neither the glazes nor the post are Tom Avery. Also why each went."""
    if ";" not in document.text:
        return grounded, []
    clauses = [document.text[a:b] for a, b in _parts(document, True)]
    parted = [document.text[a:b] for a, b in document.sentence_spans() if ";" in document.text[a:b]]
    kept, dropped = [], []
    for subject, relation, obj, sentence in grounded:
        if _phrase_apart(relation, obj.words, clauses, parted):
            dropped.append(f"dropped [{subject.words}, {relation}, {obj.words}]: a semicolon parts it from its object")
            continue
        kept.append((subject, relation, obj, sentence))
    return kept, dropped


def _phrase_apart(relation: str, obj: str, clauses: list[str], parted: list[str]) -> bool:
    """The text writes the relation only in clauses without the object, and a semicolon parts the two in a
    sentence that has both (``parted``: the sentences with a semicolon)."""
    phrase = re.compile(rf"\b{re.escape(' '.join(relation.split()))}\b", re.IGNORECASE)
    if any(phrase.search(c) and obj in c for c in clauses):
        return False
    return any(obj in s and phrase.search(s) for s in parted)


def coordinated_in(text: str, first: str, second: str) -> bool:
    """Whether the text lists the two names together ("Hay Day and Clash of Clans", "A, B and C")."""
    a, b = re.escape(first), re.escape(second)
    between = r"(?:,\s+(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+)(?:[^.;]{0,60}?(?:,\s+|\s+and\s+))?"
    return bool(re.search(rf"\b{a}{between}{b}\b|\b{b}{between}{a}\b", text))
