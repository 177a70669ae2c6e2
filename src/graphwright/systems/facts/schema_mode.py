"""``facts`` with the user's schema in place of the KB's properties.

The extractor is shown the schema's relations by name, under the type of subject they take, and writes
them as it writes the table's phrases otherwise. A fact maps onto a schema relation when it names one
(``birthDate``, "birth date"), or when the relation table or a KB property label maps its phrase onto a
Wikidata property that exactly one schema relation stands for (its name is that property's label or an
alias: "alma mater" is P69, so "studied at" reaches ``almaMater``). What maps onto none is kept under its
phrase, or dropped when the user asks for the schema's relations only (``outside_schema="drop"``).
"""

from __future__ import annotations

import re

from graphwright.model.schema import RelationSchema, RelationType
from graphwright.systems.facts.mapping import Mapped
from graphwright.systems.facts.relations import Mapping, ObjectKind, table_entry
from graphwright.systems.facts.types import expected, fits

#: object types that take a value of one kind (lower case); a schema's other types take names
DATE_TYPES = frozenset({"date", "year", "datetime", "gyear", "xsd:date", "xsd:gyear", "time"})
NUMBER_TYPES = frozenset({"number", "integer", "int", "float", "double", "decimal", "quantity", "xsd:integer",
                          "xsd:decimal", "xsd:double", "nonnegativeinteger", "positiveinteger"})
STRING_TYPES = frozenset({"string", "text", "xsd:string", "literal"})
_WIKIDATA_PROPERTY = re.compile(r"(?:^|/)(P\d+)$")


def relation_key(name: str) -> str:
    """A relation's name as the model may write it: case, spaces and underscores aside ("birthDate",
    "birth date", "birth_date" are one)."""
    return re.sub(r"[\s_\-]+", "", name.casefold())


def spaced(name: str) -> str:
    """"birthDate" -> "birth date": a camel-case or underscored name as words, for label lookups."""
    return " ".join(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").casefold().split())


def object_kinds(relation: RelationType) -> set[str]:
    """What a relation's object may be: "date", "number", "string" (any value, written as it stands) or
    "item" (a name), from the types its tail lists (none listed: a name or a value)."""
    kinds = set()
    for name in relation.tail or ["any"]:
        folded = name.casefold()
        kinds.add("date" if folded in DATE_TYPES else "number" if folded in NUMBER_TYPES
                  else "string" if folded in STRING_TYPES or folded == "any" else "item")
    return kinds


def takes(relation: RelationType, kind: ObjectKind) -> bool:
    kinds = object_kinds(relation)
    return "string" in kinds or kind in kinds


def subject_fits(relation: RelationType, subject_type: str | None) -> bool:
    """Whether the inferred type of a fact's subject can stand where the relation's head types stand (a
    head type graphwright has no coarse type for allows any)."""
    allowed = [expected(t.casefold()) for t in relation.head]
    if not allowed or any(a is None for a in allowed):
        return True
    return fits(subject_type, frozenset().union(*allowed)) is not False


class SchemaRelations:
    """One schema's relations: what the extractor is shown, and which relation a fact maps onto."""

    def __init__(self, schema: RelationSchema, kb):
        self.schema = schema
        self._by_key = {relation_key(r.name): r for r in schema.relations}
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
        props = {entry.properties[kind].property for kind in ("item", "date", "number")
                 for entry in [table_entry(words, kind)] if entry and not entry.properties[kind].swapped}
        if kb is not None:
            props |= {hit.record.id for hit in kb.search(words, kind="property", mode="label", k=5)
                      if hit.matched in ("exact", "alias")}
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
        """The relation the phrase names, when it takes an object of this kind."""
        relation = self._by_key.get(relation_key(phrase))
        return relation if relation and takes(relation, kind) else None

    def map(self, phrase: str, kind: ObjectKind, types: tuple[str | None, str | None],
            wikidata: Mapped | None) -> Mapped | None:
        """The schema relation of a fact (``Mapping.property`` holds its name): the one the phrase names,
        else the one relation standing for the Wikidata property the phrase maps onto."""
        relation = self.named(phrase, kind)
        if relation:
            return Mapped(Mapping(relation.name), "table")
        if wikidata is None or wikidata.mapping is None:
            return None
        subject_type = types[1] if wikidata.mapping.swapped else types[0]
        fitting = [r for r in self._by_property.get(wikidata.mapping.property, ())
                   if takes(r, kind) and subject_fits(r, subject_type)]
        if len(fitting) != 1:  # none, or several the phrase does not choose between
            return None
        return Mapped(Mapping(fitting[0].name, wikidata.mapping.swapped), wikidata.via)

    def is_string(self, name: str) -> bool:
        """Whether the relation's object is a plain value (written as the text writes it), not a name."""
        relation = self.schema.get(name)
        return relation is not None and object_kinds(relation) == {"string"} and bool(relation.tail)
