"""`graphwright eval run|compare|linking|datasets`."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from graphwright.cli.app import eval_app
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
    slug,
)
from graphwright.errors import GraphwrightError, UserError


@eval_app.command("run")
def eval_run(
    system: str = typer.Option(..., "--system", "-s", help="System to evaluate (see `graphwright systems`)."),
    dataset: str = typer.Option(
        ..., "--dataset", "-d", help="A dataset (`graphwright eval datasets`) or a gold JSONL file."
    ),
    limit: int | None = typer.Option(None, "--limit", "-n", min=1, help="Only the first N documents."),
    model: str | None = MODEL,
    base_url: str | None = BASE_URL,
    api_key: str | None = API_KEY,
    kb: str | None = typer.Option(None, "--kb", help="KB to link against (default: the dataset's own, e.g. rebel)."),
    out: Path | None = typer.Option(None, "--out", help="Run folder (default runs/<system>-<dataset>-<model>)."),
    no_cache: bool = NO_CACHE,
    option: list[str] = typer.Option([], "--set", help="System setting KEY=VALUE (repeatable)."),
    config: Path | None = typer.Option(
        None, "--config", help="System configuration file (YAML/JSON settings); --set overrides it."
    ),
    engine: str = typer.Option("local", "--engine", help="local, or ray: the documents spread over Ray workers."),
    address: str | None = typer.Option(None, "--address", help="With --engine ray: the Ray cluster to join."),
    workers: int = typer.Option(2, "--workers", min=1, help="With --engine ray: how many workers."),
) -> None:
    """Run a system on a dataset and score it (paper 000 metrics). Rerunning into the same folder resumes."""
    from graphwright.assembly import ModelChoice, check_system, with_dataset
    from graphwright.bench.eval.datasets import load_dataset
    from graphwright.bench.eval.report import markdown_report, write_reports
    from graphwright.bench.eval.runner import RunInfo, read_documents, run_eval
    from graphwright.engines import open_run
    from graphwright.kb import open_kb
    from graphwright.llm.wrappers import TracingLLM
    from graphwright.locks import folder_lock

    try:
        check_system(system)
        data = load_dataset(dataset, limit)
        choice = ModelChoice(model, base_url, api_key, cache=not no_cache)
        choice.check()
        llm = choice.open()
        folder = out or Path("runs") / slug(f"{system}-{data.name}-{llm.name}")
        llm = TracingLLM(llm, folder / "llm-trace.jsonl")  # every call of the run, for reading failures
        kb_name = kb or data.kb
        knowledge = open_kb(kb_name)  # the scorer reads it, whichever engine runs the system
        settings = with_dataset(system, read_settings(option, config), data.system_settings)
        info = RunInfo(
            system=system, dataset=data.name, model=llm.name, kb=str(kb_name), limit=limit, settings=settings
        )
        with folder_lock(folder, "--out"), progress_bar() as progress:
            # on Ray the workers hold their own models; this process scores and writes
            run = open_run(
                system,
                settings,
                choice,
                str(kb_name),
                engine=engine,
                address=address,
                workers=workers,
                trace_folder=folder,
                llm=llm,
                knowledge=knowledge,
            )
            task = progress.add_task(f"{system} on {data.name}", total=len(data.documents))
            aggregate = run_and_close(
                run.closes or llm,
                run_eval(
                    run.system,
                    data,
                    knowledge,
                    info,
                    folder,
                    concurrency=workers if engine == "ray" else 1,
                    on_progress=lambda _: progress.advance(task),
                ),
            )
        rows = read_documents(folder)
        md, page = write_reports(folder, aggregate, rows)
    except GraphwrightError as exc:
        fail(exc)
    typer.echo(markdown_report(aggregate))
    typer.echo(f"wrote {folder}/documents.jsonl, {md.name} and {page.name}")
    unreached = sum(bool(row.get("retryable")) for row in rows)
    if unreached:
        console.print(
            f"{unreached} document(s) failed because the model could not be reached; run the same "
            "command again to complete them",
            style="yellow",
            highlight=False,
            markup=False,
        )


@eval_app.command("compare")
def eval_compare(
    runs: list[Path] = typer.Argument(..., help="Run folders written by `graphwright eval run`."),
    average: str = typer.Option("macro", "--average", help="macro or micro"),
    markdown: bool = typer.Option(False, "--markdown", help="Print a Markdown table instead."),
) -> None:
    """Show runs side by side: F1 per category, error rate, LLM calls, tokens and seconds per document,
    and how sure the headline F1 is: its bootstrap interval and its paired difference from the first run."""
    from graphwright.bench.eval.report import categories, comparison_markdown, comparison_rows, uncertainty_rows
    from graphwright.bench.eval.runner import load_aggregate, read_documents

    try:
        if average not in ("macro", "micro"):
            raise UserError("--average is macro or micro")
        aggs = [load_aggregate(r) for r in runs]
    except GraphwrightError as exc:
        fail(exc)
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
    out: Path | None = typer.Option(None, "--out", help="Also write the Markdown table here."),
) -> None:
    """URI retrieval without an LLM: recall@1/5/10 and ms/query per search mode and embedding model."""
    from graphwright.bench.eval.linking import run_linking_benchmark

    def split(text: str) -> list[str]:
        return [x.strip() for x in text.split(",") if x.strip()]

    try:
        _, markdown = run_linking_benchmark(split(datasets), split(embedders), split(modes), limit or None)
    except GraphwrightError as exc:
        fail(exc)
    typer.echo(markdown)
    if out:
        out.write_text(markdown, encoding="utf-8")


@eval_app.command("datasets")
def eval_datasets() -> None:
    """List the registered evaluation datasets."""
    from graphwright.bench.eval.datasets import DATASETS

    for name in DATASETS.names():
        typer.echo(f"{name}: {(DATASETS.get(name).__doc__ or '').strip().splitlines()[0]}")
