"""The growing graph in memory: resolved entities, edges (promoted or staged), merges, the schema
allow-list with its log, episodes and snapshots. ``growth.codec`` loads it from and saves it to the store."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple

EdgeStatus = Literal["promoted", "pending"]
MergeMethod = Literal["alias", "embedding", "short name"]
SchemaKind = Literal["relation", "entity_type"]


class Value(NamedTuple):
    """An edge's object: an entity IRI or a literal (a date, a number)."""

    kind: Literal["iri", "literal"]
    value: str
    datatype: str | None = None
    lang: str | None = None


EdgeKey = tuple[str, str, Value]


@dataclass
class Node:
    """One resolved entity: every document's mention of it points here."""

    iri: str
    label: str
    linked: bool
    created_at: str
    last_seen: str
    first_episode: int
    last_episode: int
    aliases: set[str] = field(default_factory=set)
    types: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)


@dataclass
class Evidence:
    document_id: str
    text: str
    system: str


@dataclass
class Edge:
    subject: str
    predicate: str
    object: Value
    status: EdgeStatus
    confidence: float  # now, after ageing
    observed: float  # as observed, before ageing
    created_at: str
    last_seen: str
    first_episode: int
    last_episode: int
    predicate_label: str | None = None
    reason: str | None = None  # why it was staged
    sources: set[str] = field(default_factory=set)  # the documents that support it: one vote each
    evidence: list[Evidence] = field(default_factory=list)

    @property
    def key(self) -> EdgeKey:
        return (self.subject, self.predicate, self.object)

    @property
    def votes(self) -> int:
        return len(self.sources)


@dataclass
class Merge:
    """An entity IRI found to name a node already in the graph, and how that was decided."""

    source: str
    target: str
    method: MergeMethod
    score: float
    label: str
    document_id: str
    episode: int
    recorded_at: str


@dataclass
class SchemaChange:
    version: int
    kind: SchemaKind
    term: str
    label: str | None
    reason: str
    episode: int
    recorded_at: str


@dataclass
class Snapshot:
    sid: str
    created_at: str
    episode: int
    note: str
    nodes: int
    edges: int


@dataclass
class EpisodeRecord:
    number: int
    recorded_at: str
    documents: int
    counts: dict[str, int] = field(default_factory=dict)
    metrics: dict[str, float] = field(default_factory=dict)
    snapshot: str | None = None


@dataclass
class GrowthState:
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: dict[EdgeKey, Edge] = field(default_factory=dict)
    redirects: dict[str, str] = field(default_factory=dict)  # merged IRI -> the node's IRI
    merges: list[Merge] = field(default_factory=list)
    allowed_relations: set[str] = field(default_factory=set)
    allowed_types: set[str] = field(default_factory=set)
    schema_version: int = 0
    schema_log: list[SchemaChange] = field(default_factory=list)
    type_sources: dict[str, set[str]] = field(default_factory=dict)  # a novel entity type -> its documents
    episodes: list[EpisodeRecord] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)
    merged_runs: dict[tuple[str, str], str] = field(default_factory=dict)  # (document, system) -> its run's time

    @property
    def episode(self) -> int:
        """The number of the last episode (0 before the first)."""
        return self.episodes[-1].number if self.episodes else 0

    def canonical(self, iri: str) -> str:
        seen = set()
        while iri in self.redirects and iri not in seen:
            seen.add(iri)
            iri = self.redirects[iri]
        return iri

    def promoted(self) -> list[Edge]:
        return [e for e in self.edges.values() if e.status == "promoted"]

    def pending(self) -> list[Edge]:
        return [e for e in self.edges.values() if e.status == "pending"]

    def counts(self) -> dict[str, int]:
        promoted = self.promoted()
        return {
            "entities": len(self.nodes),
            "edges": len(promoted),
            "pending": len(self.edges) - len(promoted),
            "merges": len(self.merges),
            "votes": sum(e.votes for e in self.edges.values()),
            "schema_version": self.schema_version,
        }
