"""``facts`` with the user's schema in place of the KB's properties.

The extractor is shown the schema's relations by name, under the type of subject they take, and writes
them as it writes the table's phrases otherwise. A fact maps onto a schema relation when it names one
(``birthDate``, "birth date"); when the relation table or a KB property label maps its phrase onto a
Wikidata property that exactly one schema relation stands for (its name is that property's label or an
alias: "alma mater" is P69, so "studied at" reaches ``almaMater``); or when its words, stemmed, are
nearest one relation's name or short description ("affiliated with" is ``affiliation``). The schema's
head and tail types vote on the names' types; a fact whose types fit the relation only the other way
round ("Dr. Rao | director | Acme College" under University > Person), or written with a noun's "of"
("leader of"), is turned round. What maps onto none is kept under its phrase, or dropped when the user
asks for the schema's relations only (``outside_schema="drop"``).
"""

from __future__ import annotations

import re

from graphwright.model.schema import RelationSchema, RelationType
from graphwright.systems.facts.mapping import Mapped
from graphwright.systems.facts.relations import Mapping, ObjectKind, spaced, table_entry
from graphwright.systems.facts.types import expected, fits
from graphwright.systems.facts.types import reads_backwards as types_read_backwards

#: object types that take a value of one kind (lower case); a schema's other types take names
DATE_TYPES = frozenset({"date", "year", "datetime", "gyear", "xsd:date", "xsd:gyear", "time"})
NUMBER_TYPES = frozenset(
    {
        "number",
        "integer",
        "int",
        "float",
        "double",
        "decimal",
        "quantity",
        "xsd:integer",
        "xsd:decimal",
        "xsd:double",
        "nonnegativeinteger",
        "positiveinteger",
    }
)
STRING_TYPES = frozenset({"string", "text", "xsd:string", "literal"})
_WIKIDATA_PROPERTY = re.compile(r"(?:^|/)(P\d+)$")
#: the last word of a schema's type name and the coarse type (graphwright.systems.facts.types) it means
_TYPE_WORDS = {
    "person": "person",
    "astronaut": "person",
    "politician": "person",
    "scientist": "person",
    "artist": "person",
    "athlete": "person",
    "writer": "person",
    "author": "person",
    "leader": "person",
    "commander": "person",
    "saint": "person",
    "player": "person",
    "actor": "person",
    "musician": "person",
    "architect": "person",
    "university": "organisation",
    "company": "organisation",
    "organisation": "organisation",
    "organization": "organisation",
    "band": "organisation",
    "team": "organisation",
    "club": "organisation",
    "party": "organisation",
    "school": "organisation",
    "label": "organisation",
    "airline": "organisation",
    "place": "place",
    "city": "place",
    "country": "place",
    "state": "place",
    "region": "place",
    "county": "place",
    "airport": "place",
    "building": "place",
    "monument": "place",
    "campus": "place",
    "town": "place",
    "village": "place",
    "municipality": "place",
    "district": "place",
    "location": "place",
}
_FUNCTION_WORDS = frozenset(
    {
        "of",
        "the",
        "a",
        "an",
        "in",
        "on",
        "at",
        "by",
        "with",
        "to",
        "for",
        "is",
        "was",
        "has",
        "have",
        "had",
        "its",
        "his",
        "her",
        "their",
        "from",
        "as",
    }
)
_SUFFIXES = ("ations", "ation", "ated", "ating", "ings", "ing", "ions", "ion", "ers", "er", "ed", "es", "s")
_SAME = {"year": "date"}  # "foundingYear" of a schema that has "foundingDate": a year is part of a date
NEAR = 0.5  # the least share of words a phrase and a relation's name must have in common


def relation_key(name: str) -> str:
    """A relation's name as the model may write it: case, spaces and underscores aside ("birthDate",
    "birth date", "birth_date" are one)."""
    return re.sub(r"[\s_\-]+", "", name.casefold())


def object_kinds(relation: RelationType) -> set[str]:
    """What a relation's object may be: "date", "number", "string" (any value, written as it stands) or
    "item" (a name), from the types its tail lists (none listed: a name or a value)."""
    kinds = set()
    for name in relation.tail or ["any"]:
        folded = name.casefold()
        kinds.add(
            "date"
            if folded in DATE_TYPES
            else "number"
            if folded in NUMBER_TYPES
            else "string"
            if folded in STRING_TYPES or folded == "any"
            else "item"
        )
    return kinds


def word_stems(name: str) -> frozenset[str]:
    """A name's or phrase's words without function words and common endings: "affiliated with" and
    "affiliation" are both {"affili"}."""
    stems = set()
    for word in spaced(name).split():
        if word in _FUNCTION_WORDS:
            continue
        stem = next((word[: -len(s)] for s in _SUFFIXES if word.endswith(s) and len(word) - len(s) >= 4), word)
        stems.add(_SAME.get(stem, stem))
    return frozenset(stems)


def coarse_types(type_names: list[str]) -> frozenset[str] | None:
    """The coarse types a relation side's type names stand for; None when one of them is unknown (any)."""
    found = set()
    for name in type_names:
        words = spaced(name).split()
        kind = expected(" ".join(words)) or (_TYPE_WORDS.get(words[-1]) if words else None)
        if kind is None:
            return None
        found |= {kind} if isinstance(kind, str) else set(kind)
    return frozenset(found) or None


def takes(relation: RelationType, kind: ObjectKind) -> bool:
    kinds = object_kinds(relation)
    return "string" in kinds or kind in kinds


def subject_fits(relation: RelationType, subject_type: str | None) -> bool:
    """Whether the inferred type of a fact's subject can stand where the relation's head types stand (a
    head type graphwright has no coarse type for allows any)."""
    return fits(subject_type, coarse_types(relation.head)) is not False


def reads_backwards(relation: RelationType, types: tuple[str | None, str | None]) -> bool:
    """Whether the names' types fit the relation only with subject and object traded."""
    return types_read_backwards(*types, (coarse_types(relation.head), coarse_types(relation.tail)))


class SchemaRelations:
    """One schema's relations: what the extractor is shown, and which relation a fact maps onto."""

    def __init__(self, schema: RelationSchema, kb):
        self.schema = schema
        self._by_key = {relation_key(r.name): r for r in schema.relations}
        # each relation's name and description as stemmed words, once: every unmapped phrase is compared with all
        self._stems = [(r, word_stems(r.name), word_stems(r.description)) for r in schema.relations]
        self._strings = {r.name for r in schema.relations if r.tail and object_kinds(r) == {"string"}}
        self.shown_kinds: dict[str, set[str]] = {}  # relation -> the kinds of object the user's examples give it
        self._by_property: dict[str, list[RelationType]] = {}  # Wikidata property -> relations standing for it
        for relation in schema.relations:
            for prop in self._properties_of(relation, kb):
                self._by_property.setdefault(prop, []).append(relation)

    @staticmethod
    def _properties_of(relation: RelationType, kb) -> set[str]:
        """The Wikidata properties a relation stands for: its IRI's, else those its name is a label or
        alias of, in the relation table or the KB."""
        found = _WIKIDATA_PROPERTY.search(relation.iri or "")
        if found:
            return {found.group(1)}
        words = spaced(relation.name)
        props = {
            entry.properties[kind].property
            for kind in ("item", "date", "number")
            for entry in [table_entry(words, kind)]
            if entry and not entry.properties[kind].swapped
        }
        if kb is not None:
            props |= {
                hit.record.id
                for hit in kb.search(words, kind="property", mode="label", k=5)
                if hit.matched in ("exact", "alias")
            }
        return props

    def prompt_lines(self) -> str:
        """The relations under the type of subject they take, each with its object's type in brackets."""
        groups: dict[str, list[str]] = {}
        for relation in self.schema.relations:
            head = " or ".join(relation.head) or "anything"
            tail = " or ".join(relation.tail) or "anything"
            groups.setdefault(head, []).append(f"{relation.name} ({tail})")
        return "\n".join(f"  {head}: {', '.join(names)}" for head, names in groups.items())

    def named(self, phrase: str, kind: ObjectKind) -> RelationType | None:
        """The relation the phrase names, when it takes an object of this kind (by its declared range, or
        by what the user's examples put under it)."""
        relation = self._by_key.get(relation_key(phrase))
        if relation and (takes(relation, kind) or kind in self.shown_kinds.get(relation.name, ())):
            return relation
        return None

    def map(
        self, phrase: str, kind: ObjectKind, types: tuple[str | None, str | None], wikidata: Mapped | None
    ) -> Mapped | None:
        """The schema relation of a fact (``Mapping.property`` holds its name): the one the phrase names, else
        the one standing for the Wikidata property the phrase maps onto, else the one nearest in words."""
        named = self.named(phrase, kind)
        if not named:
            bridged = self._bridged(kind, types, wikidata)
            if bridged:
                return bridged
        relation = named or self._nearest(phrase, kind)
        if relation is None:
            return None
        # "Kochi | leader of | Kerala" is Kerala's leader: a noun's "of" reads from object to subject
        swapped = (
            kind == "item" and phrase.casefold().split()[-1:] == ["of"] and not spaced(relation.name).endswith(" of")
        )
        if kind == "item" and reads_backwards(relation, types[::-1] if swapped else types):
            swapped = not swapped
        return Mapped(Mapping(relation.name, swapped), "table" if named else "label")

    def _bridged(
        self, kind: ObjectKind, types: tuple[str | None, str | None], wikidata: Mapped | None
    ) -> Mapped | None:
        if wikidata is None or wikidata.mapping is None:
            return None
        subject_type = types[1] if wikidata.mapping.swapped else types[0]
        fitting = [
            r
            for r in self._by_property.get(wikidata.mapping.property, ())
            if takes(r, kind) and subject_fits(r, subject_type)
        ]
        if len(fitting) != 1:  # none, or several the phrase does not choose between
            return None
        return Mapped(Mapping(fitting[0].name, wikidata.mapping.swapped), wikidata.via)

    def _nearest(self, phrase: str, kind: ObjectKind) -> RelationType | None:
        """The one relation whose name, or short description, shares the most stemmed words with the phrase,
        at least ``NEAR`` of the words of both together ("chief executive" is ``ceo``, described as "chief
        executive officer")."""
        stems = word_stems(phrase)
        if not stems:
            return None

        def overlap(other: frozenset[str]) -> float:
            return len(stems & other) / len(stems | other) if other else 0.0

        scored = sorted(
            ((max(overlap(name), overlap(description)), r) for r, name, description in self._stems if takes(r, kind)),
            key=lambda sr: -sr[0],
        )
        if not scored or scored[0][0] < NEAR or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            return None
        return scored[0][1]

    def is_string(self, name: str) -> bool:
        """Whether the relation's object is a plain value (written as the text writes it), not a name."""
        return name in self._strings
