"""Fold one stored run (a document's entities and triples) into the growing graph.

An edge seen for the first time is promoted at once when it is confident enough and its relation type is in
the schema; otherwise it is staged with the reason. A document that supports an edge again adds no vote
(re-reading a text is not new evidence); another document adds one and raises the confidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from graphwright.growth.policy import GrowthPolicy
from graphwright.growth.resolve import Resolver, short_names
from graphwright.growth.state import Edge, Evidence, GrowthState, Merge, Node, Value
from graphwright.kb.namespaces import WD, WDT, is_unlinked
from graphwright.model import Entity, Term, Triple


@dataclass(frozen=True)
class Tick:
    """When an observation happens: a time (ISO 8601, UTC) and the episode number."""

    time: str
    episode: int


@dataclass
class Run:
    """What one system stored for one document."""

    document_id: str
    system: str
    recorded_at: str
    entities: list[Entity] = field(default_factory=list)
    triples: list[Triple] = field(default_factory=list)


@dataclass
class Observed:
    """What folding runs in changed (summed over an episode)."""

    documents: int = 0
    new_entities: int = 0
    new_merges: int = 0
    new_edges: int = 0
    staged: int = 0
    new_votes: int = 0
    self_loops: int = 0


def relation_allowed(state: GrowthState, policy: GrowthPolicy, predicate: str) -> bool:
    return predicate in state.allowed_relations or (policy.allow_kb_terms and predicate.startswith(WDT))


def type_allowed(state: GrowthState, policy: GrowthPolicy, type_iri: str) -> bool:
    return type_iri in state.allowed_types or (policy.allow_kb_terms and type_iri.startswith(WD))


class Observer:
    def __init__(self, state: GrowthState, policy: GrowthPolicy, resolver: Resolver) -> None:
        self.state, self.policy, self.resolver = state, policy, resolver

    def run(self, run: Run, tick: Tick, out: Observed) -> None:
        out.documents += 1
        doc = run.document_id
        resolved: dict[str, str] = {}
        labels = {
            e.iri: e.label or next(iter(sorted(m.surface for m in e.mentions if m.surface)), None) or e.iri
            for e in run.entities
        }
        shortened = short_names({e.iri: (labels[e.iri], set(e.types)) for e in run.entities if is_unlinked(e.iri)})
        # longer names first, so a short name of the same text finds the node its full name resolved to
        for entity in sorted(run.entities, key=lambda e: e.iri in shortened):
            surfaces = {m.surface for m in entity.mentions if m.surface}
            if entity.iri in shortened and shortened[entity.iri] in resolved:
                resolved[entity.iri] = self._short_name(
                    entity, labels[entity.iri], resolved[shortened[entity.iri]], surfaces, doc, tick, out
                )
                continue
            resolved[entity.iri] = self._entity(
                entity.iri, labels[entity.iri], set(entity.types), surfaces, doc, tick, out
            )
        for triple in run.triples:
            self._triple(triple, run, resolved, tick, out)
        self.state.merged_runs[(doc, run.system)] = run.recorded_at

    def _entity(
        self, iri: str, label: str, types: set[str], surfaces: set[str], doc: str, tick: Tick, out: Observed
    ) -> str:
        linked = not is_unlinked(iri)
        found = self.resolver.resolve(iri, label, types, linked)
        node = self.state.nodes.get(found.iri)
        if node is None:
            node = Node(
                iri=found.iri,
                label=label,
                linked=linked,
                created_at=tick.time,
                last_seen=tick.time,
                first_episode=tick.episode,
                last_episode=tick.episode,
            )
            self.state.nodes[found.iri] = node
            out.new_entities += 1
        if found.merge is not None:
            merge = found.merge
            merge.document_id, merge.episode, merge.recorded_at = doc, tick.episode, tick.time
            self.state.merges.append(merge)
            self.state.redirects[merge.source] = merge.target
            out.new_merges += 1
        node.aliases |= {label, *surfaces} - {node.label}
        node.types |= types
        node.sources.add(doc)
        node.last_seen, node.last_episode = tick.time, tick.episode
        self.resolver.index(node)
        for t in types:
            if not type_allowed(self.state, self.policy, t):
                self.state.type_sources.setdefault(t, set()).add(doc)
        return node.iri

    def _short_name(
        self, entity: Entity, label: str, target: str, surfaces: set[str], doc: str, tick: Tick, out: Observed
    ) -> str:
        """A one-word name this document also writes in full: an alias of the full name's node."""
        node = self.state.nodes[target]
        if self.state.canonical(entity.iri) != target and entity.iri != target:
            self.state.merges.append(
                Merge(
                    source=entity.iri,
                    target=target,
                    method="short name",
                    score=1.0,
                    label=label,
                    document_id=doc,
                    episode=tick.episode,
                    recorded_at=tick.time,
                )
            )
            self.state.redirects[entity.iri] = target
            out.new_merges += 1
        node.aliases |= {label, *surfaces} - {node.label}
        node.types |= set(entity.types)
        self.resolver.index(node)
        return target

    def _endpoint(self, term: Term, resolved: dict[str, str], doc: str, tick: Tick, out: Observed) -> str:
        if term.value not in resolved:
            label = term.label or term.surface or term.value
            surfaces = set() if term.surface is None else {term.surface}
            resolved[term.value] = self._entity(term.value, label, set(), surfaces, doc, tick, out)
        return resolved[term.value]

    def _triple(self, triple: Triple, run: Run, resolved: dict[str, str], tick: Tick, out: Observed) -> None:
        doc = run.document_id
        subject = self._endpoint(triple.subject, resolved, doc, tick, out)
        o = triple.object
        if o.kind == "iri":
            value = Value("iri", self._endpoint(o, resolved, doc, tick, out))
        else:
            value = Value("literal", o.value, o.datatype, o.lang)
        predicate = triple.predicate.value
        if value == Value("iri", subject) and predicate not in self.policy.self_loops:
            out.self_loops += 1
            return
        confidence = triple.provenance.confidence
        confidence = self.policy.default_confidence if confidence is None else confidence
        edge = self.state.edges.get((subject, predicate, value))
        if edge is None:
            reason = None
            if not relation_allowed(self.state, self.policy, predicate):
                reason = "relation type not in the schema"
            elif confidence < self.policy.stage_below:
                reason = f"confidence {confidence:.2f} below {self.policy.stage_below:.2f}"
            edge = Edge(
                subject=subject,
                predicate=predicate,
                object=value,
                status="promoted" if reason is None else "pending",
                confidence=confidence,
                observed=confidence,
                created_at=tick.time,
                last_seen=tick.time,
                first_episode=tick.episode,
                last_episode=tick.episode,
                predicate_label=triple.predicate.label or triple.predicate.surface,
                reason=reason,
            )
            self.state.edges[edge.key] = edge
            out.new_edges += 1
            out.staged += reason is not None
        elif doc not in edge.sources:
            edge.observed = 1 - (1 - edge.observed) * (1 - confidence)
        if doc not in edge.sources:
            edge.sources.add(doc)
            out.new_votes += 1
        edge.confidence = edge.observed  # seen now: no decay
        edge.last_seen, edge.last_episode = tick.time, tick.episode
        evidence = triple.provenance.evidence
        text = (evidence.text if evidence is not None else None) or ""
        if len(edge.evidence) < self.policy.evidence_cap and not any(
            e.document_id == doc and e.text == text for e in edge.evidence
        ):
            edge.evidence.append(Evidence(doc, text, run.system))
