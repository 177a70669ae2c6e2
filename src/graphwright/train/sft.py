"""LoRA supervised fine-tuning on chat-format JSONL with TRL and PEFT (paper 001, section 3.5).

The recipe is the paper's: LoRA r=8, alpha=16, dropout 0.1; AdamW at 5e-5; batch 32; 3 epochs per
dataset; several datasets are trained one after the other (D, then D'). Needs the ``train`` extra
(torch, transformers, trl, peft, datasets); a real run wants a GPU, a few steps run on a CPU.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from graphwright.errors import UserError

if TYPE_CHECKING:
    from peft import PeftModel
    from transformers import PreTrainedModel

TRAIN_INSTALL = "pip install 'graphwright[train]'"


@dataclass
class SFTRecipe:
    epochs: float = 3.0
    learning_rate: float = 5e-5
    batch_size: int = 32
    gradient_accumulation: int = 1
    lora_r: int = 8
    lora_alpha: int = 16
    lora_dropout: float = 0.1
    max_steps: int = -1  # > 0: stop after this many steps per dataset (smoke runs)
    max_length: int = 1024
    seed: int = 0


def train_lora(base_model: str | Path, datasets: list[Path], out_dir: Path, recipe: SFTRecipe) -> dict:
    """Train one LoRA adapter over ``datasets`` in order; writes the adapter and ``training.json`` to
    ``out_dir`` and returns the per-stage losses."""
    try:
        import torch
        from datasets import load_dataset
        from peft import LoraConfig
        from transformers import AutoModelForCausalLM, AutoTokenizer
        from trl import SFTConfig, SFTTrainer
    except ImportError as exc:
        raise UserError(f"training needs the train extra ({exc}); run: {TRAIN_INSTALL}") from exc
    for path in datasets:
        if not Path(path).is_file():
            raise UserError(f"SFT data {path} not found (write it with `graphwright train sft-export`)")
    tokenizer = AutoTokenizer.from_pretrained(str(base_model))
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model: PreTrainedModel | PeftModel = AutoModelForCausalLM.from_pretrained(str(base_model))
    lora = LoraConfig(
        r=recipe.lora_r,
        lora_alpha=recipe.lora_alpha,
        lora_dropout=recipe.lora_dropout,
        task_type="CAUSAL_LM",
        target_modules="all-linear",
    )
    gpu = torch.cuda.is_available()
    # bf16 only where the GPU has it: TRL turns it on by default, and on CPUs that advertise AMX
    # without the kernel enabling it (this VM) a bf16 matmul dies with SIGILL
    bf16 = gpu and torch.cuda.is_bf16_supported()
    stages = []
    for stage, path in enumerate(datasets):
        data = load_dataset("json", data_files=str(path), split="train").select_columns(["messages"])
        config = SFTConfig(
            output_dir=str(out_dir / f"stage-{stage}"),
            num_train_epochs=recipe.epochs,
            max_steps=recipe.max_steps,
            learning_rate=recipe.learning_rate,
            per_device_train_batch_size=recipe.batch_size,
            gradient_accumulation_steps=recipe.gradient_accumulation,
            optim="adamw_torch",
            seed=recipe.seed,
            max_length=recipe.max_length,
            logging_steps=1,
            save_strategy="no",
            report_to=[],
            use_cpu=not gpu,
            bf16=bf16,
            fp16=False,
            dataloader_num_workers=0,
        )
        trainer = SFTTrainer(
            model=model,
            args=config,
            train_dataset=data,
            processing_class=tokenizer,
            peft_config=lora if stage == 0 else None,
        )
        result = trainer.train()
        # the next dataset continues the same adapter; cast: the trainer wrapped the model in LoRA at the
        # first stage, so it holds a PeftModel (typed as Module | None)
        model = cast("PeftModel", trainer.model)
        losses = [log["loss"] for log in trainer.state.log_history if "loss" in log]
        stages.append(
            {
                "data": str(path),
                "examples": len(data),
                "steps": result.global_step,
                "first_loss": losses[0] if losses else None,
                "last_loss": losses[-1] if losses else None,
            }
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out_dir))
    tokenizer.save_pretrained(str(out_dir))
    summary = {"base_model": str(base_model), "recipe": asdict(recipe), "stages": stages}
    (out_dir / "training.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return summary
