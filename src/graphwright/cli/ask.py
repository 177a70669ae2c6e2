"""`graphwright ask`: a question in words, answered from the stored graph with citations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from graphwright.cli.app import app
from graphwright.cli.common import API_KEY, BASE_URL, MODEL, NO_CACHE, fail, run_and_close
from graphwright.errors import GraphwrightError

if TYPE_CHECKING:
    from graphwright.qa.answer import Reader
    from graphwright.qa.engine import GraphMode


def _is_mode(mode: str) -> TypeGuard[GraphMode]:
    return mode in ("local", "passages", "global")


def _is_reader(reader: str) -> TypeGuard[Reader]:
    return reader in ("notes", "short")


def print_answer(result, show_subgraph: bool, names: dict[str, str] | None = None) -> None:
    """``names``: where each document came from (its file), shown instead of its id."""
    out = Console()
    names = names or {}

    def where(source) -> str:
        return ", ".join(names.get(d) or d for d in source.documents)

    if show_subgraph:
        seeds = Table("seed node", "question words", "how", "score", title="where the question enters the graph")
        for s in result.seeds:
            seeds.add_row(Text(s.label), Text(s.phrase), s.how, f"{s.score:.2f}")
        out.print(seeds)
        sources = Table("id", "retrieved", "documents", "score", title=f"retrieved ({result.mode})")
        for s in result.sources:
            sources.add_row(s.id, Text(s.text), Text(where(s)), f"{s.score:.3f}")
        out.print(sources)
    if result.nothing:
        typer.echo(f"The graph holds nothing about {result.nothing}. (--guess lets the model guess, labelled as such.)")
        return
    if result.error:
        typer.echo(f"no answer: {result.error}")
        return
    typer.echo(result.answer)
    if result.notes:
        typer.echo(f"  the model's notes: {result.notes}")
    for s in result.citations:
        typer.echo(f"  [{s.id}] {s.text}" + (f"  [{where(s)}]" if s.documents else ""))
    if not result.supported:
        typer.echo(
            "  (not supported by the graph: the answer cites nothing retrieved, so it is the model's guess)"
            if result.sources
            else "  (the graph holds nothing about the question: the answer is the model's guess)"
        )


@app.command()
def ask(
    question: str = typer.Argument(..., help="The question, in words."),
    store: Path = typer.Option(Path("out/store"), "--store", help="Graph store directory (from `extract`)."),
    mode: str = typer.Option(
        "local",
        "--mode",
        help="local: the facts around the question's entities; passages: "
        "the passages a walk from the closest facts settles on, with those facts; global: "
        "summaries of the graph's communities, for questions about the whole corpus.",
    ),
    model: str | None = MODEL,
    base_url: str | None = BASE_URL,
    api_key: str | None = API_KEY,
    kb: str = typer.Option(
        "default", "--kb", help="The KB the question's names are also looked up in; 'none' for none."
    ),
    system: list[str] = typer.Option([], "--system", "-s", help="Only the graphs of this system (repeatable)."),
    document: list[str] = typer.Option([], "--doc", help="Only the graphs of this document (repeatable)."),
    grown: bool = typer.Option(
        False,
        "--grown",
        help="Ask the graph grown over the documents (`graph merge`: one "
        "node per entity across them; staged edges included) instead of each document's.",
    ),
    hops: int = typer.Option(3, "--hops", min=1, max=5, help="How far from the question's entities to look."),
    max_facts: int = typer.Option(15, "--max-facts", min=1, help="Facts given to the model."),
    show_subgraph: bool = typer.Option(False, "--show-subgraph", help="Print the seed nodes and what was retrieved."),
    guess: bool = typer.Option(
        False,
        "--guess",
        help="Let the model answer even when nothing retrieved mentions "
        "what the question asks about (its answer is then labelled a guess).",
    ),
    reader: str = typer.Option(
        "short",
        "--reader",
        help="short: the model answers at once; notes: it first notes "
        "the facts the answer needs (better on the benchmarks' dev questions, not on their test "
        "questions; about 1.5 times the time).",
    ),
    as_json: bool = typer.Option(False, "--json", help="The answer, citations, sources and usage as one JSON object."),
    no_cache: bool = NO_CACHE,
) -> None:
    """Answer a question from the stored graph, citing the facts and evidence it rests on."""
    from graphwright.errors import UserError
    from graphwright.kb import open_kb
    from graphwright.llm import make_llm
    from graphwright.qa import GraphQA
    from graphwright.store import GraphStore

    try:
        if not _is_mode(mode):
            raise UserError(f"--mode must be local, passages or global, not {mode!r}")
        if not _is_reader(reader):
            raise UserError(f"--reader must be notes or short, not {reader!r}")
        if base_url and not model:
            raise UserError("--base-url needs --model: the name of the model to use on that server")
        if not store.exists():
            raise UserError(f"no graph store at {store}: build one with `graphwright extract ... --store {store}`")
        with GraphStore.open_for_reading(store) as graph_store:
            if document:
                stored = {row["document_id"] for row in graph_store.documents(document)}
                if unknown := [d for d in document if d not in stored]:
                    held = sorted({row["document_id"] for row in graph_store.documents()})
                    raise UserError(
                        f"no document {unknown[0]!r} in {store}; it holds {len(held)}, e.g. "
                        f"{', '.join(held[:3]) or 'none'}"
                    )
            llm = make_llm(model, base_url=base_url, api_key=api_key, cache=not no_cache)
            qa = GraphQA(
                graph_store,
                llm,
                None if kb == "none" else open_kb(kb),
                systems=system or None,
                grown=grown,
                hops=hops,
                max_facts=max_facts,
                reader=reader,
                on_summary=lambda line: Console(stderr=True).print(f"community {line}", markup=False, highlight=False),
            )
            result = run_and_close(llm, qa.ask(question, mode=mode, documents=document or None, guess=guess))
            names = graph_store.sources({d for source in result.sources for d in source.documents})
    except GraphwrightError as exc:
        fail(exc)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print_answer(result, show_subgraph, names)
