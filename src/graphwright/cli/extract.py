"""`graphwright extract` and `graphwright systems`."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from graphwright.chunking import MAX_CHARS
from graphwright.cli.app import app
from graphwright.cli.common import (
    API_KEY,
    BASE_URL,
    MODEL,
    NO_CACHE,
    console,
    fail,
    progress_bar,
    read_settings,
    run_and_close,
)
from graphwright.errors import GraphwrightError
from graphwright.systems.base import DEFAULT_SYSTEM


@app.command()
def extract(
    paths: list[str] = typer.Argument(
        ..., help="Files (.txt .md .pdf .html .docx), folders of them, http(s) URLs, or - for stdin."
    ),
    system: str = typer.Option(DEFAULT_SYSTEM, "--system", "-s", help="Extraction system (`graphwright systems`)."),
    model: str | None = MODEL,
    base_url: str | None = BASE_URL,
    api_key: str | None = API_KEY,
    kb: str = typer.Option(
        "default", "--kb", help="'default' (shipped Wikidata slice) or a KB directory from 'kb build'."
    ),
    store: Path = typer.Option(Path("out/store"), "--store", help="Graph store directory."),
    out: Path = typer.Option(Path("out"), "--out", help="Folder for results.jsonl and the LLM trace."),
    concurrency: int = typer.Option(1, "--concurrency", "-c", min=1, help="Documents processed at once."),
    max_chars: int = typer.Option(MAX_CHARS, "--max-chars", help="Longest document accepted, in characters."),
    encoding: str = typer.Option("utf-8", "--encoding", help="Text encoding of the input files."),
    no_cache: bool = NO_CACHE,
    option: list[str] = typer.Option(
        [], "--set", help="System setting KEY=VALUE, e.g. --set max_steps=6 (repeatable)."
    ),
    config: Path | None = typer.Option(
        None,
        "--config",
        help="System configuration file (YAML/JSON settings; for "
        "agenticner an entity domain file; for cooperkgc the team's "
        "schemas: ner, re, ee); --set overrides it.",
    ),
    grow_graph: bool = typer.Option(
        False,
        "--grow",
        help="Then fold the new results into the store's grown graph "
        "(as `graph merge` does, with its default settings).",
    ),
    episode_size: int | None = typer.Option(None, "--episode-size", min=1, help="With --grow: documents per episode."),
    engine: str = typer.Option(
        "local",
        "--engine",
        help="local, or ray: the documents spread over Ray workers, "
        "each with its own model, and one writer of the store (pip install 'graphwright[ray]').",
    ),
    address: str | None = typer.Option(
        None,
        "--address",
        help="With --engine ray: the Ray cluster to join "
        "(e.g. ray://head:10001 or auto); default: start Ray on this machine.",
    ),
    workers: int = typer.Option(
        2,
        "--workers",
        min=1,
        help="With --engine ray: how many workers (each holds its "
        "own model: with the embedded one, about one per 2 cores).",
    ),
) -> None:
    """Extract a knowledge graph from documents into the store. Reruns skip documents already done."""
    from graphwright.assembly import ModelChoice, attach_store, check_system
    from graphwright.engines import open_run
    from graphwright.inputs import iter_inputs
    from graphwright.locks import folder_lock
    from graphwright.pipeline import extract_batch
    from graphwright.store import GraphStore

    try:
        check_system(system)  # fail fast on a typo, before loading models
        choice = ModelChoice(model, base_url, api_key, cache=not no_cache, trace_path=out / "llm-trace.jsonl")
        choice.check()
        settings = read_settings(option, config)
        items = list(iter_inputs(paths, encoding, max_chars))  # a file too long is refused from its size, unread
        # the output folder first and the store before any model call: a second run on them stops at
        # once, and a run whose settings are wrong stops before it creates a store
        with folder_lock(out, "--out"):
            run = open_run(
                system, settings, choice, kb, engine=engine, address=address, workers=workers, trace_folder=out
            )
            if engine == "ray":
                concurrency = max(concurrency, workers)  # one document per worker at least
            started = time.perf_counter()
            with GraphStore.open(store) as graph_store, progress_bar() as progress:
                attach_store(system, run.system, graph_store)
                task = progress.add_task("extracting", total=len(items))
                summary = run_and_close(
                    run,
                    extract_batch(
                        items,
                        run.system,
                        graph_store,
                        results_path=out / "results.jsonl",
                        concurrency=concurrency,
                        max_chars=max_chars,
                        on_progress=lambda _: progress.advance(task),
                    ),
                )
                if grow_graph:
                    from graphwright.growth import GrowthPolicy, grow

                    # a system with a schema (agentic-kgr) brings its relation and entity types into the allow-list
                    runner = run.system
                    relations, types = runner.schema_terms() if hasattr(runner, "schema_terms") else (set(), set())
                    grown = grow(
                        graph_store,
                        GrowthPolicy(),
                        episode_size=episode_size,
                        system=system,
                        relations=relations,
                        entity_types=types,
                    )
    except GraphwrightError as exc:
        fail(exc)
    print_summary(summary, time.perf_counter() - started, run.model_name)
    if grow_graph:
        from graphwright.cli.growth import print_episodes

        print_episodes(grown)
    if summary.failed and not summary.done and not summary.skipped:
        raise typer.Exit(code=2)


def print_summary(summary, seconds: float, model: str) -> None:
    table = Table(title="graphwright extract", show_header=False)
    table.add_row("model", model)
    table.add_row("documents done / skipped / failed", f"{summary.done} / {summary.skipped} / {len(summary.failed)}")
    table.add_row("triples", str(summary.triples))
    if summary.events:
        table.add_row("events", str(summary.events))
    table.add_row("entities not in the KB (kept unlinked)", str(summary.unlinked))
    usage = summary.usage
    table.add_row("LLM calls (cached)", f"{usage.llm_calls} ({usage.cached_calls})")
    table.add_row(
        "tokens (prompt + completion)", f"{usage.total_tokens} ({usage.prompt_tokens} + {usage.completion_tokens})"
    )
    table.add_row("wall time", f"{seconds:.1f} s")
    console.print(table)
    for source, reason in summary.failed:
        console.print(f"failed {source}: {reason}", style="yellow", highlight=False, markup=False)
    if summary.failed:
        console.print(
            f"{len(summary.failed)} document(s) failed; run the same command again to retry them "
            "(finished documents are skipped)",
            style="yellow",
            highlight=False,
            markup=False,
        )


@app.command()
def systems() -> None:
    """List the extraction systems: what each is for, and which to use."""
    from rich.text import Text

    from graphwright.systems.base import DEFAULT_SYSTEM, system_catalogue

    table = Table("system", "role", "what it is for", "family")
    for entry in system_catalogue():
        name = f"{entry.name} (default)" if entry.name == DEFAULT_SYSTEM else entry.name
        table.add_row(Text(name), entry.role, Text(entry.purpose), Text(entry.relation()))
    Console().print(table)
