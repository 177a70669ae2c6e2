"""`graphwright graph export|view|map-relation|query|documents|delete|reextract`: the stored graph (the grown graph's commands are in
growth.py)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from graphwright.cli.app import graph_app
from graphwright.cli.common import API_KEY, BASE_URL, MODEL, NO_CACHE, console, fail, read_settings
from graphwright.errors import GraphwrightError, UserError
from graphwright.systems.base import DEFAULT_SYSTEM


@graph_app.command("export")
def graph_export(
    out_file: Path = typer.Argument(
        ...,
        help="Output file; the format follows the extension (.ttl, .nt, .jsonld, .nq, "
        ".trig, .graphml, or .zip: CSV files for neo4j-admin import).",
    ),
    store: Path = typer.Option(Path("out/store"), "--store"),
    fmt: str | None = typer.Option(None, "--format", help="turtle, ntriples, jsonld, nquads, trig, graphml or neo4j"),
    document: str | None = typer.Option(None, "--doc", help="Only this document's graph."),
    provenance: bool = typer.Option(False, "--provenance", help="Include the evidence and provenance statements."),
    grown: bool = typer.Option(False, "--grown", help="The graph grown over the documents (graph merge) instead."),
) -> None:
    """Export the stored graph."""
    from graphwright.store import GraphStore, export_graph

    try:
        with GraphStore.open_for_reading(store) as graph_store:
            export_graph(graph_store, out_file, fmt, document_id=document, include_provenance=provenance, grown=grown)
    except GraphwrightError as exc:
        fail(exc)
    typer.echo(f"wrote {out_file}")


@graph_app.command("view")
def graph_view(
    out_file: Path = typer.Argument(..., help="HTML file to write."),
    store: Path = typer.Option(Path("out/store"), "--store"),
    document: str | None = typer.Option(None, "--doc"),
    title: str = typer.Option("graphwright", "--title"),
) -> None:
    """Write a self-contained HTML view of the stored graph."""
    from graphwright.store import GraphStore, write_html

    try:
        with GraphStore.open_for_reading(store) as graph_store:
            write_html(graph_store, out_file, document_id=document, title=title)
    except GraphwrightError as exc:
        fail(exc)
    typer.echo(f"wrote {out_file}")


@graph_app.command("map-relation")
def graph_map_relation(
    phrase: str = typer.Argument(..., help="The relation as the graph keeps it (its phrase, or its IRI)."),
    prop: str = typer.Argument(
        ..., metavar="PROPERTY", help="A KB property id (P159) or the IRI of a schema relation."
    ),
    swap: bool = typer.Option(
        False,
        "--swap",
        help='The property reads from object to subject ("parent of" as P40 child '
        'reads backwards: use P40 with --swap for "child of").',
    ),
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
        fail(exc)
    kept = f"; {done.kept} kept under the phrase (a value cannot be the subject)" if done.kept else ""
    typer.echo(f"mapped {done.facts} facts in {done.documents} documents onto {label or prop}{kept}")
    if not done.facts and not done.kept:
        typer.echo(f"no fact is kept under {phrase!r}: see `graphwright graph query` for the phrases in the store")


@graph_app.command("query")
def graph_query(
    sparql: str = typer.Argument(
        ...,
        help="A SPARQL query, or @file.rq to read it from a file. The prefixes gw:, "
        "gwe:, gwr:, wd:, wdt:, rdfs:, xsd: are declared; the default graph is every document's KG.",
    ),
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
        fail(UserError(f"cannot read the query file: {exc}"))
    except GraphwrightError as exc:
        fail(exc)
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row, ensure_ascii=False))
        return
    from rich.text import Text

    table = Table(*(rows[0] if rows else ["no rows"]))
    for row in rows:  # Text, not markup: a label like "[red]" is data
        table.add_row(*(Text("" if value is None else str(value)) for value in row.values()))
    console.print(table)


@graph_app.command("delete")
def graph_delete(
    document: list[str] = typer.Argument(..., help="The id of a stored document (`graphwright graph documents`)."),
    store: Path = typer.Option(Path("out/store"), "--store"),
) -> None:
    """Delete documents and everything derived from them: every system's facts and provenance, the text,
    and their part of the grown graph (edges only they supported; their votes on the others)."""
    from graphwright.curation import delete_document, finish_pending
    from graphwright.store import GraphStore

    try:
        with GraphStore.open(store, create=False) as graph_store:
            for done in finish_pending(graph_store):
                typer.echo(f"finished the interrupted deletion of {done.document_id}")
            for document_id in document:
                deleted = delete_document(graph_store, document_id)
                typer.echo(
                    f"deleted {document_id}: {deleted.runs} runs; grown graph: {deleted.grown.edges} edges "
                    f"and {deleted.grown.nodes} entities removed, {deleted.grown.votes} edges kept on other documents' votes"
                )
    except GraphwrightError as exc:
        fail(exc)


@graph_app.command("documents")
def graph_documents(store: Path = typer.Option(Path("out/store"), "--store")) -> None:
    """The stored documents: id, source file, system, status and facts, one row per system's run."""
    from rich.text import Text

    from graphwright.store import GraphStore

    try:
        with GraphStore.open_for_reading(store) as graph_store:
            runs = graph_store.documents()
    except GraphwrightError as exc:
        fail(exc)
    table = Table("document", "source", "system", "status", "facts")
    for run in runs:
        table.add_row(
            Text(run["document_id"] or ""),
            Text(run["source"] or ""),
            Text(run["system"] or ""),
            run["status"] or "",
            str(run["triples"]),
        )
    console.print(table)


@graph_app.command("reextract")
def graph_reextract(
    document: list[str] = typer.Argument(..., help="The id of a stored document (`graphwright graph documents`)."),
    system: str = typer.Option(DEFAULT_SYSTEM, "--system", "-s", help="The system to extract them with."),
    option: list[str] = typer.Option([], "--set", help="System setting KEY=VALUE (repeatable)."),
    config: Path | None = typer.Option(None, "--config", help="System configuration file; --set overrides it."),
    replace: bool = typer.Option(False, "--replace", help="Then remove the documents' runs of every other system."),
    store: Path = typer.Option(Path("out/store"), "--store"),
    model: str | None = MODEL,
    base_url: str | None = BASE_URL,
    api_key: str | None = API_KEY,
    kb: str = typer.Option("default", "--kb"),
    no_cache: bool = NO_CACHE,
) -> None:
    """Extract stored documents again, from the text the store keeps, with another system or settings; the
    system's earlier result for each is replaced."""
    import asyncio

    from graphwright.api import extract_async
    from graphwright.curation import remove_other_runs, stored_documents
    from graphwright.store import GraphStore

    try:
        settings = read_settings(option, config)
        with GraphStore.open(store, create=False) as graph_store:
            documents = stored_documents(graph_store, document)
            run = asyncio.run(
                extract_async(
                    documents,
                    system=system,
                    model=model,
                    base_url=base_url,
                    api_key=api_key,
                    kb=kb,
                    store=graph_store,
                    settings=settings,
                    cache=not no_cache,
                    redo=True,
                )
            )
            for result in run.results:
                removed = remove_other_runs(graph_store, result.document_id, system) if replace else 0
                typer.echo(
                    f"{result.document_id}: {result.status}, {len(result.triples)} facts by {system}"
                    + (f"; {removed} other systems' runs removed" if removed else "")
                    + (f" ({result.reason})" if result.reason else "")
                )
    except GraphwrightError as exc:
        fail(exc)
