"""The answer model of one run: triples whose parts are that run's candidate IRIs.

The model is built per document, so the JSON Schema (enums: constrained decoding can only pick
retrieved IRIs) and the validation (for backends that ignore schemas: an IRI outside the lists
is fed back as an error) come from the same lists and cannot disagree.
"""

from __future__ import annotations

from typing import Annotated, Any, Protocol

from pydantic import AfterValidator, BaseModel, BeforeValidator, Field, WithJsonSchema, create_model

from graphwright.kb.namespaces import parse_wikidata_id, short_iri


def _as_short_iri(value: Any) -> Any:
    """``Q42``, ``wd:Q42`` and full IRIs all mean ``wd:Q42``; other values fail the membership check."""
    if isinstance(value, str):
        ident = parse_wikidata_id(value)
        return short_iri(ident) if ident else value.strip()
    return value


def _one_of(allowed: list[str], kind: str):
    known = set(allowed)
    example = "wdt:P..." if kind == "property" else "wd:Q..."

    def check(value: str) -> str:
        if value not in known:
            raise ValueError(f"{value!r} is not one of the {kind} candidates; use a {example} IRI from the {kind} list")
        return value

    return check


def _iri_type(allowed: list[str], kind: str, description: str) -> Any:
    return Annotated[
        str,
        BeforeValidator(_as_short_iri),
        AfterValidator(_one_of(allowed, kind)),
        WithJsonSchema({"type": "string", "enum": list(allowed), "description": description}),
    ]


def answer_model(entities: list[str], properties: list[str]) -> type[BaseModel]:
    """``{"triples": [{"subject", "predicate", "object"}]}`` over these short IRIs (``wd:Q..``, ``wdt:P..``)."""
    entity = _iri_type(entities, "entity", "an entity candidate")
    prop = _iri_type(properties, "property", "a property candidate")
    triple = create_model("CandidateTriple", subject=(entity, ...), predicate=(prop, ...), object=(entity, ...))
    return create_model("SingleAnswer", triples=(list[triple], Field(description="every fact the text states")))


# answer_model builds its classes per document, so a type checker cannot see their fields; these say them.


class CandidateTripleAnswer(Protocol):
    subject: str
    predicate: str
    object: str


class SingleAnswer(Protocol):
    triples: list[CandidateTripleAnswer]
