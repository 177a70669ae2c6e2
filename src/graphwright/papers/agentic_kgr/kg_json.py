"""Agentic-KGR's schema and extraction formats (paper 004, A.4) and the validator behind its format reward.

Schema::     {"entity_schema": ["Person", ...], "relation_schema": ["works_for", ...]}
Extraction:: {"entities": {"Person": ["Ada Lovelace"]},
              "relations": {"works_for": [{"subject": "Ada Lovelace", "object": "Acme"}]}}
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphwright.model.schema import RelationSchema, minted_relation_iri, minted_type_iri


class Pair(BaseModel):
    model_config = ConfigDict(extra="forbid")

    subject: str
    object: str


class KG(BaseModel):
    """One extraction in the paper's JSON format."""

    model_config = ConfigDict(extra="forbid")

    relations: dict[str, list[Pair]] = Field(default_factory=dict, description="relation type -> subject/object pairs")
    entities: dict[str, list[str]] = Field(default_factory=dict, description="entity type -> names")

    def entity_names(self) -> set[str]:
        return {name for names in self.entities.values() for name in names}

    def entity_rows(self) -> list[tuple[str, str]]:
        """(type, name), each once, in order."""
        return list(dict.fromkeys((t, n) for t, names in self.entities.items() for n in names))

    def triples(self) -> list[tuple[str, str, str]]:
        """(subject, relation, object), each once, in order."""
        return list(dict.fromkeys((p.subject, r, p.object) for r, pairs in self.relations.items() for p in pairs))

    def counts(self) -> tuple[int, int]:
        return len(self.entity_rows()), len(self.triples())

    def render(self) -> str:
        return json.dumps(self.model_dump(), ensure_ascii=False)

    @classmethod
    def from_triples(cls, triples, schema: KGSchema) -> KG:
        """(head, relation, tail) triples as the extraction format, each argument typed by the relation's
        signature (the first type it names)."""
        entities: dict[str, list[str]] = {}
        relations: dict[str, list[Pair]] = {}
        for head, relation, tail in triples:
            heads, tails = schema.signatures.get(relation, ([], []))
            for name, types in ((head, heads), (tail, tails)):
                names = entities.setdefault(types[0] if types else schema.entity_types[0], [])
                if name not in names:
                    names.append(name)
            relations.setdefault(relation, []).append(Pair(subject=head, object=tail))
        return cls(entities=entities, relations=relations)


@dataclass
class KGSchema:
    name: str
    entity_types: list[str]
    relation_types: list[str]
    # relation -> (subject types, object types), where the schema says
    signatures: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    cues: dict[str, list[str]] = field(default_factory=dict)
    relation_iris: dict[str, str] = field(default_factory=dict)  # where the schema names one

    @classmethod
    def from_relation_schema(cls, schema: RelationSchema, entity_types: Sequence[str] = ()) -> KGSchema:
        types = list(dict.fromkeys([*entity_types, *schema.entity_types]))
        return cls(
            name=schema.name,
            entity_types=types or ["entity"],
            relation_types=schema.names,
            signatures={r.name: (r.head, r.tail) for r in schema.relations},
            descriptions={r.name: r.description for r in schema.relations},
            cues={r.name: r.cues for r in schema.relations if r.cues},
            relation_iris={r.name: schema.relation_iri(r.name) for r in schema.relations},
        )

    def relation_iri(self, relation: str) -> str:
        """The schema's IRI of a relation, or one minted beside it (a relation outside the schema)."""
        return self.relation_iris.get(relation) or minted_relation_iri(self.name, relation)

    def type_iri(self, entity_type: str) -> str:
        return minted_type_iri(self.name, entity_type)

    def render(self) -> str:
        return json.dumps(
            {"entity_schema": self.entity_types, "relation_schema": self.relation_types}, ensure_ascii=False
        )

    def guidelines(self) -> str:
        lines = []
        for name in self.relation_types:
            head, tail = self.signatures.get(name, ([], []))
            text = f"- {name} ({'/'.join(head) or 'entity'} -> {'/'.join(tail) or 'entity'})"
            lines.append(f"{text}: {self.descriptions[name]}" if self.descriptions.get(name) else text)
        return "\n".join(lines)

    def json_schema(self) -> dict[str, Any]:
        """The extraction format with the schema's types as its only keys (for constrained decoding). The
        relations come first: a small model that lists the entities first puts every name under the first
        type and stops there; key order carries no meaning in JSON, so this is still the paper's format."""
        names = {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 80}}
        pair = {
            "type": "object",
            "properties": {
                "subject": {"type": "string", "minLength": 1, "maxLength": 80},
                "object": {"type": "string", "minLength": 1, "maxLength": 80},
            },
            "required": ["subject", "object"],
            "additionalProperties": False,
        }
        return {
            "type": "object",
            "additionalProperties": False,
            "required": ["relations", "entities"],
            "properties": {
                "relations": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {r: {"type": "array", "items": pair} for r in self.relation_types},
                },
                "entities": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {t: names for t in self.entity_types},
                },
            },
        }


@dataclass
class FormatCheck:
    """Whether an answer follows the extraction format, and what is wrong with it."""

    valid: bool
    kg: KG | None
    errors: list[str] = field(default_factory=list)


def check_format(text: str) -> FormatCheck:
    """Parse ``text`` as the extraction JSON; the errors name what breaks the format."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return FormatCheck(False, None, [f"not JSON: {exc}"])
    if not isinstance(data, dict):
        return FormatCheck(False, None, ["the answer must be a JSON object with 'entities' and 'relations'"])
    errors = [f"missing key {key!r}" for key in ("entities", "relations") if key not in data]
    errors += [f"unexpected key {key!r}" for key in data if key not in ("entities", "relations")]
    entities, relations = data.get("entities", {}), data.get("relations", {})
    if not isinstance(entities, dict) or not all(
        isinstance(v, list) and all(isinstance(n, str) for n in v) for v in entities.values()
    ):
        errors.append("'entities' must map each type to a list of names")
    if not isinstance(relations, dict) or not all(
        isinstance(v, list)
        and all(
            isinstance(p, dict) and set(p) == {"subject", "object"} and all(isinstance(x, str) for x in p.values())
            for p in v
        )
        for v in relations.values()
    ):
        errors.append('\'relations\' must map each type to a list of {"subject", "object"} pairs')
    if errors:
        return FormatCheck(False, None, errors)
    return FormatCheck(True, KG.model_validate(data))
