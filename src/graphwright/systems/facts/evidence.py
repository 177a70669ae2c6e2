"""Which sentence tells of a fact: one that names its subject beside its object (a birth place needs the birth
told; a fact the model copied onto a second subject needs that subject named), and names listed together."""

from __future__ import annotations

import re

from graphwright.model import Document, Span
from graphwright.systems.facts.arguments import Argument, covered
from graphwright.systems.facts.relations import normalize_phrase

_REFERENCE = r"(?i:he|she|his|her|him|they|their|them)"


def telling_sentence(
    document: Document, subject: Argument, obj: Argument, event: re.Pattern[str] | None = None, pronouns: bool = True
) -> Span | None:
    """The first sentence that writes the object, the subject (a word of its name, or a pronoun) and, where
    given, the event's word: "Solveig Brekke was born in Florø", when the fact's nearest pair of names is in
    "founded in 2011 by Solveig Brekke in Florø"."""
    names = [f"(?i:{re.escape(w)})" for w in {*subject.words.split(), *subject.lookup.split()} if len(w) > 2]
    refers = re.compile(r"\b(?:" + "|".join([_REFERENCE, *names] if pronouns else names) + r")\b")
    value = covered(obj.span) if obj.span.end else obj.words
    for start, end in document.sentence_spans():
        sentence = document.text[start:end]
        if value in sentence and (event is None or event.search(sentence)) and refers.search(sentence):
            return document.span(start, end)
    return None


Grounded = tuple[Argument, str, Argument, Span | None]


def without_copies(grounded: list[Grounded], document: Document) -> tuple[list[Grounded], list[str]]:
    """The facts less those a small model copied onto another subject: where a relation and object the
    answer gave one subject come again with another ("Lise Meitner | award | Max Planck Medal", then the same
    for Otto Hahn), the later one needs a sentence that writes the object and names its subject ("She
    received the Max Planck Medal" names neither Hahn nor Frisch). Also why each copy went."""
    first: dict[tuple[str, str], Argument] = {}  # the subject the model gave it first: the copies come after
    kept, dropped = [], []
    for subject, relation, obj, sentence in grounded:
        original = first.setdefault((normalize_phrase(relation), obj.lookup.casefold()), subject)
        if (
            original.lookup != subject.lookup
            and not coordinated_in(document.text, original.words, subject.words)  # "Hay Day and Clash of Clans"
            and not telling_sentence(document, subject, obj, pronouns=False)
        ):
            dropped.append(
                f"dropped [{subject.words}, {relation}, {obj.words}]: given to several subjects, and no sentence "
                f"names {subject.words!r} with it"
            )
            continue
        kept.append((subject, relation, obj, sentence))
    return kept, dropped


def coordinated_in(text: str, first: str, second: str) -> bool:
    """Whether the text lists the two names together ("Hay Day and Clash of Clans", "A, B and C")."""
    a, b = re.escape(first), re.escape(second)
    between = r"(?:,\s+(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+)(?:[^.;]{0,60}?(?:,\s+|\s+and\s+))?"
    return bool(re.search(rf"\b{a}{between}{b}\b|\b{b}{between}{a}\b", text))
