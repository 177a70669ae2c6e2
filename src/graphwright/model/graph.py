"""Entities, mentions and triples: the graph content a system extracts."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field

from graphwright.kb.namespaces import is_unlinked
from graphwright.model.document import Span


class Mention(BaseModel):
    """One occurrence of an entity in the text."""

    surface: str
    span: Span | None = None


class Entity(BaseModel):
    """An entity found in the text: a KB entity, or one the KB lacks, kept under a minted IRI."""

    iri: str
    label: str | None = None
    types: list[str] = Field(default_factory=list, description="Class IRIs (e.g. from P31).")
    mentions: list[Mention] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def linked(self) -> bool:
        """False for an entity no KB entity fits, kept under an IRI graphwright minted."""
        return not is_unlinked(self.iri)


class Term(BaseModel):
    """One position of a triple: a KB IRI or a literal, with the words the text used."""

    kind: Literal["iri", "literal"] = "iri"
    value: str = Field(description="The IRI, or the literal's lexical form.")
    surface: str | None = Field(default=None, description="How the text expressed it.")
    label: str | None = Field(default=None, description="The KB label of the IRI.")
    datatype: str | None = Field(default=None, description="Literal datatype IRI, if any.")
    lang: str | None = Field(default=None, description="Language tag of a language-tagged string literal.")
    unit: str | None = Field(default=None, description="A quantity's unit as written ('kilometres', 'km/h').")

    @classmethod
    def iri(cls, value: str, surface: str | None = None, label: str | None = None) -> Term:
        return cls(kind="iri", value=value, surface=surface, label=label)

    @classmethod
    def literal(
        cls,
        value: str,
        datatype: str | None = None,
        surface: str | None = None,
        lang: str | None = None,
        unit: str | None = None,
    ) -> Term:
        return cls(
            kind="literal", value=value, datatype=None if lang else datatype, surface=surface, lang=lang, unit=unit
        )


class Provenance(BaseModel):
    """Where a triple came from and how sure the system is."""

    evidence: Span | None = Field(default=None, description="The sentence that supports the triple.")
    system: str
    agent: str | None = None
    model: str | None = None
    prompt_version: str | None = None
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    page: int | None = Field(default=None, ge=1, description="The source page of the evidence (a converted PDF).")


class Triple(BaseModel):
    """(subject, predicate, object) linked to a knowledge base."""

    subject: Term
    predicate: Term
    object: Term
    provenance: Provenance

    def key(self) -> tuple[str, str, str]:
        return (self.subject.value, self.predicate.value, self.object.value)
