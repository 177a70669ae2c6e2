"""The relation table: the phrases the extractor is shown and the KB property each maps to, by the kind
of its object (a name, a date or a number), read from relations.yaml."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Literal

import yaml

from graphwright.systems.facts.types import expected

ObjectKind = Literal["item", "date", "number"]
OBJECT_KINDS: tuple[ObjectKind, ...] = ("item", "date", "number")
# words that carry tense or emphasis, not the relation: "was born in" is "born in", "has been chief executive of"
_AUXILIARY = re.compile(
    r"^(?:(?:is|was|were|are|be|been|being|has|have|had|became|becomes|also|then|later|the|a|an|"
    r"its|his|her|their)\s+)+"
)


@dataclass(frozen=True)
class Mapping:
    """A KB property, and whether the fact's subject and object trade places in it."""

    property: str
    swapped: bool = False


@dataclass(frozen=True)
class Relation:
    phrase: str
    args: str  # "person > place": what the extractor is told the subject and object are
    properties: dict[str, Mapping]  # object kind -> mapping
    # the item property where the subject's type calls for another ("country" of a person is citizenship;
    # "located in" of a company is its headquarters)
    by_subject: dict[str, str] = field(default_factory=dict)

    @property
    def allows(self) -> tuple[frozenset[str] | None, frozenset[str] | None]:
        """The name types the subject and the object may have (None: any)."""
        subject, _, obj = self.args.partition(">")
        return expected(subject.strip()), expected(obj.strip())


@lru_cache(maxsize=1)
def relation_table() -> dict[str, Relation]:
    text = resources.files("graphwright.systems.facts").joinpath("relations.yaml").read_text(encoding="utf-8")
    table: dict[str, Relation] = {}
    for row in yaml.safe_load(text):
        properties: dict[str, Mapping] = {
            kind: Mapping(row[kind].lstrip("^"), row[kind].startswith("^")) for kind in OBJECT_KINDS if kind in row
        }
        by_subject = {kind: row[kind] for kind in ("person", "organisation") if kind in row}
        relation = Relation(row["phrase"], row["args"], properties, by_subject)
        for phrase in [row["phrase"], *row.get("also", ())]:
            if phrase in table:
                raise ValueError(f"relations.yaml: {phrase!r} is listed twice")
            table[phrase] = relation
    return table


@cache
def phrasings(property_id: str) -> frozenset[str]:
    """Every phrase of the table that maps onto a property, either way round ("parent", "father", "son of",
    "child" for P40): the words a sentence that states such a fact uses."""
    return frozenset(
        phrase
        for phrase, relation in relation_table().items()
        if any(m.property == property_id for m in relation.properties.values())
        or property_id in relation.by_subject.values()
    )


#: phrasings with a variable part, and the table phrase each is
_PATTERNS = [
    (re.compile(r"^(?:spent|worked) (?:\w+ ){0,3}(?:years?|decades?|months?) (?:at|with|for)$"), "works for"),
    (re.compile(r"^(?:studied|read|trained) (?:\w+ ){1,3}(?:at|from)$"), "educated at"),  # "studied history at"
    (re.compile(r"^(?:co-)?founded (?:the|a|this) (?:company|firm|business|group|start-up)$"), "founded"),
]


#: a title a text must write for a fact of the property to stand: a small model makes a person a company's
#: chief executive because she worked there ("worked for Caledonian MacBrayne for eleven years")
TITLE_WORDS = {
    "P169": r"chief executive(?: officer)?|ceo|managing director",
    "P488": r"chair(?:man|woman|person)?|president of the board",
}
TITLES = {pid: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for pid, words in TITLE_WORDS.items()}
#: a word the sentence stating a birth or death place must write: a small model makes a founder born where
#: she founded her company ("was founded in 2011 by Solveig Brekke in Florø")
EVENT_WORDS = {
    "P19": r"born|birth\w*|native|n[ée]e|hails? from",
    "P20": r"died|dies|death|dead|killed|drowned|perished|passed away|murdered|executed|buried",
}
EVENTS = {pid: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for pid, words in EVENT_WORDS.items()}


def spaced(name: str) -> str:
    """ "birthDate" -> "birth date": a camel-case or underscored name (as schemas write them) as words."""
    return " ".join(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").casefold().split())


def normalize_phrase(relation: str) -> str:
    """Lower case, single spaces (camel case and underscores as spaces), and no leading tense or possessive
    words; a phrasing with a variable part ("spent eleven years at") as the table's phrase."""
    phrase = spaced(relation)
    stripped = _AUXILIARY.sub("", phrase) or phrase
    return next((table_phrase for pattern, table_phrase in _PATTERNS if pattern.match(stripped)), stripped)


def table_entry(relation: str, kind: ObjectKind) -> Relation | None:
    """The table's relation for a phrase that maps objects of this kind: the phrase itself, or the phrase
    without its tense words ("was born in")."""
    table = relation_table()
    for phrase in dict.fromkeys((" ".join(relation.casefold().split()), normalize_phrase(relation))):
        if phrase in table and kind in table[phrase].properties:
            return table[phrase]
    return None


#: the prompt lists the table's phrases under the kind of subject they take (first word of "args")
_GROUPS = {
    "person": "person",
    "parent": "person",
    "child": "person",
    "player": "person",
    "successor": "person",
    "predecessor": "person",
    "organisation": "organisation",
    "company": "organisation",
    "work": "work or product",
    "film": "work or product",
    "product": "work or product",
    "object": "work or product",
    "place": "place or building",
    "building": "place or building",
    "country": "place or building",
    "project": "place or building",
    "event": "event",
    "competition": "event",
}
_VALUE_WORDS = ("date", "number", "amount", "quantity")


def prompt_lines() -> str:
    """The table as the extractor reads it: one line per kind of subject, a phrase's object named where it
    is a value ("born on (date)"), so that the subject comes first and the object kind is plain."""
    groups: dict[str, list[str]] = {}
    for phrase, relation in relation_table().items():
        if phrase != relation.phrase:  # another phrasing: not shown
            continue
        subject, _, obj = relation.args.partition(">")
        group = _GROUPS.get(subject.split()[0], "anything")
        obj = obj.strip()
        shown = obj in _VALUE_WORDS and obj != relation.phrase
        groups.setdefault(group, []).append(f"{relation.phrase} ({obj})" if shown else relation.phrase)
    return "\n".join(f"  {group}: {', '.join(phrases)}" for group, phrases in groups.items())
