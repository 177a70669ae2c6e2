"""`graphwright agentre warm-up` and `graphwright train sft-export|sft|grpo`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

import typer

from graphwright.cli.app import agentre_app, train_app
from graphwright.cli.common import (
    API_KEY,
    BASE_URL,
    MODEL,
    NO_CACHE,
    fail,
    progress_bar,
    read_settings,
    run_and_close,
)
from graphwright.errors import GraphwrightError, UserError

if TYPE_CHECKING:
    from graphwright.papers.agentre.system import AgentRESystem


@agentre_app.command("warm-up")
def agentre_warm_up(
    memory_dir: Path = typer.Option(..., "--memory-dir", help="Memory folder to fill (created; resumed if it exists)."),
    dataset: str | None = typer.Option(
        None, "--dataset", "-d", help="RE dataset whose schema and train pool to learn from."
    ),
    samples: int = typer.Option(
        100, "--samples", "-n", min=1, help="Labelled pool samples to learn from (the first N)."
    ),
    model: str | None = MODEL,
    base_url: str | None = BASE_URL,
    api_key: str | None = API_KEY,
    no_cache: bool = NO_CACHE,
    option: list[str] = typer.Option(
        [], "--set", help="agentre setting KEY=VALUE, e.g. --set schema_file=s.yaml (repeatable)."
    ),
) -> None:
    """Fill AgentRE's memory from labelled samples: extract, check against gold, remember (paper 001, 3.3)."""
    from graphwright.llm import make_llm
    from graphwright.locks import folder_lock
    from graphwright.papers.agentre.learn import warm_up
    from graphwright.systems.base import make_system

    try:
        settings = {**({"dataset": dataset} if dataset else {}), **read_settings(option), "memory_dir": str(memory_dir)}
        llm = make_llm(
            model, base_url=base_url, api_key=api_key, cache=not no_cache, trace_path=memory_dir / "llm-trace.jsonl"
        )
        # the agent that learns into memory; cast: make_system gives a System, here AgentRESystem in
        # wrappers that forward its attributes (pool, memory)
        system = cast("AgentRESystem", make_system("agentre.paper", llm, None, settings))
        if system.pool is None:
            raise UserError("warm-up needs labelled samples: set --dataset or --set pool_file=<jsonl>")
        chosen = system.pool.samples[:samples]
        with folder_lock(memory_dir, "--memory-dir"), progress_bar() as progress:
            task = progress.add_task("learning", total=len(chosen))
            counts = run_and_close(llm, warm_up(system, chosen, llm, on_progress=lambda _: progress.advance(task)))
    except GraphwrightError as exc:
        fail(exc)
    assert system.memory is not None  # warm_up refuses a system without memory
    typer.echo(
        f"learnt {counts['learnt']} samples ({counts['skipped']} already in memory): {counts['correct']} right, "
        f"{counts['wrong']} wrong and {counts['missed']} missed triples; memory now holds "
        f"{len(system.memory.checked)} checked sentences, {len(system.memory.summaries)} entity summaries and "
        f"{len(system.memory.lessons)} lessons in {memory_dir}"
    )


@train_app.command("sft-export")
def train_sft_export(
    run: Path = typer.Argument(..., help="An `eval run` folder of agentre (its trajectories and gold triples)."),
    out: Path = typer.Option(..., "--out", "-o", help="Chat-format JSONL to append to (resumes)."),
    rationale: bool = typer.Option(
        True,
        "--rationale/--no-rationale",
        help="Have the LLM summarise each trajectory "
        "into a rationale (D'); --no-rationale writes plain sentence -> triples pairs (D).",
    ),
    model: str | None = MODEL,
    base_url: str | None = BASE_URL,
    api_key: str | None = API_KEY,
    no_cache: bool = NO_CACHE,
) -> None:
    """Write SFT examples from an agentre eval run (paper 001, section 3.5), or the finished, exactly right policy
    conversations of an agentic-kgr.agent run (distilled trajectories, paper 004)."""
    import json

    from graphwright.llm import make_llm
    from graphwright.papers.agentre.config import AgentREConfig
    from graphwright.papers.agentre.system import resolve_schema_and_pool
    from graphwright.train.sft_data import export_agentic_kgr, export_sft, read_run

    try:
        if (run / "run.json").is_file() and json.loads((run / "run.json").read_text())["system"] == "agentic-kgr.agent":
            counts = export_agentic_kgr(run, out)
            typer.echo(
                f"wrote {counts['written']} examples to {out} ({counts['skipped']} were already there, "
                f"{counts['left_out']} unfinished or not exactly right)"
            )
            return
        info, sentences = read_run(run)
        if not info["system"].startswith("agentre"):
            raise UserError(f"{run} is a {info['system']} run; SFT data comes from agentre runs")
        schema, _ = resolve_schema_and_pool(AgentREConfig.model_validate(info["settings"]))
        llm = make_llm(model, base_url=base_url, api_key=api_key, cache=not no_cache) if rationale else None
        with progress_bar() as progress:
            task = progress.add_task("exporting", total=len(sentences))
            counts = run_and_close(
                llm, export_sft(run, out, schema.guidelines(), llm, on_progress=lambda _: progress.advance(task))
            )
    except GraphwrightError as exc:
        fail(exc)
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
        summary = train_lora(
            base_model,
            data,
            out,
            SFTRecipe(epochs=epochs, learning_rate=learning_rate, batch_size=batch_size, max_steps=max_steps),
        )
    except GraphwrightError as exc:
        fail(exc)
    for stage in summary["stages"]:
        typer.echo(
            f"{stage['data']}: {stage['examples']} examples, {stage['steps']} steps, "
            f"loss {stage['first_loss']} -> {stage['last_loss']}"
        )
    typer.echo(f"adapter written to {out}")


@train_app.command("grpo")
def train_grpo_command(
    base_model: str = typer.Argument(
        ..., help="An embedded model's name (qwen2.5-coder-0.5b), a GGUF file, or a Hugging Face model folder."
    ),
    dataset: str = typer.Option(
        "conll04", "--dataset", help="RE dataset whose train split gives the texts and gold (conll04, duie2, ...)."
    ),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for the adapter, dynamics.jsonl and training.json."),
    steps: int = typer.Option(4, help="Optimisation steps (one prompt, all its rollouts, per step)."),
    generations: int = typer.Option(8, help="Rollouts per prompt (the paper: 8)."),
    learning_rate: float = typer.Option(1e-6, help="Learning rate (the paper: 1e-6)."),
    kl: float = typer.Option(0.04, help="KL coefficient to the reference policy."),
    max_turns: int = typer.Option(10, help="Actions per rollout (the paper: 10)."),
    max_new_tokens: int = typer.Option(256, help="Tokens per action."),
    alpha: float = typer.Option(0.3, help="Weight of the environment reward: R = alpha R_env + (1 - alpha) R_task."),
    limit: int = typer.Option(100, help="Training texts used."),
    schema_file: str | None = typer.Option(None, "--schema", help="Relation schema instead of the dataset's."),
) -> None:
    """GRPO over agentic-kgr's multi-turn tool trajectories, with a LoRA adapter; needs the train extra."""
    from graphwright.train.grpo import GRPORecipe, train_grpo

    recipe = GRPORecipe(
        steps=steps,
        generations=generations,
        learning_rate=learning_rate,
        kl=kl,
        max_turns=max_turns,
        max_new_tokens=max_new_tokens,
        alpha=alpha,
        limit=limit,
    )
    try:
        summary = train_grpo(base_model, dataset, out, recipe, schema_file=schema_file)
    except GraphwrightError as exc:
        fail(exc)
    for step in summary["steps"]:
        typer.echo(
            f"step {step['step']}: reward {step['reward']:.3f} (std {step['reward_std']:.3f}), "
            f"completion length {step['completions/mean_length']:.0f}"
        )
    typer.echo(f"{summary['seconds_per_step']} s per step; adapter written to {out}")


@train_app.command("facts-data")
def train_facts_data(
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="Training file to write (JSONL; default: "
        "facts-sft.jsonl in the cache's train folder); the dev slice of the learning "
        "curve goes beside it (.dev.jsonl).",
    ),
    written: Path = typer.Option(Path("data/training"), "--written", help="The folder of texts written for training."),
    written_from: int = typer.Option(
        1,
        help="The document after which the written texts start (a run begun on a "
        "file without them keeps its beginning).",
    ),
) -> None:
    """Write the training examples of the `facts` adapter from Re-DocRED dev and the written texts (issue 60), in
    training order."""
    from graphwright.bench.data.facts_training import build
    from graphwright.train.adapter import train_folder

    out = out or train_folder() / "facts-sft.jsonl"
    try:
        summary = build(out, written, written_from=written_from)
    except GraphwrightError as exc:
        fail(exc)
    left_out = "; ".join(f"{count} {why}" for why, count in summary["left_out"].items())
    typer.echo(
        f"wrote {summary['examples']} examples from {summary['documents']} documents ({summary['facts']} facts) "
        f"to {out}, and {summary['dev_documents']} dev documents beside it; left out: {left_out}"
    )


@train_app.command("facts")
def train_facts(
    data: Path | None = typer.Option(
        None, "--data", "-d", help="The training file (`graphwright train facts-data`; default: the one it writes)."
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="The run's folder: checkpoint, ledger and the "
        "adapters kept at milestones; a run there resumes (default: facts-adapter in "
        "the cache's train folder, outside the work tree, so a new checkout resumes).",
    ),
    base_model: str = typer.Option(
        "qwen2.5-coder-1.5b", "--base", help="An embedded model's name, a GGUF file or a Hugging Face folder."
    ),
    until_document: int | None = typer.Option(None, help="Stop after this many documents of the file."),
    milestones: str = typer.Option("100,250,460", help="Keep the adapter after these many documents (learning curve)."),
    rank: int = typer.Option(16, help="LoRA rank."),
    learning_rate: float = typer.Option(2e-4, help="AdamW learning rate (constant after the warm-up)."),
    accumulation: int = typer.Option(4, help="Examples per optimiser step."),
    threads: int = typer.Option(2, help="CPU threads."),
    bf16: bool = typer.Option(
        True, help="Matrix products in bfloat16 where the CPU has it (the weights stay float32)."
    ),
    max_steps: int | None = typer.Option(None, help="Stop after this many optimiser steps in all (smoke runs)."),
    start_from: Path | None = typer.Option(
        None,
        "--start-from",
        help="Go on from an adapter file a run of this recipe exported (the shipped one, on a machine "
        "without the run's checkpoint); the run folder's own checkpoint comes first.",
    ),
) -> None:
    """LoRA on all linear layers over the training file, checkpointed after every step and resumed after a kill."""
    from graphwright.train.adapter import AdapterRecipe, train_adapter, train_folder

    data, out = data or train_folder() / "facts-sft.jsonl", out or train_folder() / "facts-adapter"
    recipe = AdapterRecipe(
        rank=rank, alpha=2 * rank, learning_rate=learning_rate, accumulation=accumulation, threads=threads, bf16=bf16
    )

    first: dict = {}  # this piece's first step: the pace is this piece's, earlier ones ran on other settings

    def show(entry: dict) -> None:
        if not first:
            first.update(entry)
        if entry["document"] > first["document"]:
            pace = (entry["hours"] - first["hours"]) / (entry["document"] - first["document"])
        else:
            pace = entry["hours"] / max(1, entry["document"])
        left = pace * (entry["of_documents"] - entry["document"])
        typer.echo(
            f"step {entry['step']}: document {entry['document']} of {entry['of_documents']}, loss "
            f"{entry['loss']:.3f}, {entry['tokens']} tokens in {entry['seconds']:.0f} s "
            f"({entry['tokens_per_second']:.1f} tok/s); about {left:.1f} h left"
        )

    try:
        summary = train_adapter(
            base_model,
            data,
            out,
            recipe,
            milestones=tuple(int(m) for m in milestones.split(",") if m),
            until_document=until_document,
            max_steps=max_steps,
            on_step=show,
            start_from=start_from,
        )
    except GraphwrightError as exc:
        fail(exc)
    typer.echo(
        f"stopped at step {summary['step']}, row {summary['rows']} of {summary['of_rows']} "
        f"({summary['tokens']} tokens, {summary['seconds'] / 3600:.2f} h of training); checkpoint in {out}"
    )


@train_app.command("export-adapter")
def train_export_adapter(
    source: Path | None = typer.Argument(
        None,
        help="A training run's folder (its last checkpoint; default: "
        "`train facts`' own) or a PEFT adapter folder (a milestone's "
        "adapter-doc<N>).",
    ),
    out: Path = typer.Option(..., "--out", "-o", help="The llama.cpp adapter file to write (.gguf)."),
) -> None:
    """Write a LoRA adapter as a llama.cpp adapter file (f16), for GRAPHWRIGHT_ADAPTERS or to ship."""
    from graphwright.llm.adapters import identity
    from graphwright.train.adapter import train_folder
    from graphwright.train.gguf_adapter import convert

    source = source or train_folder() / "facts-adapter"
    try:
        written = convert(source, out)
    except GraphwrightError as exc:
        fail(exc)
    typer.echo(
        f"wrote {out} ({written['tensors']} tensors, rank {written['rank']}, alpha {written['alpha']:g}, "
        f"{written['bytes'] / 1e6:.1f} MB): {identity(out)}"
    )
