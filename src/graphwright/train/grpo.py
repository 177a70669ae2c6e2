"""GRPO over Agentic-KGR's multi-turn tool trajectories (paper 004) with TRL and a LoRA adapter.

Each training prompt is a text of an RE dataset's train split. For it, ``generations`` rollouts (the paper: 8)
run the agent's conversation (``papers.agentic_kgr.rollout.run_policy``) with the policy model sampling each
action; tool observations are spliced in as environment tokens that the loss masks out. Every rollout works
on a copy of the growing graph; the best rollout of each group is kept, so graph and policy evolve together.
The reward is R = alpha R_env + (1 - alpha)(result + tool-call + trajectory), each term its own TRL reward
function so each is logged; ``dynamics.jsonl`` records every rollout's rewards, tool calls, length and steps
(the paper's Figs. 3-8).

Needs the ``train`` extra. The embedded Qwen models load from their GGUF files (dequantised to float32).
"""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import os
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from graphwright.errors import UserError
from graphwright.growth.lifecycle import check
from graphwright.growth.metrics import Topology
from graphwright.growth.observe import Observer
from graphwright.growth.policy import GrowthPolicy
from graphwright.growth.resolve import Resolver
from graphwright.growth.state import GrowthState
from graphwright.jsonl import append_jsonl
from graphwright.model import Document
from graphwright.papers.agentic_kgr.config import AgenticKGRConfig
from graphwright.papers.agentic_kgr.environment import Environment
from graphwright.papers.agentic_kgr.kg_json import KG, KGSchema
from graphwright.papers.agentic_kgr.rewards import RewardSettings, score
from graphwright.papers.agentic_kgr.rollout import policy_messages, run_policy
from graphwright.train.sft import TRAIN_INSTALL

if TYPE_CHECKING:
    from peft import PeftModel

REWARD_TERMS = ("result", "toolcall", "trajectory", "env")


@dataclass
class GRPORecipe:
    steps: int = 4
    generations: int = 8
    learning_rate: float = 1e-6
    kl: float = 0.04  # beta: the KL coefficient to the reference policy
    lora_r: int = 8
    lora_alpha: int = 16
    lora_dropout: float = 0.05
    temperature: float = 1.0
    max_new_tokens: int = 256  # per action
    max_turns: int = 10  # actions per rollout (the paper: 10)
    alpha: float = 0.3
    limit: int = 100  # training texts
    seed: int = 0


class Sampler(Protocol):
    def __call__(self, ids: list[int]) -> tuple[list[int], list[float]]:
        """Continue ``ids`` with one assistant turn: its token ids (ending with the end-of-turn token) and their
        log-probabilities under the sampling policy."""


class ModelSampler:
    """Samples turns from the trainer's current policy."""

    def __init__(self, trainer, tokenizer, recipe: GRPORecipe) -> None:
        self.trainer, self.tokenizer, self.recipe = trainer, tokenizer, recipe

    def __call__(self, ids: list[int]) -> tuple[list[int], list[float]]:
        import torch

        model = self.trainer.accelerator.unwrap_model(self.trainer.model)
        was_training = model.training
        model.eval()
        with torch.no_grad():
            out = model.generate(
                torch.tensor([ids]),
                attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                do_sample=True,
                temperature=self.recipe.temperature,
                max_new_tokens=self.recipe.max_new_tokens,
                pad_token_id=self.tokenizer.pad_token_id,
                eos_token_id=self.tokenizer.eos_token_id,
                output_scores=True,
                return_dict_in_generate=True,
            )
        if was_training:
            model.train()
        new = out.sequences[0, len(ids) :].tolist()
        logprobs = [torch.log_softmax(s[0].float(), -1)[t].item() for s, t in zip(out.scores, new)]
        return new, logprobs


@dataclass
class Rollouts:
    """TRL's ``rollout_func``: one agent rollout per prompt entry, their tokens, masks and rewards."""

    tokenizer: Any
    schema: KGSchema
    config: AgenticKGRConfig
    gold: dict[str, KG]
    recipe: GRPORecipe
    log_path: Path
    sampler: Sampler | None = None
    memory: GrowthState = field(default_factory=GrowthState)
    calls: int = 0

    def __call__(self, prompts: list[str], trainer) -> dict[str, list]:
        sampler = self.sampler or ModelSampler(trainer, self.tokenizer, self.recipe)
        out: dict[str, list] = {"prompt_ids": [], "completion_ids": [], "logprobs": [], "env_mask": [], "rewards": []}
        self.calls += 1
        # TRL hands the prompts over repeated, one entry per completion it expects: a group is one prompt's run
        for prompt, size in _groups(prompts):
            group = [self.one(prompt, sampler) for _ in range(size)]
            best = max(group, key=lambda r: r["rewards"]["total"])
            self.memory = best.pop("memory")  # the graph keeps what the best rollout stored
            for g, rollout in enumerate(group):
                rollout.pop("memory", None)
                for key in out:
                    out[key].append(rollout[key])
                append_jsonl(
                    self.log_path,
                    {
                        "step": trainer.state.global_step,
                        "call": self.calls,
                        "rollout": g,
                        "kept": rollout is best,
                        **rollout["log"],
                    },
                )
        return out

    def one(self, text: str, sampler: Sampler) -> dict[str, Any]:
        memory = copy.deepcopy(self.memory)
        policy = GrowthPolicy(embedder=None)
        env = Environment(
            Document(text=text),
            self.schema,
            self.config,
            memory,
            Observer(memory, policy, Resolver(memory, policy.resolve_threshold)),
            system="agentic-kgr.grpo",
        )
        before = Topology.of(memory)
        encoded = self.tokenizer.apply_chat_template(
            policy_messages(env, _policy_prompt()), add_generation_prompt=True, tokenize=True, return_dict=True
        )
        prompt_ids = list(encoded["input_ids"])
        completion: list[int] = []
        logprobs: list[float] = []
        mask: list[int] = []  # 1: a token the policy sampled, 0: an environment token
        end = self.tokenizer.eos_token_id

        async def turn(messages: list[dict[str, str]]) -> str:
            if len(messages) > 2:  # the observation of the previous action, as environment tokens
                observation = messages[-1]["content"]
                spliced = self.tokenizer(
                    f"\n<|im_start|>user\n{observation}<|im_end|>\n<|im_start|>assistant\n", add_special_tokens=False
                )["input_ids"]
                completion.extend(spliced)
                logprobs.extend([0.0] * len(spliced))
                mask.extend([0] * len(spliced))
            new, lps = sampler(prompt_ids + completion)
            completion.extend(new)
            logprobs.extend(lps)
            mask.extend([1] * len(new))
            if not new or new[-1] != end:  # cut off: the turn still ends, as an environment token
                completion.append(end)
                logprobs.append(0.0)
                mask.append(0)
            return self.tokenizer.decode(new, skip_special_tokens=True)

        trajectory = asyncio.run(run_policy(env, policy_messages(env, _policy_prompt()), turn))
        after = Topology.of(memory)
        rewards = score(
            trajectory,
            self.gold[text],
            before,
            after,
            check(memory, policy),
            len(memory.promoted()),
            RewardSettings(alpha=self.recipe.alpha),
        )
        tools = Counter(s.action for s in trajectory.tool_calls() if s.by_model)
        log = {
            "rewards": rewards.to_json(),
            "tool_calls": dict(tools),
            "failed_calls": sum(not s.success for s in trajectory.steps if s.by_model),
            "steps": len(trajectory.steps),
            "model_tokens": sum(mask),
            "stopped": trajectory.stopped,
        }
        return {
            "prompt_ids": prompt_ids,
            "completion_ids": completion,
            "logprobs": logprobs,
            "env_mask": mask,
            "rewards": rewards.to_json(),
            "log": log,
            "memory": memory,
        }


def _groups(prompts: list[str]) -> list[tuple[str, int]]:
    """Consecutive equal prompts as (prompt, how many)."""
    out: list[tuple[str, int]] = []
    for prompt in prompts:
        if out and out[-1][0] == prompt:
            out[-1] = (prompt, out[-1][1] + 1)
        else:
            out.append((prompt, 1))
    return out


@functools.cache
def _policy_prompt():
    from graphwright.agents.prompts import load_prompt

    return load_prompt("graphwright.papers.agentic_kgr", "policy")


def _term(name: str):
    def reward(prompts, completions, rewards, **_):
        if name == "result":
            return [r["result"]["total"] for r in rewards]
        if name == "env":
            return [r["env"]["total"] for r in rewards]
        return [r[name] for r in rewards]

    reward.__name__ = f"{name}_reward"
    return reward


def load_policy(base: str | Path):
    """(model, tokenizer) from a transformers folder, a GGUF file, or an embedded model's name."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = Path(base)
    if not path.exists():
        from graphwright.llm.assemble import ensure_model, get_model_spec

        path = ensure_model(get_model_spec(str(base)), progress=True)
    if path.is_file():  # a GGUF file: transformers dequantises it
        kw = {"gguf_file": path.name}
        tokenizer = AutoTokenizer.from_pretrained(str(path.parent), **kw)
        model = AutoModelForCausalLM.from_pretrained(str(path.parent), dtype="float32", **kw)
        # transformers marks a model read from GGUF as quantized, and the Trainer refuses to train one; its
        # tensors are dequantised float32 ones, so the quantizer's own call takes the mark off
        quantizer = getattr(model, "hf_quantizer", None)
        if quantizer is not None:
            quantizer.remove_quantization_config(model)
    else:
        tokenizer = AutoTokenizer.from_pretrained(str(path))
        model = AutoModelForCausalLM.from_pretrained(str(path), dtype="float32")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return model, tokenizer


def train_grpo(
    base: str | Path,
    dataset: str,
    out_dir: Path,
    recipe: GRPORecipe,
    *,
    schema_file: str | None = None,
    sampler: Sampler | None = None,
) -> dict:
    """Train a LoRA adapter with GRPO on ``dataset``'s train texts; writes the adapter, ``dynamics.jsonl`` and
    ``training.json`` (per-step rewards, seconds, lengths) to ``out_dir``."""
    try:
        import torch
        from datasets import Dataset
        from peft import LoraConfig
        from trl import GRPOConfig, GRPOTrainer
    except ImportError as exc:
        raise UserError(f"training needs the train extra ({exc}); run: {TRAIN_INSTALL}") from exc
    from graphwright.papers.agentic_kgr.system import load_kg_schema
    from graphwright.systems.datasets import datasets

    config = AgenticKGRConfig(
        dataset=None if schema_file else dataset,
        schema_file=schema_file,
        mode="agent",
        max_steps=recipe.max_turns,
        max_tokens=recipe.max_new_tokens,
    )
    schema = load_kg_schema(config)
    samples = [s for s in datasets().relations(dataset).pool if s.triples][: recipe.limit]
    if not samples:
        raise UserError(f"{dataset} has no training samples with triples")
    gold = {s.text: KG.from_triples(s.triples, schema) for s in samples}
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")  # rollout_func is experimental in TRL; we pin its use here
    model, tokenizer = load_policy(base)
    out_dir.mkdir(parents=True, exist_ok=True)
    log_path = out_dir / "dynamics.jsonl"
    log_path.unlink(missing_ok=True)
    rollouts = Rollouts(tokenizer, schema, config, gold, recipe, log_path, sampler)
    gpu = torch.cuda.is_available()
    args = GRPOConfig(
        output_dir=str(out_dir / "trainer"),
        max_steps=recipe.steps,
        learning_rate=recipe.learning_rate,
        beta=recipe.kl,
        num_generations=recipe.generations,
        per_device_train_batch_size=recipe.generations,
        gradient_accumulation_steps=1,
        logging_steps=1,
        save_strategy="no",
        report_to=[],
        seed=recipe.seed,
        use_cpu=not gpu,
        bf16=gpu and torch.cuda.is_bf16_supported(),
        fp16=False,
        dataloader_num_workers=0,
        temperature=recipe.temperature,
        reward_weights=[1 - recipe.alpha] * 3 + [recipe.alpha],
    )
    lora = LoraConfig(
        r=recipe.lora_r,
        lora_alpha=recipe.lora_alpha,
        lora_dropout=recipe.lora_dropout,
        task_type="CAUSAL_LM",
        target_modules="all-linear",
    )
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=[_term(t) for t in REWARD_TERMS],
        args=args,
        train_dataset=Dataset.from_list([{"prompt": s.text} for s in samples]),
        processing_class=tokenizer,
        peft_config=lora,
        rollout_func=rollouts,
    )
    # cast: with peft_config the trainer wraps the model in LoRA, so it holds a PeftModel (typed as Module | None)
    trained = cast("PeftModel", trainer.model)
    before = {n: p.detach().clone() for n, p in trained.named_parameters() if p.requires_grad}
    started = time.perf_counter()
    trainer.train()
    seconds = time.perf_counter() - started
    changed = sum(not torch.equal(before[n], p.detach()) for n, p in trained.named_parameters() if n in before)
    trained.save_pretrained(str(out_dir))
    tokenizer.save_pretrained(str(out_dir))
    steps = [log for log in trainer.state.log_history if "reward" in log]
    summary = {
        "base_model": str(base),
        "dataset": dataset,
        "recipe": asdict(recipe),
        "seconds": round(seconds, 1),
        "seconds_per_step": round(seconds / max(1, len(steps)), 1),
        "trainable_tensors_changed": changed,
        "trainable_tensors": len(before),
        "steps": steps,
    }
    (out_dir / "training.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return summary
