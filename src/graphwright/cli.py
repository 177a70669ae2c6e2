"""Command line: thin wrappers over the library. The library raises; the CLI
prints one line and exits non-zero (``--debug`` shows the traceback)."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from graphwright.chunking import MAX_CHARS
from graphwright.errors import GraphwrightError, UserError
from graphwright.systems.base import DEFAULT_SYSTEM

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Knowledge graphs from text with LLM agents.")
kb_app = typer.Typer(no_args_is_help=True, help="Build and search knowledge bases.")
graph_app = typer.Typer(no_args_is_help=True, help="Export, view and query stored graphs; grow one graph over documents.")
eval_app = typer.Typer(no_args_is_help=True, help="Evaluate systems on gold data and compare runs.")
app.add_typer(kb_app, name="kb")
app.add_typer(graph_app, name="graph")
agentre_app = typer.Typer(no_args_is_help=True, help="AgentRE memory.")
train_app = typer.Typer(no_args_is_help=True, help="Distillation data, LoRA fine-tuning and GRPO.")
app.add_typer(eval_app, name="eval")
app.add_typer(agentre_app, name="agentre")
app.add_typer(train_app, name="train")

console = Console(stderr=True)
_state = {"debug": False}


@app.callback()
def _options(debug: bool = typer.Option(False, "--debug", help="Show tracebacks.")) -> None:
    _state["debug"] = debug


def _fail(exc: BaseException) -> None:
    if _state["debug"]:
        console.print_exception()
    console.print(f"error: {exc}", style="red", highlight=False, markup=False)
    raise typer.Exit(code=1)


@app.command()
def extract(
    paths: list[str] = typer.Argument(..., help="Text files, folders of .txt/.md files, or - for stdin."),
    system: str = typer.Option(DEFAULT_SYSTEM, "--system", "-s", help="Extraction system (`graphwright systems`)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="embedded, embedded:qwen2.5-coder-0.5b, or a server's model name."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible server URL (or GRAPHWRIGHT_BASE_URL)."),
    api_key: Optional[str] = typer.Option(None, "--api-key", help="API key (or GRAPHWRIGHT_API_KEY / OPENAI_API_KEY)."),
    kb: str = typer.Option("default", "--kb", help="'default' (shipped Wikidata slice) or a KB directory from 'kb build'."),
    store: Path = typer.Option(Path("out/store"), "--store", help="Graph store directory."),
    out: Path = typer.Option(Path("out"), "--out", help="Folder for results.jsonl and the LLM trace."),
    concurrency: int = typer.Option(1, "--concurrency", "-c", min=1, help="Documents processed at once."),
    max_chars: int = typer.Option(MAX_CHARS, "--max-chars", help="Longest document accepted, in characters."),
    encoding: str = typer.Option("utf-8", "--encoding", help="Text encoding of the input files."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not reuse or store cached LLM responses."),
    option: list[str] = typer.Option([], "--set", help="System setting KEY=VALUE, e.g. --set max_steps=6 (repeatable)."),
    config: Optional[Path] = typer.Option(None, "--config", help="System configuration file (YAML/JSON settings; for "
                                          "agenticner an entity domain file; for cooperkgc the team's "
                                          "schemas: ner, re, ee); --set overrides it."),
    grow_graph: bool = typer.Option(False, "--grow", help="Then fold the new results into the store's grown graph "
                                    "(as `graph merge` does, with its default settings)."),
    episode_size: Optional[int] = typer.Option(None, "--episode-size", min=1, help="With --grow: documents per episode."),
    engine: str = typer.Option("local", "--engine", help="local, or ray: the documents spread over Ray workers, "
                               "each with its own model, and one writer of the store (pip install 'graphwright[ray]')."),
    address: Optional[str] = typer.Option(None, "--address", help="With --engine ray: the Ray cluster to join "
                                          "(e.g. ray://head:10001 or auto); default: start Ray on this machine."),
    workers: int = typer.Option(2, "--workers", min=1, help="With --engine ray: how many workers (each holds its "
                                "own model: with the embedded one, about one per 2 cores)."),
) -> None:
    """Extract a knowledge graph from documents into the store. Reruns skip documents already done."""
    from graphwright.assembly import ModelChoice, attach_store, check_system, open_run
    from graphwright.inputs import iter_inputs
    from graphwright.locks import folder_lock
    from graphwright.pipeline import extract_batch
    from graphwright.store import GraphStore

    try:
        check_system(system)  # fail fast on a typo, before loading models
        choice = ModelChoice(model, base_url, api_key, cache=not no_cache, trace_path=out / "llm-trace.jsonl")
        choice.check()
        settings = _settings(option, config)
        items = list(iter_inputs(paths, encoding, max_chars))  # a file too long is refused from its size, unread
        # the output folder first and the store before any model call: a second run on them stops at
        # once, and a run whose settings are wrong stops before it creates a store
        with folder_lock(out, "--out"):
            run = open_run(system, settings, choice, kb, engine=engine, address=address, workers=workers,
                           trace_folder=out)
            if engine == "ray":
                concurrency = max(concurrency, workers)  # one document per worker at least
            started = time.perf_counter()
            with GraphStore.open(store) as graph_store, _progress() as progress:
                attach_store(run.system, graph_store)
                task = progress.add_task("extracting", total=len(items))
                summary = _run_and_close(run, extract_batch(
                    items, run.system, graph_store, results_path=out / "results.jsonl", concurrency=concurrency,
                    max_chars=max_chars, on_progress=lambda _: progress.advance(task)))
                if grow_graph:
                    from graphwright.growth import GrowthPolicy, grow

                    # a system with a schema (agentic-kgr) brings its relation and entity types into the allow-list
                    runner = run.system
                    relations, types = runner.schema_terms() if hasattr(runner, "schema_terms") else (set(), set())
                    grown = grow(graph_store, GrowthPolicy(), episode_size=episode_size, system=system,
                                 relations=relations, entity_types=types)
    except GraphwrightError as exc:
        _fail(exc)
    _print_summary(summary, time.perf_counter() - started, run.model_name)
    if grow_graph:
        from graphwright.cli_growth import print_episodes

        print_episodes(grown)
    if summary.failed and not summary.done and not summary.skipped:
        raise typer.Exit(code=2)


def _run_and_close(closes, work):
    """Run ``work`` and close ``closes`` (the model, the Ray engine's workers, a Run) in one event loop: an HTTP client's
    pooled connections belong to the loop that opened them, and closing them from a second
    ``asyncio.run`` fails ("Event loop is closed") once the first loop is gone."""
    async def both():
        try:
            return await work
        finally:
            if closes is not None:
                await closes.aclose()

    return asyncio.run(both())


def _settings(pairs: list[str], config: Path | None = None) -> dict:
    """The ``--config`` file's settings, then ``KEY=VALUE`` pairs; values are read as JSON when they parse
    (numbers, booleans)."""
    import json

    from graphwright.systems.settings import read_settings_file

    settings = read_settings_file(config) if config else {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UserError(f"--set expects KEY=VALUE, got {pair!r}")
        try:
            settings[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            settings[key.strip()] = value
    return settings


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=False)


def _print_summary(summary, seconds: float, model: str) -> None:
    table = Table(title="graphwright extract", show_header=False)
    table.add_row("model", model)
    table.add_row("documents done / skipped / failed", f"{summary.done} / {summary.skipped} / {len(summary.failed)}")
    table.add_row("triples", str(summary.triples))
    if summary.events:
        table.add_row("events", str(summary.events))
    table.add_row("entities not in the KB (kept unlinked)", str(summary.unlinked))
    usage = summary.usage
    table.add_row("LLM calls (cached)", f"{usage.llm_calls} ({usage.cached_calls})")
    table.add_row("tokens (prompt + completion)", f"{usage.total_tokens} ({usage.prompt_tokens} + {usage.completion_tokens})")
    table.add_row("wall time", f"{seconds:.1f} s")
    console.print(table)
    for source, reason in summary.failed:
        console.print(f"failed {source}: {reason}", style="yellow", highlight=False, markup=False)
    if summary.failed:
        console.print(f"{len(summary.failed)} document(s) failed; run the same command again to retry them "
                      "(finished documents are skipped)", style="yellow", highlight=False, markup=False)


@app.command()
def systems() -> None:
    """List the extraction systems: what each is for, and which to use."""
    from rich.text import Text

    from graphwright.systems.base import DEFAULT_SYSTEM, system_catalogue

    table = Table("system", "role", "what it is for")
    for entry in system_catalogue():
        name = f"{entry.name} (default)" if entry.name == DEFAULT_SYSTEM else entry.name
        table.add_row(Text(name), entry.role, Text(entry.purpose))
    Console().print(table)


@kb_app.command("build")
def kb_build(
    out_dir: Path = typer.Argument(..., help="Directory to write the KB to."),
    properties: Optional[Path] = typer.Option(None, help="Wikidata property catalogue folder (default: data dir's wikidata-properties)."),
    arnold: Optional[Path] = typer.Option(None, help="KGTK entity subgraph folder (default: data dir's wikidata-subgraph-arnold)."),
    rebel: Optional[Path] = typer.Option(None, help="rebel-sample JSONL(.gz) whose entities to add."),
    entities: list[Path] = typer.Option([], "--entities", help="Extra entity JSONL files (id, label, aliases, description, types)."),
    ontology: list[Path] = typer.Option([], "--ontology", help="RDFS ontology files (.ttl, .nt, .rdf): labels, "
                                        "hierarchy, rdfs:domain/range as type constraints."),
    wikidata_dump: Optional[Path] = typer.Option(None, "--wikidata-dump", help="A Wikidata JSON dump (latest-all.json.gz, "
                                                 ".bz2 or plain) to import: labels, aliases and descriptions in English "
                                                 "only. An interrupted import resumes when rerun. --properties and "
                                                 "--arnold are then read only when given."),
    min_sitelinks: int = typer.Option(0, "--min-sitelinks", min=0, help="With --wikidata-dump: skip items with fewer "
                                      "sitelinks (properties are always kept)."),
    keep_types: Optional[str] = typer.Option(None, "--keep-types", help="With --wikidata-dump: keep only items whose "
                                             "direct P31 is one of these classes, e.g. Q5,Q43229 (subclasses are not "
                                             "followed: list them). Filtered-out classes (items with P279) that kept "
                                             "records name, and their superclasses, are kept too."),
    wikidata: bool = typer.Option(True, "--wikidata/--no-wikidata", help="Start from Wikidata's property catalogue and "
                                  "entity subgraph in the data directory (default); --no-wikidata builds a KB of only "
                                  "the files given (--ontology, --entities, --properties, --arnold)."),
    overwrite: Optional[bool] = typer.Option(None, "--overwrite/--no-overwrite", help="Replace a KB already in OUT_DIR "
                                             "(default: yes, but no with --wikidata-dump, whose import is long)."),
) -> None:
    """Build a local KB from files, or from a Wikidata JSON dump."""
    from graphwright.kb import build_kb

    try:
        if wikidata_dump is not None:
            _kb_build_dump(out_dir, wikidata_dump, min_sitelinks, keep_types, bool(overwrite), properties=properties,
                           arnold=arnold, rebel=rebel, entities=entities, ontology=ontology)
            return
        if min_sitelinks or keep_types:
            raise UserError("--min-sitelinks and --keep-types filter a --wikidata-dump; give one")
        path = build_kb(out_dir, properties_dir=properties or wikidata, arnold_dir=arnold or wikidata, rebel_path=rebel,
                        entity_files=tuple(entities),
                        ontology_files=tuple(ontology), overwrite=overwrite is not False)
    except GraphwrightError as exc:
        _fail(exc)
    typer.echo(f"KB written to {path}")


def _kb_build_dump(out_dir: Path, dump: Path, min_sitelinks: int, keep_types: str | None, overwrite: bool,
                   *, properties, arnold, rebel, entities, ontology) -> None:
    from rich.progress import DownloadColumn, TimeRemainingColumn

    from graphwright.kb.build import MANIFEST
    from graphwright.kb.namespaces import is_wikidata_id
    from graphwright.kb.wikidata_dump import Filters, build_from_dump, work_dir

    types = tuple(t.strip() for t in (keep_types or "").split(",") if t.strip())
    if bad := [t for t in types if not (t.startswith("Q") and is_wikidata_id(t))]:
        raise UserError(f"--keep-types takes item ids like Q5,Q43229; not {', '.join(bad)}")
    if (out_dir / MANIFEST).is_file() and not overwrite:
        typer.echo(f"a KB already exists at {out_dir}; nothing imported (--overwrite rebuilds it from the dump)")
        return
    last = []
    progress = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TimeElapsedColumn(),
                        TimeRemainingColumn(), console=console, transient=False)

    def show(stats) -> None:
        last[:] = [stats]
        progress.update(task, total=stats.bytes_total, completed=stats.bytes_read,
                        description=f"{stats.entities_read:,} entities read, {stats.kept:,} kept")

    def warn(message: str) -> None:
        console.print(f"warning: {message}", style="yellow", highlight=False, markup=False)

    try:
        with progress:
            task = progress.add_task("reading the dump", total=None)
            result = build_from_dump(
                out_dir, dump, filters=Filters(min_sitelinks, types), overwrite=overwrite, on_progress=show, warn=warn,
                properties_dir=properties or False, arnold_dir=arnold or False, rebel_path=rebel,
                entity_files=tuple(entities), ontology_files=tuple(ontology))
    except KeyboardInterrupt:
        read = f" after {last[0].entities_read:,} entities" if last else ""
        console.print(f"interrupted{read}; the import so far is kept in {work_dir(out_dir)}: rerun the same "
                      f"command to resume", highlight=False, markup=False)
        raise typer.Exit(code=130)
    s = result.stats
    resumed = f", resumed at line {s.resumed_at_line:,}" if s.resumed_at_line else ""
    typer.echo(f"{s.entities_read:,} entities read{resumed}: kept {s.items_kept:,} items, {s.properties_kept:,} "
               f"properties and {s.classes_kept:,} classes they name; skipped {s.filtered:,} by the filters, "
               f"{s.unlabelled:,} without an English label, {s.other_types:,} lexemes and other entities, "
               f"{s.malformed:,} malformed lines")
    typer.echo(f"KB written to {result.path}")


@kb_app.command("search")
def kb_search(
    query: str = typer.Argument(...),
    kb: str = typer.Option("default", "--kb"),
    kind: Optional[str] = typer.Option(None, "--kind", help="entity or property"),
    mode: str = typer.Option("fused", "--mode", help="label, description, example or fused"),
    k: int = typer.Option(5, "-k"),
) -> None:
    """Search a KB."""
    from graphwright.kb import open_kb

    try:
        hits = open_kb(kb).search(query, kind=kind, mode=mode, k=k)
    except GraphwrightError as exc:
        _fail(exc)
    table = Table("id", "label", "description", "score", "matched")
    for h in hits:
        table.add_row(h.record.id, h.record.label or "", (h.record.description or "")[:70], f"{h.score:.3f}", str(h.matched))
    Console().print(table)


@graph_app.command("export")
def graph_export(
    out_file: Path = typer.Argument(..., help="Output file; the format follows the extension (.ttl, .nt, .jsonld, .nq, "
                                    ".trig, .graphml, or .zip: CSV files for neo4j-admin import)."),
    store: Path = typer.Option(Path("out/store"), "--store"),
    fmt: Optional[str] = typer.Option(None, "--format", help="turtle, ntriples, jsonld, nquads, trig, graphml or neo4j"),
    document: Optional[str] = typer.Option(None, "--doc", help="Only this document's graph."),
    provenance: bool = typer.Option(False, "--provenance", help="Include the evidence and provenance statements."),
    grown: bool = typer.Option(False, "--grown", help="The graph grown over the documents (graph merge) instead."),
) -> None:
    """Export the stored graph."""
    from graphwright.store import GraphStore, export_graph

    try:
        with GraphStore.open_for_reading(store) as graph_store:
            export_graph(graph_store, out_file, fmt, document_id=document, include_provenance=provenance,
                         grown=grown)
    except GraphwrightError as exc:
        _fail(exc)
    typer.echo(f"wrote {out_file}")


@graph_app.command("view")
def graph_view(
    out_file: Path = typer.Argument(..., help="HTML file to write."),
    store: Path = typer.Option(Path("out/store"), "--store"),
    document: Optional[str] = typer.Option(None, "--doc"),
    title: str = typer.Option("graphwright", "--title"),
) -> None:
    """Write a self-contained HTML view of the stored graph."""
    from graphwright.store import GraphStore, write_html

    try:
        with GraphStore.open_for_reading(store) as graph_store:
            write_html(graph_store, out_file, document_id=document, title=title)
    except GraphwrightError as exc:
        _fail(exc)
    typer.echo(f"wrote {out_file}")


@graph_app.command("map-relation")
def graph_map_relation(
    phrase: str = typer.Argument(..., help="The relation as the graph keeps it (its phrase, or its IRI)."),
    prop: str = typer.Argument(..., metavar="PROPERTY", help="A KB property id (P159) or the IRI of a schema relation."),
    swap: bool = typer.Option(False, "--swap", help="The property reads from object to subject (\"parent of\" as P40 child "
                              "reads backwards: use P40 with --swap for \"child of\")."),
    store: Path = typer.Option(Path("out/store"), "--store"),
    kb: str = typer.Option("default", "--kb", help="The KB the property's label is read from."),
) -> None:
    """Put every fact kept under a phrase (drawn dashed) onto a KB property, with its evidence."""
    from graphwright.kb import open_kb
    from graphwright.kb.namespaces import WDT, is_wikidata_id
    from graphwright.store import GraphStore
    from graphwright.store.relation_mapping import map_relation

    try:
        label = None
        if is_wikidata_id(prop):
            record = open_kb(kb).get(prop)
            if record is None or record.kind != "property":
                raise UserError(f"{prop} is not a property of the KB {kb!r}")
            prop, label = WDT + prop, record.label
        elif not prop.startswith(("http://", "https://")):
            raise UserError(f"{prop!r} is neither a property id (P159) nor an IRI")
        with GraphStore.open(store, create=False) as graph_store:
            done = map_relation(graph_store, phrase, prop, swap=swap, label=label)
    except GraphwrightError as exc:
        _fail(exc)
    kept = f"; {done.kept} kept under the phrase (a value cannot be the subject)" if done.kept else ""
    typer.echo(f"mapped {done.facts} facts in {done.documents} documents onto {label or prop}{kept}")
    if not done.facts and not done.kept:
        typer.echo(f"no fact is kept under {phrase!r}: see `graphwright graph query` for the phrases in the store")


@graph_app.command("query")
def graph_query(
    sparql: str = typer.Argument(..., help="A SPARQL query, or @file.rq to read it from a file. The prefixes gw:, "
                                 "gwe:, gwr:, wd:, wdt:, rdfs:, xsd: are declared; the default graph is every document's KG."),
    store: Path = typer.Option(Path("out/store"), "--store"),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per row instead of a table."),
    grown: bool = typer.Option(False, "--grown", help="The default graph is the graph grown over the documents."),
) -> None:
    """Query the stored graph with SPARQL, e.g. the events: SELECT ?e ?t WHERE { ?e a gw:Event ; gw:trigger ?t }."""
    import json

    from graphwright.store import GraphStore

    try:
        text = Path(sparql[1:]).read_text(encoding="utf-8") if sparql.startswith("@") else sparql
        with GraphStore.open_for_reading(store) as graph_store:
            rows = graph_store.query(text, grown=grown)
    except OSError as exc:
        _fail(UserError(f"cannot read the query file: {exc}"))
    except GraphwrightError as exc:
        _fail(exc)
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row, ensure_ascii=False))
        return
    from rich.text import Text

    table = Table(*(rows[0] if rows else ["no rows"]))
    for row in rows:  # Text, not markup: a label like "[red]" is data
        table.add_row(*(Text("" if value is None else str(value)) for value in row.values()))
    console.print(table)


@eval_app.command("run")
def eval_run(
    system: str = typer.Option(..., "--system", "-s", help="System to evaluate (see `graphwright systems`)."),
    dataset: str = typer.Option(..., "--dataset", "-d", help="A dataset (`graphwright eval datasets`) or a gold JSONL file."),
    limit: Optional[int] = typer.Option(None, "--limit", "-n", min=1, help="Only the first N documents."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="embedded, embedded:qwen2.5-coder-0.5b, or a server's model name."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible server URL (or GRAPHWRIGHT_BASE_URL)."),
    api_key: Optional[str] = typer.Option(None, "--api-key", help="API key (or GRAPHWRIGHT_API_KEY / OPENAI_API_KEY)."),
    kb: Optional[str] = typer.Option(None, "--kb", help="KB to link against (default: the dataset's own, e.g. rebel)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Run folder (default runs/<system>-<dataset>-<model>)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not reuse or store cached LLM responses."),
    option: list[str] = typer.Option([], "--set", help="System setting KEY=VALUE (repeatable)."),
    config: Optional[Path] = typer.Option(None, "--config", help="System configuration file (YAML/JSON settings); "
                                          "--set overrides it."),
    engine: str = typer.Option("local", "--engine", help="local, or ray: the documents spread over Ray workers."),
    address: Optional[str] = typer.Option(None, "--address", help="With --engine ray: the Ray cluster to join."),
    workers: int = typer.Option(2, "--workers", min=1, help="With --engine ray: how many workers."),
) -> None:
    """Run a system on a dataset and score it (paper 000 metrics). Rerunning into the same folder resumes."""
    from graphwright.assembly import ModelChoice, check_system, open_run, with_dataset
    from graphwright.eval.datasets import load_dataset
    from graphwright.eval.report import markdown_report, write_reports
    from graphwright.eval.runner import RunInfo, read_documents, run_eval
    from graphwright.kb import open_kb
    from graphwright.llm.wrappers import TracingLLM
    from graphwright.locks import folder_lock

    try:
        check_system(system)
        data = load_dataset(dataset, limit)
        choice = ModelChoice(model, base_url, api_key, cache=not no_cache)
        choice.check()
        llm = choice.open()
        folder = out or Path("runs") / _slug(f"{system}-{data.name}-{llm.name}")
        llm = TracingLLM(llm, folder / "llm-trace.jsonl")  # every call of the run, for reading failures
        kb_name = kb or data.kb
        knowledge = open_kb(kb_name)  # the scorer reads it, whichever engine runs the system
        settings = with_dataset(system, _settings(option, config), data.system_settings)
        info = RunInfo(system=system, dataset=data.name, model=llm.name, kb=str(kb_name), limit=limit, settings=settings)
        with folder_lock(folder, "--out"), _progress() as progress:
            # on Ray the workers hold their own models; this process scores and writes
            run = open_run(system, settings, choice, str(kb_name), engine=engine, address=address, workers=workers,
                           trace_folder=folder, llm=llm, knowledge=knowledge)
            task = progress.add_task(f"{system} on {data.name}", total=len(data.documents))
            aggregate = _run_and_close(run.closes or llm, run_eval(
                run.system, data, knowledge, info, folder, concurrency=workers if engine == "ray" else 1,
                on_progress=lambda _: progress.advance(task)))
        rows = read_documents(folder)
        md, page = write_reports(folder, aggregate, rows)
    except GraphwrightError as exc:
        _fail(exc)
    typer.echo(markdown_report(aggregate))
    typer.echo(f"wrote {folder}/documents.jsonl, {md.name} and {page.name}")
    unreached = sum(bool(row.get("retryable")) for row in rows)
    if unreached:
        console.print(f"{unreached} document(s) failed because the model could not be reached; run the same "
                      "command again to complete them", style="yellow", highlight=False, markup=False)


@eval_app.command("compare")
def eval_compare(
    runs: list[Path] = typer.Argument(..., help="Run folders written by `graphwright eval run`."),
    average: str = typer.Option("macro", "--average", help="macro or micro"),
    markdown: bool = typer.Option(False, "--markdown", help="Print a Markdown table instead."),
) -> None:
    """Show runs side by side: F1 per category, error rate, LLM calls, tokens and seconds per document,
    and how sure the headline F1 is: its bootstrap interval and its paired difference from the first run."""
    from graphwright.eval.report import categories, comparison_markdown, comparison_rows, uncertainty_rows
    from graphwright.eval.runner import load_aggregate, read_documents

    try:
        if average not in ("macro", "micro"):
            raise UserError("--average is macro or micro")
        aggs = [load_aggregate(r) for r in runs]
    except GraphwrightError as exc:
        _fail(exc)
    names = [r.name for r in runs]
    rows = comparison_rows(aggs, average)
    documents = [read_documents(r) for r in runs]
    if all(documents):
        rows += uncertainty_rows(documents, names, categories(aggs[0])[0])
    if markdown:
        typer.echo(comparison_markdown(rows, names))
        return
    table = Table("metric", *names, title=f"{average} average")
    for metric, values in rows:
        table.add_row(metric, *values)
    Console().print(table)


@eval_app.command("linking")
def eval_linking(
    datasets: str = typer.Option("rebel-sample,fewrel", "--datasets", help="Comma-separated: rebel-sample, fewrel."),
    embedders: str = typer.Option("minilm,minilm-static", "--embedders", help="Comma-separated embedding models."),
    modes: str = typer.Option("label,description,example,fused", "--modes", help="Comma-separated search modes."),
    limit: int = typer.Option(300, "--limit", "-n", min=0, help="Queries per query set (0 = all)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Also write the Markdown table here."),
) -> None:
    """URI retrieval without an LLM: recall@1/5/10 and ms/query per search mode and embedding model."""
    from graphwright.eval.linking import run_linking_benchmark

    def split(text: str) -> list[str]:
        return [x.strip() for x in text.split(",") if x.strip()]

    try:
        _, markdown = run_linking_benchmark(split(datasets), split(embedders), split(modes), limit or None)
    except GraphwrightError as exc:
        _fail(exc)
    typer.echo(markdown)
    if out:
        out.write_text(markdown, encoding="utf-8")


@eval_app.command("datasets")
def eval_datasets() -> None:
    """List the registered evaluation datasets."""
    from graphwright.eval.datasets import DATASETS

    for name in DATASETS.names():
        typer.echo(f"{name}: {(DATASETS.get(name).__doc__ or '').strip().splitlines()[0]}")


@agentre_app.command("warm-up")
def agentre_warm_up(
    memory_dir: Path = typer.Option(..., "--memory-dir", help="Memory folder to fill (created; resumed if it exists)."),
    dataset: Optional[str] = typer.Option(None, "--dataset", "-d", help="RE dataset whose schema and train pool to learn from."),
    samples: int = typer.Option(100, "--samples", "-n", min=1, help="Labelled pool samples to learn from (the first N)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="embedded, embedded:qwen2.5-coder-0.5b, or a server's model name."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible server URL (or GRAPHWRIGHT_BASE_URL)."),
    api_key: Optional[str] = typer.Option(None, "--api-key", help="API key (or GRAPHWRIGHT_API_KEY / OPENAI_API_KEY)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not reuse or store cached LLM responses."),
    option: list[str] = typer.Option([], "--set", help="agentre setting KEY=VALUE, e.g. --set schema_file=s.yaml (repeatable)."),
) -> None:
    """Fill AgentRE's memory from labelled samples: extract, check against gold, remember (paper 001, 3.3)."""
    from graphwright.llm import make_llm
    from graphwright.locks import folder_lock
    from graphwright.systems.agentre.learn import warm_up
    from graphwright.systems.base import make_system

    try:
        settings = {**({"dataset": dataset} if dataset else {}), **_settings(option), "memory_dir": str(memory_dir)}
        llm = make_llm(model, base_url=base_url, api_key=api_key, cache=not no_cache,
                       trace_path=memory_dir / "llm-trace.jsonl")
        system = make_system("agentre.paper", llm, None, settings)  # the agent that learns into memory
        if system.pool is None:
            raise UserError("warm-up needs labelled samples: set --dataset or --set pool_file=<jsonl>")
        chosen = system.pool.samples[:samples]
        with folder_lock(memory_dir, "--memory-dir"), _progress() as progress:
            task = progress.add_task("learning", total=len(chosen))
            counts = _run_and_close(llm, warm_up(system, chosen, llm, on_progress=lambda _: progress.advance(task)))
    except GraphwrightError as exc:
        _fail(exc)
    typer.echo(f"learnt {counts['learnt']} samples ({counts['skipped']} already in memory): {counts['correct']} right, "
               f"{counts['wrong']} wrong and {counts['missed']} missed triples; memory now holds "
               f"{len(system.memory.checked)} checked sentences, {len(system.memory.summaries)} entity summaries and "
               f"{len(system.memory.lessons)} lessons in {memory_dir}")


@train_app.command("sft-export")
def train_sft_export(
    run: Path = typer.Argument(..., help="An `eval run` folder of agentre (its trajectories and gold triples)."),
    out: Path = typer.Option(..., "--out", "-o", help="Chat-format JSONL to append to (resumes)."),
    rationale: bool = typer.Option(True, "--rationale/--no-rationale", help="Have the LLM summarise each trajectory "
                                   "into a rationale (D'); --no-rationale writes plain sentence -> triples pairs (D)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="embedded, embedded:qwen2.5-coder-0.5b, or a server's model name."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible server URL (or GRAPHWRIGHT_BASE_URL)."),
    api_key: Optional[str] = typer.Option(None, "--api-key", help="API key (or GRAPHWRIGHT_API_KEY / OPENAI_API_KEY)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not reuse or store cached LLM responses."),
) -> None:
    """Write SFT examples from an agentre eval run (paper 001, section 3.5), or the finished, exactly right policy
    conversations of an agentic-kgr.agent run (distilled trajectories, paper 004)."""
    import json

    from graphwright.llm import make_llm
    from graphwright.systems.agentre.config import AgentREConfig
    from graphwright.systems.agentre.system import resolve_schema_and_pool
    from graphwright.train.sft_data import export_agentic_kgr, export_sft, read_run

    try:
        if (run / "run.json").is_file() and json.loads((run / "run.json").read_text())["system"] == "agentic-kgr.agent":
            counts = export_agentic_kgr(run, out)
            typer.echo(f"wrote {counts['written']} examples to {out} ({counts['skipped']} were already there, "
                       f"{counts['left_out']} unfinished or not exactly right)")
            return
        info, sentences = read_run(run)
        if not info["system"].startswith("agentre"):
            raise UserError(f"{run} is a {info['system']} run; SFT data comes from agentre runs")
        schema, _ = resolve_schema_and_pool(AgentREConfig.model_validate(info["settings"]))
        llm = make_llm(model, base_url=base_url, api_key=api_key, cache=not no_cache) if rationale else None
        with _progress() as progress:
            task = progress.add_task("exporting", total=len(sentences))
            counts = _run_and_close(llm, export_sft(run, out, schema.guidelines(), llm,
                                                    on_progress=lambda _: progress.advance(task)))
    except GraphwrightError as exc:
        _fail(exc)
    typer.echo(f"wrote {counts['written']} examples to {out} ({counts['skipped']} were already there)")


@train_app.command("sft")
def train_sft(
    base_model: str = typer.Argument(..., help="A Hugging Face model folder (or hub id, when online)."),
    data: list[Path] = typer.Option(..., "--data", "-d", help="SFT JSONL; repeat to train in order (D, then D')."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for the LoRA adapter."),
    epochs: float = typer.Option(3.0, help="Epochs per dataset (the paper: 3)."),
    learning_rate: float = typer.Option(5e-5, help="AdamW learning rate (the paper: 5e-5)."),
    batch_size: int = typer.Option(32, help="Batch size (the paper: 32)."),
    max_steps: int = typer.Option(-1, help="Stop each dataset after N steps (smoke runs)."),
) -> None:
    """LoRA SFT (r=8, alpha=16, dropout 0.1) with TRL and PEFT; needs the train extra."""
    from graphwright.train.sft import SFTRecipe, train_lora

    try:
        summary = train_lora(base_model, data, out, SFTRecipe(epochs=epochs, learning_rate=learning_rate,
                                                              batch_size=batch_size, max_steps=max_steps))
    except GraphwrightError as exc:
        _fail(exc)
    for stage in summary["stages"]:
        typer.echo(f"{stage['data']}: {stage['examples']} examples, {stage['steps']} steps, "
                   f"loss {stage['first_loss']} -> {stage['last_loss']}")
    typer.echo(f"adapter written to {out}")


@train_app.command("grpo")
def train_grpo_command(
    base_model: str = typer.Argument(..., help="An embedded model's name (qwen2.5-coder-0.5b), a GGUF file, or a "
                                     "Hugging Face model folder."),
    dataset: str = typer.Option("conll04", "--dataset", help="RE dataset whose train split gives the texts and gold "
                                "(conll04, duie2, ...)."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for the adapter, dynamics.jsonl and training.json."),
    steps: int = typer.Option(4, help="Optimisation steps (one prompt, all its rollouts, per step)."),
    generations: int = typer.Option(8, help="Rollouts per prompt (the paper: 8)."),
    learning_rate: float = typer.Option(1e-6, help="Learning rate (the paper: 1e-6)."),
    kl: float = typer.Option(0.04, help="KL coefficient to the reference policy."),
    max_turns: int = typer.Option(10, help="Actions per rollout (the paper: 10)."),
    max_new_tokens: int = typer.Option(256, help="Tokens per action."),
    alpha: float = typer.Option(0.3, help="Weight of the environment reward: R = alpha R_env + (1 - alpha) R_task."),
    limit: int = typer.Option(100, help="Training texts used."),
    schema_file: Optional[str] = typer.Option(None, "--schema", help="Relation schema instead of the dataset's."),
) -> None:
    """GRPO over agentic-kgr's multi-turn tool trajectories, with a LoRA adapter; needs the train extra."""
    from graphwright.train.grpo import GRPORecipe, train_grpo

    recipe = GRPORecipe(steps=steps, generations=generations, learning_rate=learning_rate, kl=kl, max_turns=max_turns,
                        max_new_tokens=max_new_tokens, alpha=alpha, limit=limit)
    try:
        summary = train_grpo(base_model, dataset, out, recipe, schema_file=schema_file)
    except GraphwrightError as exc:
        _fail(exc)
    for step in summary["steps"]:
        typer.echo(f"step {step['step']}: reward {step['reward']:.3f} (std {step['reward_std']:.3f}), "
                   f"completion length {step['completions/mean_length']:.0f}")
    typer.echo(f"{summary['seconds_per_step']} s per step; adapter written to {out}")


def _slug(text: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


from graphwright.cli_growth import register as _register_growth  # noqa: E402  (needs the helpers above)

_register_growth(graph_app, _fail, _settings)

from graphwright.cli_ask import register as _register_ask  # noqa: E402

_register_ask(app, _fail, _run_and_close)

from graphwright.cli_serve import register as _register_serve  # noqa: E402

_register_serve(app, _fail)


def main() -> None:
    app()


if __name__ == "__main__":
    sys.exit(main())
