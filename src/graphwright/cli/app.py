"""The `graphwright` command and its groups; each group's commands are in their own module."""

from __future__ import annotations

import typer

from graphwright.cli.common import STATE

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Knowledge graphs from text with LLM agents.")
kb_app = typer.Typer(no_args_is_help=True, help="Build and search knowledge bases.")
graph_app = typer.Typer(
    no_args_is_help=True, help="Export, view and query stored graphs; grow one graph over documents."
)
eval_app = typer.Typer(no_args_is_help=True, help="Evaluate systems on gold data and compare runs.")
app.add_typer(kb_app, name="kb")
app.add_typer(graph_app, name="graph")
agentre_app = typer.Typer(no_args_is_help=True, help="AgentRE memory.")
train_app = typer.Typer(no_args_is_help=True, help="Distillation data, LoRA fine-tuning and GRPO.")
app.add_typer(eval_app, name="eval")
app.add_typer(agentre_app, name="agentre")
app.add_typer(train_app, name="train")


@app.callback()
def _options(debug: bool = typer.Option(False, "--debug", help="Show tracebacks.")) -> None:
    STATE["debug"] = debug


def main() -> None:
    app()
