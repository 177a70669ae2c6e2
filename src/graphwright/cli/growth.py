"""`graphwright graph merge|stats|promote|age|snapshot|neo4j`: the graph that grows over documents."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from graphwright.cli.app import graph_app
from graphwright.cli.common import fail, read_settings
from graphwright.errors import GraphwrightError

STORE = typer.Option(Path("out/store"), "--store", help="Graph store directory.")
POLICY_SET = typer.Option(
    [],
    "--set",
    help="Growth setting KEY=VALUE, e.g. --set promote_votes=2 or --set clock=episodes (repeatable; see GrowthPolicy).",
)
POLICY_FILE = typer.Option(None, "--config", help="YAML/JSON file of growth settings; --set overrides it.")
NOW = typer.Option(None, "--now", help="The time to act at (ISO 8601, UTC); default: now.")


def print_episodes(reports) -> None:
    if not reports:
        typer.echo("nothing new to merge into the grown graph")
    for report in reports:
        c, o = report.record.counts, report.observed
        typer.echo(
            f"episode {report.record.number}: {report.record.documents} runs, {o.new_entities} new entities, "
            f"{o.new_merges} merges, {o.new_edges} new edges ({o.staged} staged), {o.new_votes} votes, "
            f"{c['promoted']} promoted, {c['removed_edges']} aged out; grown graph: {c['entities']} entities, "
            f"{c['edges']} edges, {c['pending']} pending"
        )


def policy(pairs, config):
    from graphwright.growth import GrowthPolicy

    try:
        return GrowthPolicy(**read_settings(pairs, config))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


@graph_app.command("merge")
def graph_merge(
    store: Path = STORE,
    episode_size: int | None = typer.Option(
        None, "--episode-size", min=1, help="Runs per episode (default: all new runs in one)."
    ),
    everything: bool = typer.Option(False, "--all", help="Fold in every stored run again, not only new ones."),
    rebuild: bool = typer.Option(
        False,
        "--rebuild",
        help="Drop the grown graph and its snapshots and grow it "
        "again from every stored run (after changing settings).",
    ),
    system: str | None = typer.Option(None, "--system", "-s", help="Only this system's runs."),
    schema: list[Path] = typer.Option(
        [],
        "--schema",
        help="A relation schema (YAML/JSON) whose relations and entity types start in the allow-list (repeatable).",
    ),
    entity_type: list[str] = typer.Option([], "--entity-type", help="An entity type IRI for the allow-list."),
    option: list[str] = POLICY_SET,
    config: Path | None = POLICY_FILE,
    now: str | None = NOW,
) -> None:
    """Fold the store's new runs into its grown graph: resolve entities, stage and vote edges, promote,
    age, snapshot, and measure each episode."""
    from graphwright.growth import grow
    from graphwright.growth.episodes import schema_terms
    from graphwright.model.schema import load_schema
    from graphwright.store import GraphStore

    chosen = policy(option, config)
    try:
        terms = [schema_terms(load_schema(p)) for p in schema]
        relations = {iri for r, _ in terms for iri in r}
        types = set(entity_type) | {iri for _, t in terms for iri in t}
        with GraphStore.open(store, create=False) as graph_store:
            reports = grow(
                graph_store,
                chosen,
                episode_size=episode_size,
                everything=everything,
                system=system,
                now=now,
                relations=relations,
                entity_types=types,
                rebuild=rebuild,
            )
    except GraphwrightError as exc:
        fail(exc)
    print_episodes(reports)


@graph_app.command("stats")
def graph_stats(
    store: Path = STORE,
    as_json: bool = typer.Option(False, "--json", help="One JSON object."),
    option: list[str] = POLICY_SET,
    config: Path | None = POLICY_FILE,
) -> None:
    """Counts, per-episode metrics (coverage gain, entropy, Laplacian change), schema growth and checks."""
    from graphwright.growth import check, load
    from graphwright.store import GraphStore

    try:
        with GraphStore.open_for_reading(store) as graph_store:
            state = load(graph_store)
    except GraphwrightError as exc:
        fail(exc)
    checks = check(state, policy(option, config)).counts()
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "counts": state.counts(),
                    "checks": checks,
                    "episodes": [vars(e) for e in state.episodes],
                    "schema_log": [vars(c) for c in state.schema_log],
                },
                ensure_ascii=False,
            )
        )
        return
    out = Console()
    if not out.is_terminal:  # a pipe or a file: wide enough for the table, not the 80 columns default
        out = Console(width=140)
    out.print(Text(" ".join(f"{k}={v}" for k, v in {**state.counts(), **checks}.items())))
    table = Table(
        "episode",
        "runs",
        "entities",
        "edges",
        "pending",
        "merges",
        "promoted",
        "entity gain",
        "relation gain",
        "degree entropy",
        "Laplacian change",
        "snapshot",
    )
    for ep in state.episodes:
        c, m = ep.counts, ep.metrics
        table.add_row(
            str(ep.number),
            str(ep.documents),
            *(str(c.get(k, "")) for k in ("entities", "edges", "pending", "merges", "promoted")),
            *(
                f"{m.get(k, 0):.3f}"
                for k in ("entity_coverage_gain", "relation_coverage_gain", "degree_entropy", "laplacian_change")
            ),
            Text(ep.snapshot or ""),
        )
    out.print(table)
    for change in state.schema_log:
        out.print(
            Text(
                f"schema v{change.version} (episode {change.episode}): + {change.kind} "
                f"{change.label or change.term}: {change.reason}"
            )
        )


@graph_app.command("promote")
def graph_promote(
    store: Path = STORE, option: list[str] = POLICY_SET, config: Path | None = POLICY_FILE, now: str | None = NOW
) -> None:
    """Promote the staged edges that now have enough confidence and votes."""
    promoted = _apply(store, policy(option, config), "promote", now=now)
    typer.echo(f"promoted {len(promoted)} edges")


@graph_app.command("age")
def graph_age(
    store: Path = STORE, option: list[str] = POLICY_SET, config: Path | None = POLICY_FILE, now: str | None = NOW
) -> None:
    """Decay edges unseen for longer than the soft window; remove those past the hard window."""
    aged = _apply(store, policy(option, config), "age", now=now)
    typer.echo(f"{aged.decayed} edges decayed, {aged.removed_edges} edges and {aged.removed_entities} entities removed")


@graph_app.command("snapshot")
def graph_snapshot(
    store: Path = STORE,
    note: str = typer.Option("", "--note"),
    sid: str | None = typer.Option(None, "--id", help="The snapshot's id (default: numbered)."),
    now: str | None = NOW,
) -> None:
    """Keep a copy of the grown graph under an id (a named graph urn:graphwright:grown:snapshot:<id>)."""
    from graphwright.growth import GrowthPolicy

    snap = _apply(store, GrowthPolicy(), "snapshot", now=now, note=note, sid=sid)
    typer.echo(f"snapshot {snap.sid}: {snap.nodes} entities, {snap.edges} edges")


@graph_app.command("neo4j")
def graph_neo4j(
    folder: Path = typer.Argument(..., help="Folder for nodes.csv, relationships.csv, import.cypher."),
    store: Path = STORE,
) -> None:
    """Write the grown graph for Neo4j: CSV for neo4j-admin import and a Cypher script."""
    from graphwright.growth import load
    from graphwright.growth.neo4j import write_neo4j
    from graphwright.store import GraphStore

    try:
        with GraphStore.open_for_reading(store) as graph_store:
            files = write_neo4j(load(graph_store), folder)
    except GraphwrightError as exc:
        fail(exc)
    typer.echo("wrote " + ", ".join(str(f) for f in files))


def _apply(store, chosen, action, **kw):
    from graphwright.growth import apply
    from graphwright.store import GraphStore

    try:
        with GraphStore.open(store, create=False) as graph_store:
            return apply(graph_store, chosen, action, **kw)
    except GraphwrightError as exc:
        fail(exc)
