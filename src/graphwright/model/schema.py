"""A relation schema: the fixed set of relations a relation extractor may output, with guidelines.

A user writes one as YAML or JSON::

    name: company-news
    relations:
      works_for:
        description: the head person is employed by the tail organisation
        head: [Person]
        tail: [Organization]
      based_in: {description: the head organisation has its seat in the tail place, head: [Organization], tail: [Location]}

Relations without an ``iri`` get one minted under the graphwright namespace, so their triples can go
into the graph store; entities found only by name get minted IRIs the same way.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from urllib.parse import quote

from pydantic import BaseModel, Field, field_validator

from graphwright.kb.namespaces import UNLINKED, UNLINKED_RELATION
from graphwright.model.files import load_model_file

SCHEMA_NS = "https://graphwright.dev/schema/"


class RelationType(BaseModel):
    name: str
    description: str = ""
    head: list[str] = Field(default_factory=list, description="Entity types the head may have.")
    tail: list[str] = Field(default_factory=list, description="Entity types the tail may have.")
    iri: str | None = None
    cues: list[str] = Field(
        default_factory=list,
        description="Words one of which a sentence naming the head or "
        "the tail must hold for the relation to be read from it (born, married): small models "
        "list relations a text never states.",
    )

    def guideline(self) -> str:
        """One line for a prompt: the name, the argument types and the definition."""
        head, tail = "/".join(self.head) or "entity", "/".join(self.tail) or "entity"
        text = f"{self.name} ({head} -> {tail})"
        return f"{text}: {self.description}" if self.description else text


class RelationSchema(BaseModel):
    name: str
    relations: list[RelationType]
    language: str = "en"
    note: str = ""
    types: dict[str, str] = Field(
        default_factory=dict, description="What each entity type means (Peop: a person), for agents that type entities."
    )

    @field_validator("relations")
    @classmethod
    def _distinct(cls, value: list[RelationType]) -> list[RelationType]:
        return distinct_names(value, "a schema needs at least one relation", "relations")

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.relations]

    def get(self, name: str) -> RelationType | None:
        return next((r for r in self.relations if r.name == name), None)

    def relation_iri(self, name: str) -> str:
        relation = self.get(name)
        if relation and relation.iri:
            return relation.iri
        return minted_relation_iri(self.name, name)

    def type_iri(self, entity_type: str) -> str:
        """The class IRI of an entity type the relations name as head or tail."""
        return minted_type_iri(self.name, entity_type)

    @property
    def entity_types(self) -> list[str]:
        return list(dict.fromkeys([*(t for r in self.relations for t in [*r.head, *r.tail]), *self.types]))

    def type_lines(self) -> str:
        """The entity types of a prompt, one per line, with their meaning where the schema gives it."""
        return "\n".join(f"- {t}: {self.types[t]}" if self.types.get(t) else f"- {t}" for t in self.entity_types)

    def fitting(self, head_type: str, tail_type: str) -> list[str]:
        """Relations whose argument types allow this head and tail type (a side that lists no type allows any)."""
        return [
            r.name
            for r in self.relations
            if (not r.head or head_type in r.head) and (not r.tail or tail_type in r.tail)
        ]

    def guidelines(self, names: list[str] | None = None) -> str:
        wanted = self.relations if names is None else [r for r in self.relations if r.name in set(names)]
        return "\n".join(f"- {r.guideline()}" for r in wanted)


def minted_relation_iri(schema: str, relation: str) -> str:
    """The IRI graphwright mints for a relation of a schema that gives it none."""
    return SCHEMA_NS + quote(schema, safe="") + "/" + quote(relation, safe="")


def phrase_relation_iri(phrase: str) -> str:
    """The IRI of a relation kept under the text's phrase because no KB property fits it: one phrase is one
    relation, whichever document or system states it, until a user maps it onto a property."""
    return UNLINKED_RELATION + quote(" ".join(phrase.split()), safe="")


def minted_type_iri(schema: str, entity_type: str) -> str:
    """The IRI graphwright mints for an entity type of a relation schema."""
    return SCHEMA_NS + quote(schema, safe="") + "/type/" + quote(entity_type, safe="")


def name_entity_iri(name: str) -> str:
    """A stable IRI for an entity known only by its name: the same name in two documents is one node."""
    key = " ".join(unicodedata.normalize("NFKC", name).split())
    return UNLINKED + quote(key, safe="")  # the namespace of entities no KB entity stands behind


def distinct_names(items: list, empty: str, what: str) -> list:
    """``items`` (with ``.name``) when there are some and no name is used twice; else a ValueError."""
    if not items:
        raise ValueError(empty)
    names = [item.name for item in items]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"{what} named twice: {', '.join(twice)}")
    return items


def listed(key: str):
    """A file's ``key`` written as a name -> definition mapping, made the list of named items the model takes."""

    def prepare(data: dict) -> dict:
        items = data.get(key)
        if isinstance(items, dict):
            data = {**data, key: [{"name": k, **(v or {})} for k, v in items.items()]}
        return data

    return prepare


def load_schema(path: Path | str) -> RelationSchema:
    """A schema from a YAML or JSON file; ``relations`` may be a list or a name -> definition mapping."""
    return load_model_file(path, RelationSchema, "schema", "a mapping with 'name' and 'relations'", listed("relations"))
