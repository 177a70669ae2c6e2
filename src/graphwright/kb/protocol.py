"""What a system may ask of a knowledge base: the embedded ``LocalKB`` (a Wikidata slice or the user's
ontology) and the live ``WikidataKB`` both answer it, so a system is written once against this type.

Calls are synchronous: the local KB answers from memory and its indices, and the live one from its
on-disk cache or one HTTP request (graphwright.retry's policy)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from graphwright.kb.records import KBHit, KBRecord


@runtime_checkable
class KnowledgeBase(Protocol):
    def get(self, id_or_iri: str) -> KBRecord | None:
        """The entity or property, or None when the KB does not hold it."""

    def contains(self, id_or_iri: str) -> bool: ...

    def label(self, id_or_iri: str) -> str | None: ...

    def find_label(self, label: str, *, kind: str | None = None) -> list[KBRecord]:
        """Records whose label or an alias is ``label`` (normalised)."""

    def search(self, query: str, *, kind: str | None = None, mode: str = "fused", k: int = 5) -> list[KBHit]:
        """The ``k`` best records for a free-text query, best first; ``mode`` picks the signals."""

    def types(self, qid: str) -> list[str]:
        """The entity's P31 classes."""

    def superclasses(self, qid: str, depth: int = 1) -> list[str]: ...

    def super_properties(self, pid: str) -> list[KBRecord]: ...

    def sub_properties(self, pid: str) -> list[KBRecord]: ...

    def sparql(self, query: str) -> Any:
        """SELECT: a list of {variable: value}; ASK: a bool."""

    def stats(self) -> dict: ...

    def close(self) -> None: ...
