"""What happens to the grown graph between observations: promotion (and the schema growth it brings),
ageing, and the safety checks."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

from graphwright.growth.observe import Tick, relation_allowed, type_allowed
from graphwright.growth.policy import GrowthPolicy
from graphwright.growth.state import Edge, GrowthState, SchemaChange, SchemaKind


def promote(state: GrowthState, policy: GrowthPolicy, tick: Tick) -> list[Edge]:
    """Promote the staged edges with enough confidence and votes; a novel relation type promoted with its
    edge, and a novel entity type seen in enough documents, join the schema (a new version, logged)."""
    promoted = []
    for edge in sorted(state.pending(), key=lambda e: (e.first_episode, e.created_at)):
        if edge.confidence < policy.promote_confidence or edge.votes < policy.promote_votes:
            continue
        if not relation_allowed(state, policy, edge.predicate):
            _grow(
                state,
                tick,
                "relation",
                edge.predicate,
                edge.predicate_label,
                f"edge {_describe(state, edge)} promoted with confidence {edge.confidence:.2f} "
                f"from {edge.votes} documents",
            )
        edge.status, edge.reason = "promoted", None
        promoted.append(edge)
    for type_iri, docs in sorted(state.type_sources.items()):
        if type_allowed(state, policy, type_iri):
            del state.type_sources[type_iri]
        elif len(docs) >= policy.promote_votes:
            _grow(state, tick, "entity_type", type_iri, None, f"entity type seen in {len(docs)} documents")
            del state.type_sources[type_iri]
    return promoted


def _grow(state: GrowthState, tick: Tick, kind: SchemaKind, term: str, label: str | None, reason: str) -> None:
    (state.allowed_relations if kind == "relation" else state.allowed_types).add(term)
    state.schema_version += 1
    state.schema_log.append(
        SchemaChange(
            version=state.schema_version,
            kind=kind,
            term=term,
            label=label,
            reason=reason,
            episode=tick.episode,
            recorded_at=tick.time,
        )
    )


def _describe(state: GrowthState, edge: Edge) -> str:
    def name(iri: str) -> str:
        node = state.nodes.get(iri)
        return node.label if node else iri

    obj = name(edge.object.value) if edge.object.kind == "iri" else edge.object.value
    return f"({name(edge.subject)}, {edge.predicate_label or edge.predicate}, {obj})"


def age_of(policy: GrowthPolicy, tick: Tick, last_seen: str, last_episode: int) -> float:
    """Days (or episodes) since something was last seen."""
    if policy.clock == "episodes":
        return float(tick.episode - last_episode)
    return (_parse(tick.time) - _parse(last_seen)).total_seconds() / 86400.0


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


@dataclass
class Aged:
    decayed: int = 0
    removed_edges: int = 0
    removed_entities: int = 0


def age(state: GrowthState, policy: GrowthPolicy, tick: Tick) -> Aged:
    """Decay the confidence of edges unseen for longer than the soft window and remove those unseen for
    longer than the hard window, then entities unseen as long that no edge needs. The decay is computed from
    the confidence as observed, so ageing twice at the same time changes nothing."""
    out = Aged()
    for key, edge in list(state.edges.items()):
        elapsed = age_of(policy, tick, edge.last_seen, edge.last_episode)
        if elapsed > policy.hard_window:
            del state.edges[key]
            out.removed_edges += 1
            continue
        factor = math.exp(-policy.decay_rate * (elapsed - policy.soft_window)) if elapsed > policy.soft_window else 1.0
        confidence = edge.observed * factor
        out.decayed += factor < 1.0
        edge.confidence = confidence
    used = {e.subject for e in state.edges.values()} | {
        e.object.value for e in state.edges.values() if e.object.kind == "iri"
    }
    for iri, node in list(state.nodes.items()):
        if iri not in used and age_of(policy, tick, node.last_seen, node.last_episode) > policy.hard_window:
            del state.nodes[iri]
            out.removed_entities += 1
    return out


@dataclass
class Checks:
    """What the safety checks found; nothing is changed by them."""

    self_loops: list[Edge] = field(default_factory=list)
    invalid_relations: list[Edge] = field(default_factory=list)
    invalid_types: dict[str, list[str]] = field(default_factory=dict)  # type -> node IRIs
    dangling: list[Edge] = field(default_factory=list)  # an endpoint is not a node
    isolated: list[str] = field(default_factory=list)  # nodes on no promoted edge

    def counts(self) -> dict[str, int]:
        return {
            "self_loops": len(self.self_loops),
            "invalid_relations": len(self.invalid_relations),
            "invalid_types": sum(len(v) for v in self.invalid_types.values()),
            "dangling": len(self.dangling),
            "isolated": len(self.isolated),
        }


def check(state: GrowthState, policy: GrowthPolicy) -> Checks:
    out = Checks()
    on_edges: set[str] = set()
    for edge in state.promoted():
        ends = [edge.subject] + ([edge.object.value] if edge.object.kind == "iri" else [])
        on_edges.update(ends)
        if edge.object.kind == "iri" and edge.object.value == edge.subject and edge.predicate not in policy.self_loops:
            out.self_loops.append(edge)
        if not relation_allowed(state, policy, edge.predicate):
            out.invalid_relations.append(edge)
        if any(end not in state.nodes for end in ends):
            out.dangling.append(edge)
    for node in state.nodes.values():
        for t in node.types:
            if not type_allowed(state, policy, t):
                out.invalid_types.setdefault(t, []).append(node.iri)
        if node.iri not in on_edges:
            out.isolated.append(node.iri)
    return out
