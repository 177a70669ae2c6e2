"""`make bench-grpo`: a few real GRPO steps of agentic-kgr's policy with the embedded 0.5B model on this
machine (CPU), so a user with a GPU knows what to expect: seconds per step, each reward term, lengths, tool
calls and steps per rollout (paper 004, Figs. 3-8). The table goes into docs/BENCHMARKS.md.

    python -m graphwright.bench.grpo --steps 2 --generations 4 --max-turns 3 --max-new-tokens 96
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.harness import BENCH_MD, header
from graphwright.bench.ledger import RUNS
from graphwright.train.grpo import GRPORecipe, train_grpo

TERMS = ("result", "toolcall", "trajectory", "env")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--dataset", default="conll04")
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--generations", type=int, default=8)
    parser.add_argument("--max-turns", type=int, default=6)
    parser.add_argument("--max-new-tokens", type=int, default=160)
    parser.add_argument("--learning-rate", type=float, default=1e-6)
    args = parser.parse_args()
    out = RUNS / "grpo" / args.model
    recipe = GRPORecipe(
        steps=args.steps,
        generations=args.generations,
        max_turns=args.max_turns,
        max_new_tokens=args.max_new_tokens,
        learning_rate=args.learning_rate,
        limit=args.steps,
    )
    summary = train_grpo(args.model, args.dataset, out, recipe)
    rows = [json.loads(line) for line in (out / "dynamics.jsonl").read_text(encoding="utf-8").splitlines()]
    command = (
        f"python -m graphwright.bench.grpo --steps {args.steps} --generations {args.generations} --max-turns "
        f"{args.max_turns} --max-new-tokens {args.max_new_tokens}"
    )
    lines = header(
        f"GRPO steps of agentic-kgr's policy on {args.dataset} train texts (CPU, LoRA r=8)",
        f"embedded:{args.model} (GGUF dequantised to float32)",
        command,
    )
    lines += [
        f"- {args.generations} rollouts per text, at most {args.max_turns} actions of at most "
        f"{args.max_new_tokens} tokens, temperature 1.0, learning rate {args.learning_rate}, KL coefficient "
        f"{recipe.kl}, alpha {recipe.alpha}; {summary['seconds_per_step']} s per step "
        f"({summary['seconds']} s in all); trainable tensors changed: {summary['trainable_tensors_changed']} of "
        f"{summary['trainable_tensors']}",
        "",
        "| step | reward (mean) | reward std | "
        + " | ".join(f"{t} reward" for t in TERMS)
        + " | model tokens per rollout | actions per rollout | failed actions | rollouts that finished |",
        "|---|" + "---|" * (6 + len(TERMS)),
    ]
    for step in summary["steps"]:
        number = step["step"]
        batch = [r for r in rows if r["call"] == number]
        n = max(1, len(batch))
        lines.append(
            f"| {number} | {step['reward']:.3f} | {step['reward_std']:.3f} | "
            + " | ".join(f"{step[f'rewards/{t}_reward/mean']:.3f}" for t in TERMS)
            + f" | {sum(r['model_tokens'] for r in batch) / n:.0f} | {sum(r['steps'] for r in batch) / n:.1f} | "
            f"{sum(r['failed_calls'] for r in batch) / n:.1f} | {sum(r['stopped'] == 'finished' for r in batch)} of "
            f"{len(batch)} |"
        )
    calls = Counter(tool for r in rows for tool, count in r["tool_calls"].items() for _ in range(count))
    stops = Counter(r["stopped"] for r in rows)
    lines += [
        "",
        "Tool calls the policy made, over all rollouts: "
        + (", ".join(f"{t.removeprefix('query_')} {c}" for t, c in calls.most_common()) or "none")
        + ". Why rollouts stopped: "
        + ", ".join(f"{w} {c}" for w, c in stops.most_common())
        + ".",
    ]
    write_section(BENCH_MD, "grpo", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
