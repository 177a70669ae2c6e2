"""LoRA training that a 2-core machine finishes in pieces over days (issue 60).

The examples are read in the order of the training file (chat-format JSONL, ``messages`` and a ``document``
number). After every optimiser step the adapter, the optimiser's state and the position in the file are
written to ``<out>/checkpoint`` (a new folder renamed over the old, so a kill leaves one whole checkpoint), and
the step goes into ``<out>/ledger.jsonl`` (loss, tokens, seconds). A run started again with the same ``out``
resumes there; the ledger's sources must match the file's, so a changed file cannot silently mix in.
When the run passes a milestone (a number of documents) the adapter is also kept as ``<out>/adapter-doc<N>``:
the learning curve is measured on those.

The loss is the answer's tokens only (the prompt is context). Needs the ``train`` extra; the embedded models
load from their GGUF files, dequantised to float32, so the adapter learns on the weights llama.cpp runs.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from graphwright.errors import UserError
from graphwright.jsonl import append_jsonl
from graphwright.paths import cache_dir
from graphwright.train.checkpoints import latest_checkpoint, save_checkpoint
from graphwright.train.sft import TRAIN_INSTALL


@dataclass(frozen=True)
class AdapterRecipe:
    rank: int = 16
    alpha: int = 32
    dropout: float = 0.05
    learning_rate: float = 2e-4
    warmup_steps: int = 10  # then constant: a run that stops and resumes has no schedule end to aim at
    accumulation: int = 4  # examples per optimiser step
    max_length: int = 1536  # tokens; a longer example is cut (its answer's end is lost)
    seed: int = 60
    threads: int = 2
    # matrix products in bfloat16 (torch.autocast) where the CPU computes them faster than float32
    # (bf16_is_faster): 1.8 times the tokens per second on a 2-core AMD EPYC, the loss the same to three
    # digits; 0.6 times on a 2-core Intel Xeon that also has avx512_bf16. The adapter's weights and the
    # optimiser's state stay float32
    bf16: bool = True
    # activations recomputed in the backward pass: 12.6 GB instead of 22.4 GB at 1,200 tokens on the 1.5B
    # model (which the kernel killed on a 24 GB machine), for 15% fewer tokens per second
    checkpointing: bool = True


@dataclass
class Position:
    step: int = 0  # optimiser steps taken
    row: int = 0  # rows of the training file consumed
    tokens: int = 0
    seconds: float = 0.0
    sources: str = ""  # sha256 of the consumed rows' sources, one after the other
    warm_from: int = 0  # the step the learning rate last warmed up from: a run gone on from an adapter file
    # starts its optimiser afresh


def train_folder() -> Path:
    """Where training runs live by default: the cache folder, which outlives a checkout of the project."""
    return cache_dir() / "train"


def read_rows(data: Path) -> list[dict]:
    if not data.is_file():
        raise UserError(f"training file {data} not found (write it with `graphwright train facts-data`)")
    with data.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def rows_digest(rows: list[dict]) -> str:
    """The rows a run has trained on, sources and answers: a file rebuilt with other answers is another file."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps([row.get("source", ""), row.get("messages")], sort_keys=True).encode() + b"\n")
    return digest.hexdigest()


def encode(tokenizer, messages: list[dict], max_length: int) -> tuple[list[int], list[int]]:
    """Token ids of the whole conversation and its labels: -100 on the prompt, the ids on the answer."""
    prompt = tokenizer.apply_chat_template(messages[:-1], add_generation_prompt=True, tokenize=True)
    full = tokenizer.apply_chat_template(messages, tokenize=True)
    prompt, full = _ids(prompt), _ids(full)
    if full[: len(prompt)] != prompt:
        raise UserError("the chat template does not render the prompt as a prefix of the conversation")
    # the template ends the answer with "<|im_end|>\n": the newline is not the model's to write
    while full and full[-1] not in (tokenizer.eos_token_id, tokenizer.convert_tokens_to_ids("<|im_end|>")):
        full = full[:-1]
    full = full[:max_length]
    return full, [-100] * len(prompt) + full[len(prompt) :]


def _ids(rendered) -> list[int]:
    return list(rendered["input_ids"] if isinstance(rendered, dict) or hasattr(rendered, "keys") else rendered)


def train_adapter(
    base: str | Path,
    data: Path,
    out: Path,
    recipe: AdapterRecipe,
    *,
    milestones: tuple[int, ...] = (),
    until_document: int | None = None,
    max_steps: int | None = None,
    on_step: Callable[[dict], None] | None = None,
    start_from: Path | None = None,
) -> dict:
    """Train (or go on training) a LoRA adapter over ``data`` into ``out``; returns where it stopped.
    ``start_from``: an adapter file a run of this recipe exported (a shipped one, on a machine without the
    run's checkpoint); ``out``'s own checkpoint, where it has one, comes first."""
    try:
        import torch
        from peft import LoraConfig, get_peft_model, set_peft_model_state_dict
        from peft.utils import get_peft_model_state_dict
    except ImportError as exc:
        raise UserError(f"training needs the train extra ({exc}); run: {TRAIN_INSTALL}") from exc
    from graphwright.train.grpo import load_policy

    rows = read_rows(data)
    out.mkdir(parents=True, exist_ok=True)
    _check_recipe(out, base, recipe)
    torch.set_num_threads(recipe.threads)
    torch.manual_seed(recipe.seed)
    model, tokenizer = load_policy(base)
    lora = LoraConfig(
        r=recipe.rank,
        lora_alpha=recipe.alpha,
        lora_dropout=recipe.dropout,
        task_type="CAUSAL_LM",
        target_modules="all-linear",
    )
    model = get_peft_model(model, lora)
    if recipe.checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.enable_input_require_grads()
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=recipe.learning_rate, weight_decay=0.0)
    position = Position()
    checkpoint = latest_checkpoint(out)
    if checkpoint is not None:
        position = Position(**json.loads((checkpoint / "position.json").read_text()))
        _check_rows(rows, position, f"{data} is not the file {out} was trained on")
        set_peft_model_state_dict(model, torch.load(checkpoint / "adapter.pt", weights_only=True))
        optimizer.load_state_dict(torch.load(checkpoint / "optimizer.pt", weights_only=True))
    elif start_from is not None:
        position = _position_of_file(start_from, base, recipe, rows, model, set_peft_model_state_dict)
    model.train()
    bf16 = recipe.bf16 and bf16_is_faster(torch)
    # milestone folders only: an adapter exported next to them (adapter-doc64.gguf) is not one
    kept = {int(p.name.removeprefix("adapter-doc")) for p in out.glob("adapter-doc*") if p.is_dir()}
    kept |= {m for m in milestones if m < _next_document(rows, position.row)}  # passed before: never kept late
    stop = min(until_document or 10**9, max(r.get("document", 0) for r in rows) if rows else 0)
    for batch in _batches(rows, position.row, recipe.accumulation, stop):
        if max_steps is not None and position.step >= max_steps:
            break
        started, cpu_started = time.perf_counter(), time.process_time()
        for group in optimizer.param_groups:
            warmed = (position.step + 1 - position.warm_from) / recipe.warmup_steps
            group["lr"] = recipe.learning_rate * min(1.0, warmed)
        losses, tokens = [], 0
        for row in batch:
            ids, labels = encode(tokenizer, row["messages"], recipe.max_length)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                output = model(input_ids=torch.tensor([ids]), labels=torch.tensor([labels]))
            (output.loss / len(batch)).backward()
            losses.append(output.loss.item())
            tokens += len(ids)
        torch.nn.utils.clip_grad_norm_(trainable, 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        seconds = time.perf_counter() - started
        cpu_seconds = time.process_time() - cpu_started  # a paused run (kill -STOP) spends none
        position = Position(
            step=position.step + 1,
            row=position.row + len(batch),
            tokens=position.tokens + tokens,
            seconds=round(position.seconds + seconds, 1),
            sources=rows_digest(rows[: position.row + len(batch)]),
            warm_from=position.warm_from,
        )
        save_checkpoint(out, model, optimizer, asdict(position), get_peft_model_state_dict, torch)
        document = batch[-1].get("document", 0)
        entry = {
            "step": position.step,
            "document": document,
            "of_documents": stop,
            "rows": position.row,
            "hours": round(position.seconds / 3600, 3),
            "loss": round(sum(losses) / len(losses), 4),
            "losses": [round(x, 4) for x in losses],
            "tokens": tokens,
            "seconds": round(seconds, 1),
            "cpu_seconds": round(cpu_seconds, 1),
            "tokens_per_second": round(tokens / seconds, 1),
            "lr": optimizer.param_groups[0]["lr"],
            "bf16": bf16,
            "sources": [r.get("source") for r in batch],
        }
        append_jsonl(out / "ledger.jsonl", entry)
        for milestone in milestones:
            if milestone not in kept and document >= milestone and _next_document(rows, position.row) > milestone:
                model.save_pretrained(str(out / f"adapter-doc{milestone}"), save_embedding_layers=False)
                kept.add(milestone)
        if on_step:
            on_step(entry)
    return {
        "step": position.step,
        "rows": position.row,
        "of_rows": len(rows),
        "tokens": position.tokens,
        "seconds": position.seconds,
    }


def _position_of_file(path: Path, base: str | Path, recipe: AdapterRecipe, rows: list[dict], model, load) -> Position:
    """Load an exported adapter's weights into ``model``; the position its run had reached, with the learning
    rate to warm up again (the optimiser's state is not in the file)."""
    from graphwright.train.gguf_adapter import read_gguf_adapter

    tensors, _, training = read_gguf_adapter(path)
    if training is None:
        raise UserError(f"{path} does not say where its training run stood (export it with this version)")
    differ = _differences(_comparable({"base": str(base), **asdict(recipe)}), training["recipe"])
    if differ:
        raise UserError(f"{path} was trained with another recipe or base model ({differ} differ)")
    position = Position(**training["position"])
    _check_rows(rows, position, f"{path} was not trained on this training file")
    load(model, tensors)
    return replace(position, warm_from=position.step)


def _check_rows(rows: list[dict], position: Position, what: str) -> None:
    """A run goes on only over the rows it was trained on: the file's first rows must be those."""
    if rows_digest(rows[: position.row]) != position.sources:
        raise UserError(
            f"{what}: its first {position.row} rows differ (start a new --out, or rebuild the file with the "
            "same beginning)"
        )


def _comparable(recipe: dict) -> dict:
    """A recipe without what may change from one piece of a run to the next: how many cores it gets and
    whether they compute in bfloat16 (each step's ledger line says which)."""
    return {k: v for k, v in recipe.items() if k not in ("threads", "bf16")}


def bf16_is_faster(torch) -> bool:
    """Whether this CPU multiplies a model-sized matrix faster in bfloat16 than in float32, timed (about a
    second) where oneDNN says it has the kernel (a bfloat16 product where it has not can die of SIGILL): the
    flag alone does not tell (a Xeon with avx512_bf16 took 0.16 s where float32 took 0.09)."""
    import time as clock

    if not torch.ops.mkldnn._is_mkldnn_bf16_supported():
        return False
    inputs, weight = torch.randn(512, 1536), torch.randn(4096, 1536)

    def seconds(dtype) -> float:
        x, w = inputs.to(dtype), weight.to(dtype)
        torch.nn.functional.linear(x, w)  # the first call sets up the kernel
        started = clock.perf_counter()
        for _ in range(3):
            torch.nn.functional.linear(x, w)
        return clock.perf_counter() - started

    return seconds(torch.bfloat16) < seconds(torch.float32)


def _batches(rows: list[dict], start: int, size: int, stop_document: int) -> Iterator[list[dict]]:
    """Runs of ``size`` rows from ``start``; a batch never holds rows past ``stop_document``."""
    row = start
    while row < len(rows) and rows[row].get("document", 0) <= stop_document:
        batch = [r for r in rows[row : row + size] if r.get("document", 0) <= stop_document]
        yield batch
        row += len(batch)


def _next_document(rows: list[dict], row: int) -> int:
    return rows[row].get("document", 0) if row < len(rows) else 10**9


def _check_recipe(out: Path, base: str | Path, recipe: AdapterRecipe) -> None:
    """The recipe and base model of a run are fixed at its start; a resumed run must use the same."""
    path = out / "recipe.json"
    wanted = _comparable({"base": str(base), **asdict(recipe)})
    if path.is_file():
        changed = _differences(wanted, json.loads(path.read_text()))
        if changed:
            raise UserError(
                f"{out} was started with another recipe ({changed} differ); "
                "resume with the same settings or start a new --out"
            )
    else:
        path.write_text(json.dumps(wanted, indent=2))


def _differences(wanted: dict, found: dict) -> str:
    """The settings two recipes set differently, by name ("" where none)."""
    found = _comparable(found)
    return ", ".join(sorted(k for k in wanted.keys() | found.keys() if wanted.get(k) != found.get(k)))
