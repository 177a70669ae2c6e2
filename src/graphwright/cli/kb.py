"""`graphwright kb build|search`."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from graphwright.cli.app import kb_app
from graphwright.cli.common import console, fail
from graphwright.errors import GraphwrightError, UserError


@kb_app.command("build")
def kb_build(
    out_dir: Path = typer.Argument(..., help="Directory to write the KB to."),
    properties: Path | None = typer.Option(
        None, help="Wikidata property catalogue folder (default: data dir's wikidata-properties)."
    ),
    arnold: Path | None = typer.Option(
        None, help="KGTK entity subgraph folder (default: data dir's wikidata-subgraph-arnold)."
    ),
    rebel: Path | None = typer.Option(None, help="rebel-sample JSONL(.gz) whose entities to add."),
    entities: list[Path] = typer.Option(
        [], "--entities", help="Extra entity JSONL files (id, label, aliases, description, types)."
    ),
    ontology: list[Path] = typer.Option(
        [],
        "--ontology",
        help="RDFS ontology files (.ttl, .nt, .rdf): labels, hierarchy, rdfs:domain/range as type constraints.",
    ),
    wikidata_dump: Path | None = typer.Option(
        None,
        "--wikidata-dump",
        help="A Wikidata JSON dump (latest-all.json.gz, "
        ".bz2 or plain) to import: labels, aliases and descriptions in English "
        "only. An interrupted import resumes when rerun. --properties and "
        "--arnold are then read only when given.",
    ),
    min_sitelinks: int = typer.Option(
        0,
        "--min-sitelinks",
        min=0,
        help="With --wikidata-dump: skip items with fewer sitelinks (properties are always kept).",
    ),
    keep_types: str | None = typer.Option(
        None,
        "--keep-types",
        help="With --wikidata-dump: keep only items whose "
        "direct P31 is one of these classes, e.g. Q5,Q43229 (subclasses are not "
        "followed: list them). Filtered-out classes (items with P279) that kept "
        "records name, and their superclasses, are kept too.",
    ),
    wikidata: bool = typer.Option(
        True,
        "--wikidata/--no-wikidata",
        help="Start from Wikidata's property catalogue and "
        "entity subgraph in the data directory (default); --no-wikidata builds a KB of only "
        "the files given (--ontology, --entities, --properties, --arnold).",
    ),
    overwrite: bool | None = typer.Option(
        None,
        "--overwrite/--no-overwrite",
        help="Replace a KB already in OUT_DIR (default: yes, but no with --wikidata-dump, whose import is long).",
    ),
) -> None:
    """Build a local KB from files, or from a Wikidata JSON dump."""
    from graphwright.kb import build_kb

    try:
        if wikidata_dump is not None:
            kb_build_dump(
                out_dir,
                wikidata_dump,
                min_sitelinks,
                keep_types,
                bool(overwrite),
                properties=properties,
                arnold=arnold,
                rebel=rebel,
                entities=entities,
                ontology=ontology,
            )
            return
        if min_sitelinks or keep_types:
            raise UserError("--min-sitelinks and --keep-types filter a --wikidata-dump; give one")
        path = build_kb(
            out_dir,
            properties_dir=properties or wikidata,
            arnold_dir=arnold or wikidata,
            rebel_path=rebel,
            entity_files=tuple(entities),
            ontology_files=tuple(ontology),
            overwrite=overwrite is not False,
        )
    except GraphwrightError as exc:
        fail(exc)
    typer.echo(f"KB written to {path}")


def kb_build_dump(
    out_dir: Path,
    dump: Path,
    min_sitelinks: int,
    keep_types: str | None,
    overwrite: bool,
    *,
    properties,
    arnold,
    rebel,
    entities,
    ontology,
) -> None:
    from rich.progress import DownloadColumn, TimeRemainingColumn

    from graphwright.kb.build import MANIFEST
    from graphwright.kb.namespaces import is_wikidata_id
    from graphwright.kb.wikidata_dump import Filters, ImportStats, build_from_dump, work_dir

    types = tuple(t.strip() for t in (keep_types or "").split(",") if t.strip())
    if bad := [t for t in types if not (t.startswith("Q") and is_wikidata_id(t))]:
        raise UserError(f"--keep-types takes item ids like Q5,Q43229; not {', '.join(bad)}")
    if (out_dir / MANIFEST).is_file() and not overwrite:
        typer.echo(f"a KB already exists at {out_dir}; nothing imported (--overwrite rebuilds it from the dump)")
        return
    last: list[ImportStats] = []  # the latest progress report
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )

    def show(stats: ImportStats) -> None:
        last[:] = [stats]
        progress.update(
            task,
            total=stats.bytes_total,
            completed=stats.bytes_read,
            description=f"{stats.entities_read:,} entities read, {stats.kept:,} kept",
        )

    def warn(message: str) -> None:
        console.print(f"warning: {message}", style="yellow", highlight=False, markup=False)

    try:
        with progress:
            task = progress.add_task("reading the dump", total=None)
            result = build_from_dump(
                out_dir,
                dump,
                filters=Filters(min_sitelinks, types),
                overwrite=overwrite,
                on_progress=show,
                warn=warn,
                properties_dir=properties or False,
                arnold_dir=arnold or False,
                rebel_path=rebel,
                entity_files=tuple(entities),
                ontology_files=tuple(ontology),
            )
    except KeyboardInterrupt:
        read = f" after {last[0].entities_read:,} entities" if last else ""
        console.print(
            f"interrupted{read}; the import so far is kept in {work_dir(out_dir)}: rerun the same command to resume",
            highlight=False,
            markup=False,
        )
        raise typer.Exit(code=130) from None
    s = result.stats
    resumed = f", resumed at line {s.resumed_at_line:,}" if s.resumed_at_line else ""
    typer.echo(
        f"{s.entities_read:,} entities read{resumed}: kept {s.items_kept:,} items, {s.properties_kept:,} "
        f"properties and {s.classes_kept:,} classes they name; skipped {s.filtered:,} by the filters, "
        f"{s.unlabelled:,} without an English label, {s.other_types:,} lexemes and other entities, "
        f"{s.malformed:,} malformed lines"
    )
    typer.echo(f"KB written to {result.path}")


@kb_app.command("search")
def kb_search(
    query: str = typer.Argument(...),
    kb: str = typer.Option("default", "--kb"),
    kind: str | None = typer.Option(None, "--kind", help="entity or property"),
    mode: str = typer.Option("fused", "--mode", help="label, description, example or fused"),
    k: int = typer.Option(5, "-k"),
) -> None:
    """Search a KB."""
    from graphwright.kb import open_kb

    try:
        hits = open_kb(kb).search(query, kind=kind, mode=mode, k=k)
    except GraphwrightError as exc:
        fail(exc)
    table = Table("id", "label", "description", "score", "matched")
    for h in hits:
        table.add_row(
            h.record.id, h.record.label or "", (h.record.description or "")[:70], f"{h.score:.3f}", str(h.matched)
        )
    Console().print(table)
