"""Output models of the specialist agents that several architectures share."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator


class FreeTriple(BaseModel):
    subject: str
    predicate: str
    object: str


def unique(items: list[str]) -> list[str]:
    """Each item once, in first-seen order: a small model looping on a list repeats the same phrase."""
    return list(dict.fromkeys(item.strip() for item in items if item.strip()))


class EntityList(BaseModel):
    entities: list[str] = Field(description="every named entity, date and number the text mentions, as written")

    _unique = field_validator("entities")(unique)


class PropertyList(BaseModel):
    properties: list[str] = Field(description="every relation the text states, as a short Wikidata-style phrase")

    _unique = field_validator("properties")(unique)


class TripleList(BaseModel):
    triples: list[FreeTriple] = Field(description="every fact as (subject, predicate, object) in words from the text")


class TurtleOutput(BaseModel):
    turtle: str = Field(description="one `wd:Q.. wdt:P.. wd:Q.. .` line per triple whose three IRIs are known")


def render_triples(triples: list[dict]) -> str:
    return "\n".join(f"({t['subject']}; {t['predicate']}; {t['object']})" for t in triples) or "(none)"
