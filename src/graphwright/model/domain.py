"""An entity domain: what a domain-agnostic NER system needs to know of a new domain (paper 002).

Written by the user as YAML::

    name: astro
    domain: Titles of astronomy papers.
    types:
      Instrument: Telescopes, detectors, satellites and other instruments.
      Process: A physical process or phenomenon.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from pydantic import BaseModel, Field, field_validator

from graphwright.model.files import load_model_file
from graphwright.model.schema import SCHEMA_NS


class EntityDomain(BaseModel):
    name: str
    domain: str = Field(description="What the texts are, in a sentence or two.")
    types: dict[str, str] = Field(description="Entity type -> what it covers.")
    language: str = "en"

    def type_iri(self, name: str) -> str:
        """The class IRI of an entity type, minted under the graphwright schema namespace."""
        return SCHEMA_NS + quote(self.name, safe="") + "/" + quote(name, safe="")

    @field_validator("types")
    @classmethod
    def _types(cls, value: dict[str, str]) -> dict[str, str]:
        if not value:
            raise ValueError("a domain needs at least one entity type")
        bad = [t for t in value if not t or any(c in t for c in "<>/ \t\n")]
        if bad:
            raise ValueError(f"entity type names become XML tags and cannot hold spaces, '<', '>' or '/': {bad}")
        return value


def load_domain(path: Path | str) -> EntityDomain:
    return load_model_file(path, EntityDomain, "domain", "a mapping with 'domain' and 'types'")
