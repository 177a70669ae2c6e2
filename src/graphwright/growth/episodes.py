"""Grow the graph from the runs in a store, one episode at a time: observe -> promote -> age -> snapshot ->
metrics, each episode saved in one transaction (so a long merge resumes where it stopped).

Runs already folded in are skipped unless the store holds a newer run for the same document and system,
so merging twice, or after re-extracting the same documents, changes nothing but last-seen times.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import asdict, dataclass
from datetime import UTC, datetime

from graphwright.errors import UserError
from graphwright.growth import codec
from graphwright.growth.lifecycle import Aged, age, check, promote
from graphwright.growth.metrics import Topology, episode_metrics
from graphwright.growth.observe import Observed, Observer, Run, Tick
from graphwright.growth.policy import GrowthPolicy
from graphwright.growth.resolve import Resolver, embedder_function
from graphwright.growth.state import Edge, EpisodeRecord, GrowthState, Snapshot
from graphwright.model.schema import RelationSchema
from graphwright.store.rdf_store import GraphStore


def utc_now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def pending_runs(
    store: GraphStore, state: GrowthState, *, everything: bool = False, system: str | None = None
) -> list[dict]:
    """The stored successful runs not yet folded in (all of them with ``everything``), oldest first."""
    rows = [r for r in store.documents() if r["status"] == "ok" and (system is None or r["system"] == system)]
    if not everything:
        rows = [r for r in rows if state.merged_runs.get((r["document_id"], r["system"])) != r["recorded_at"]]
    return sorted(rows, key=lambda r: (_when(r["recorded_at"]), r["document_id"], r["system"]))


def _when(recorded_at: str | None) -> datetime:
    """A run's time as a time: the store writes its seconds without trailing zeros ("27.91786Z"), so the
    strings do not sort as the times do ("27.91786Z" after "27.917861Z")."""
    return datetime.fromisoformat(recorded_at) if recorded_at else datetime.min.replace(tzinfo=UTC)


def schema_terms(schema: RelationSchema) -> tuple[set[str], set[str]]:
    """The relation IRIs of a relation schema, and the IRIs of the entity types its relations take."""
    return {schema.relation_iri(name) for name in schema.names}, {schema.type_iri(t) for t in schema.entity_types}


def seed_schema(state: GrowthState, relations: set[str], entity_types: set[str]) -> None:
    """Add relation and entity type IRIs to the allow-list (a new schema version when anything is new)."""
    if (relations - state.allowed_relations) or (entity_types - state.allowed_types):
        state.allowed_relations |= relations
        state.allowed_types |= entity_types
        state.schema_version += 1


def snapshot(state: GrowthState, tick: Tick, note: str, sid: str | None = None) -> Snapshot:
    counts = state.counts()
    record = Snapshot(
        sid=sid or f"s{len(state.snapshots) + 1}-ep{tick.episode}",
        created_at=tick.time,
        episode=tick.episode,
        note=note,
        nodes=counts["entities"],
        edges=counts["edges"],
    )
    if any(s.sid == record.sid for s in state.snapshots):
        raise UserError(f"a snapshot named {record.sid!r} exists already")
    state.snapshots.append(record)
    return record


@dataclass
class EpisodeReport:
    record: EpisodeRecord
    observed: Observed


def grow(
    store: GraphStore,
    policy: GrowthPolicy,
    *,
    episode_size: int | None = None,
    everything: bool = False,
    system: str | None = None,
    now: str | None = None,
    relations: Set[str] = frozenset(),
    entity_types: Set[str] = frozenset(),
    rebuild: bool = False,
) -> list[EpisodeReport]:
    """Fold the store's new runs into its grown graph, ``episode_size`` runs per episode (all in one by default);
    ``relations`` and ``entity_types`` (IRIs) join the schema allow-list first. ``rebuild`` drops the grown graph
    and its snapshots and grows it again from every stored run (after a change of settings)."""
    if rebuild:
        codec.drop(store)
        everything = True
    state = codec.load(store)
    seed_schema(state, set(relations), set(entity_types))
    runs = pending_runs(store, state, everything=everything, system=system)
    size = episode_size or max(1, len(runs))
    resolver = Resolver(state, policy.resolve_threshold, embedder_function(policy.embedder))
    observer = Observer(state, policy, resolver)
    reports = []
    for start in range(0, len(runs), size):
        tick = Tick(now or utc_now(), state.episode + 1)
        batch = [
            Run(
                r["document_id"],
                r["system"],
                r["recorded_at"] or "",
                store.entities(r["document_id"], r["system"]),
                store.triples(r["document_id"], r["system"]),
            )
            for r in runs[start : start + size]
        ]
        reports.append(episode(store, state, policy, observer, tick, batch))
    return reports


def episode(
    store: GraphStore, state: GrowthState, policy: GrowthPolicy, observer: Observer, tick: Tick, runs: list[Run]
) -> EpisodeReport:
    """One episode: observe the runs, promote, age, snapshot, measure, save."""
    before, edges_before = Topology.of(state), len(state.promoted())
    observed = Observed()
    for run in runs:
        observer.run(run, tick, observed)
    promoted = promote(state, policy, tick)
    aged = age(state, policy, tick)
    snap = snapshot(state, tick, f"after episode {tick.episode}")
    after = Topology.of(state)
    counts = {
        **state.counts(),
        **{k: v for k, v in asdict(observed).items() if k != "documents"},
        "promoted": len(promoted),
        **asdict(aged),
        **{f"check_{k}": v for k, v in check(state, policy).counts().items()},
    }
    record = EpisodeRecord(
        number=tick.episode,
        recorded_at=tick.time,
        documents=observed.documents,
        counts=counts,
        metrics=episode_metrics(before, after, edges_before, len(state.promoted())),
        snapshot=snap.sid,
    )
    state.episodes.append(record)
    codec.save(store, state, snapshot=snap.sid)
    return EpisodeReport(record, observed)


def apply(
    store: GraphStore,
    policy: GrowthPolicy,
    action: str,
    *,
    now: str | None = None,
    note: str = "",
    sid: str | None = None,
) -> list[Edge] | Aged | Snapshot:
    """One maintenance step on the saved graph: ``promote``, ``age`` or ``snapshot``; returns what it did."""
    state = codec.load(store)
    tick = Tick(now or utc_now(), state.episode)
    snap = None
    result: list[Edge] | Aged | Snapshot
    if action == "promote":
        result = promote(state, policy, tick)
    elif action == "age":
        result = age(state, policy, tick)
    elif action == "snapshot":
        result = snap = snapshot(state, tick, note or "taken by hand", sid)
    else:
        raise UserError(f"unknown action {action!r}")
    codec.save(store, state, snapshot=None if snap is None else snap.sid)
    return result
