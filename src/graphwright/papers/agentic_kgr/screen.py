"""What agentic-kgr never stores, whichever path produced it: a name the text does not hold, a type or
relation outside the schema, a relation between a name and itself, arguments of the wrong type, and a
relation with cue words whose sentences hold none of them. A wrong fact about a real entity is worse than a
missing one; each dropped item is reported with its reason."""

from __future__ import annotations

from graphwright.cues import cued
from graphwright.papers.agentic_kgr.analysis import in_text, normalize_name
from graphwright.papers.agentic_kgr.kg_json import KG, KGSchema, Pair


def screen(kg: KG, text: str, schema: KGSchema) -> tuple[KG, list[str]]:
    dropped: list[str] = []
    type_names = {normalize_name(t) for t in schema.entity_types}
    entities: dict[str, list[str]] = {}
    types_of: dict[str, set[str]] = {}
    for entity_type, name in kg.entity_rows():
        reason = (
            "type not in the schema"
            if entity_type not in schema.entity_types
            else "not in the text"
            if not in_text(name, text)
            else "a type name, not an entity"
            if normalize_name(name) in type_names
            else None
        )
        if reason:
            dropped.append(f"entity {name!r} ({entity_type}): {reason}")
            continue
        entities.setdefault(entity_type, []).append(name)
        types_of.setdefault(name, set()).add(entity_type)
    relations: dict[str, list[Pair]] = {}
    for s, r, o in kg.triples():
        heads, tails = schema.signatures.get(r, ([], []))
        reason = (
            "relation not in the schema"
            if r not in schema.relation_types
            else "subject and object are the same"
            if normalize_name(s) == normalize_name(o)
            else "an argument is not among the entities"
            if s not in types_of or o not in types_of
            else f"the arguments' types do not fit {r}"
            if (heads and not types_of[s] & set(heads)) or (tails and not types_of[o] & set(tails))
            else "no sentence naming them states it"
            if not cued(text, (s, o), schema.cues.get(r))
            else None
        )
        if reason:
            dropped.append(f"relation ({s}, {r}, {o}): {reason}")
            continue
        relations.setdefault(r, []).append(Pair(subject=s, object=o))
    return KG(entities=entities, relations=relations), dropped
