"""What a knowledge base returns: records (entities, properties) and search hits."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field

from graphwright.kb.namespaces import entity_iri

Kind = Literal["entity", "property"]
KINDS: tuple[str, ...] = ("entity", "property")

#: How a hit was found. "exact"/"alias": the normalised query equals the label / an alias;
#: "fuzzy": string similarity; "lexical": full-text match; "embedding": vector similarity on the
#: searched field; "fused": several signals combined; "api": a remote search service ranked it.
Matched = Literal["exact", "alias", "fuzzy", "lexical", "embedding", "fused", "api"]


class KBRecord(BaseModel):
    """One entity (Q...) or property (P...) with the text a linker needs."""

    id: str = Field(description='Wikidata-style id, e.g. "Q42" or "P31".')
    kind: Kind
    label: str = ""
    aliases: list[str] = Field(default_factory=list)
    description: str = ""
    types: list[str] = Field(default_factory=list, description="P31 class ids (entities).")
    examples: list[str] = Field(default_factory=list, description="Usage examples as text (properties).")
    datatype: str | None = Field(default=None, description='Wikibase datatype (properties), e.g. "wikibase-item".')
    super_properties: list[str] = Field(default_factory=list, description="P1647 subproperty-of ids (properties).")
    subject_types: list[str] = Field(
        default_factory=list,
        description="Classes a subject must belong to (properties): P2302 subject type constraint "
        "with its P2308 classes, or rdfs:domain.",
    )
    value_types: list[str] = Field(
        default_factory=list,
        description="Classes an item value must belong to (properties): P2302 value-type "
        "constraint with its P2308 classes, or rdfs:range.",
    )
    unchecked_constraints: list[str] = Field(
        default_factory=list,
        description='Type constraints the source declares without their classes ("subject type", '
        '"value type"): the offline Wikidata dump has P2302 statements but not their P2308 qualifiers.',
    )
    sitelinks: int | None = Field(
        default=None,
        description="Number of Wikipedia and other Wikimedia pages about the item (a popularity prior); "
        "None where the source does not say.",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def iri(self) -> str:
        """The ``wd:`` entity IRI."""
        return entity_iri(self.id)

    def short(self) -> str:
        """``label (id): description`` - the one-line form agents see."""
        desc = f": {self.description}" if self.description else ""
        return f"{self.label or '(no label)'} ({self.id}){desc}"


class KBHit(BaseModel):
    """A search result: the record, how well it matched, and why."""

    record: KBRecord
    score: float
    matched: Matched
    mode: str = Field(description='The search mode that produced the hit ("label", "description", "example", "fused").')

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def label(self) -> str:
        return self.record.label
