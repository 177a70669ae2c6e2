"""The open triples of a document as the model and the text list them, tidied before they are grounded:
a name written into the relation taken out of it, an office given as an occupation, a kinship the text
words otherwise, a place written with the place it lies in."""

from __future__ import annotations

import re
from dataclasses import replace

from graphwright.linking.names import is_number_or_date, normalize
from graphwright.model import ExtractionResult, Span
from graphwright.systems.facts.passing import POSITIONS
from graphwright.systems.facts.relations import TITLE_WORDS, TITLES, normalize_phrase, table_entry
from graphwright.text import sentence_at

_KINSHIP = frozenset({"P26", "P40", "P3373", "P1038", "P22", "P25"})


def without_contradicted_kinship(listed: list, passing: list) -> list:
    """The model's kinship between two people the text names as relatives in so many words ("her husband Pål
    Aasen") gives way to the text's ("Sigrid Aasen | child | Pål Aasen" goes)."""

    def kin(relation: str) -> bool:
        entry = table_entry(relation, "item")
        return entry is not None and entry.properties["item"].property in _KINSHIP

    stated = {frozenset((normalize(h), normalize(t))) for h, r, t, _ in passing if kin(r)}
    also_read = {fact[:3] for fact in passing}
    return [
        fact
        for fact in listed
        if not (
            kin(fact[1]) and frozenset((normalize(fact[0]), normalize(fact[2]))) in stated and fact[:3] not in also_read
        )
    ]


def organisations(listed: list) -> frozenset[str]:
    """The names the model's facts treat as organisations: the subject of a relation only an organisation
    has ("employees", "founded by")."""
    found = set()
    for head, relation, _tail, _ in listed:
        for kind in ("item", "date", "number"):
            entry = table_entry(relation, kind)
            if entry is not None and entry.allows[0] == frozenset({"organisation"}):
                found.add(head)
    return frozenset(found)


#: "its chief executive", "the company's chair": a title of the organisation the text is about
_ITS_TITLE = re.compile(
    rf"\b(?:its|the (?:company|firm|group)['’]s)\s+({'|'.join(TITLE_WORDS.values())})\b", re.IGNORECASE
)


def its_officer(grounded: list, types: dict[str, str], text: str) -> list:
    """ "Nowicka ... is its chief executive", written "Agata Nowicka | position held | chief executive": the
    title is the organisation's (its chief executive, P169), not a position of her own. Turned round where a
    sentence writes the title after "its" with her name, and her facts name one organisation."""
    titles = {m.group(1).casefold(): m for m in _ITS_TITLE.finditer(text)}
    if not titles:
        return grounded
    orgs = organisations([(s.lookup, r, o.lookup, None) for s, r, o, _ in grounded])
    out = []
    for fact in grounded:
        subject, relation, obj, sentence = fact
        entry = table_entry(relation, "item")
        said = titles.get(" ".join(obj.words.casefold().split()))
        if said is None or entry is None or entry.properties["item"].property not in ("P39", "P106"):
            out.append(fact)
            continue
        theirs = {
            other.lookup: other
            for s, _, o, _ in grounded
            for one, other in ((s, o), (o, s))
            if one.lookup == subject.lookup
            and other.kind == "item"
            and types.get(other.lookup, "organisation" if other.lookup in orgs else None) == "organisation"
        }
        begin, end = sentence_at(text, said.start(), said.end())
        surname = subject.words.split()[-1]
        named = text.find(surname, begin, said.end())  # "Nowicka ... is its chief executive"
        if len(theirs) != 1 or named < 0:
            out.append(fact)
            continue
        chair = TITLES["P488"].fullmatch(said.group(1)) is not None
        there = Span(start=named, end=named + len(surname), text=surname)
        stating = Span(start=begin, end=end, text=text[begin:end])
        person = replace(subject, span=there)
        out.append((*theirs.values(), "chairperson" if chair else "chief executive", person, stating))
    return out


def office(relation: str, obj: str) -> str:
    """An office given as an occupation ("Sergei Witte | occupation | finance minister") is a position held."""
    entry = table_entry(relation, "item")
    if (
        entry is not None
        and entry.properties["item"].property == "P106"
        and obj.split()
        and obj.split()[-1].casefold() in POSITIONS
    ):
        return "position held"
    return relation


def takes_classes(relation: str) -> bool:
    """Whether the relation's objects are classes, several of which a list can give ("physicist and
    mathematician"): an occupation, what a thing is."""
    entry = table_entry(relation, "item")
    return entry is not None and entry.properties["item"].property in ("P106", "P31")


def most_specific_places(grounded: list, text: str, result: ExtractionResult) -> list:
    """ "born in Kelowna" and "born in British Columbia" where the text writes "Kelowna, British Columbia": the
    second place is where the first lies, not a second birthplace."""
    objects: dict[tuple[str, str], list[str]] = {}
    for subject, relation, obj, _ in grounded:
        objects.setdefault((subject.lookup, normalize_phrase(relation)), []).append(obj.words)
    kept = []
    for fact in grounded:
        subject, relation, obj, _ = fact
        if obj.kind != "item" or not obj.words[:1].isupper():
            kept.append(fact)
            continue
        inner = [
            o
            for o in objects[(subject.lookup, normalize_phrase(relation))]
            if o != obj.words and re.search(re.escape(o) + r"\s*,\s*" + re.escape(obj.words), text)
        ]
        if inner:
            result.warnings.append(
                f"dropped [{subject.words}, {relation}, {obj.words}]: {obj.words} is where {inner[0]} lies"
            )
            continue
        kept.append(fact)
    return kept


_NAMED_RELATION = re.compile(
    r"^(?P<verb>[a-z][a-z' -]*?)\s+(?:(?:the|a|an|her|his|their|its)\s+)?"
    r"(?P<name>[A-Z][\w'’.-]*(?:\s+(?:(?:of|in|for|the|de|von|van|and)\s+)*[A-Z0-9][\w'’.-]*)*)$"
)


def name_out_of_relation(head: str, relation: str, tail: str) -> list[tuple[str, str, str]]:
    """ "Lise Meitner | received the Max Planck Medal | 1949": the name in the relation is the object
    ("received" | "Max Planck Medal"); the year it came with has no place in a triple and is left out, but
    for a founding, where it is the founded's inception ("Anders Brolund | founded Korvbro | 2009")."""
    found = _NAMED_RELATION.match(" ".join(relation.split()))
    if not found or not (is_number_or_date(tail) or tail.strip().casefold() == head.strip().casefold()):
        return [(head, relation, tail)]
    out = [(head, found["verb"], found["name"])]
    if found["verb"] in _FOUNDING and is_number_or_date(tail):
        out.append((found["name"], "founded on", tail))
    return out


_FOUNDING = frozenset({"founded", "co-founded", "established", "set up", "started"})
