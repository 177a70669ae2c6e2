"""Distillation data from agentre runs (paper 001, section 3.5): for each scored sentence, the LLM
condenses the agent's trajectory, the sentence and the correct triples into a short rationale, and the
sentence becomes a chat-format SFT example whose answer is the rationale followed by the triples.

Without a model (``rationale=False``) the examples are plain sentence -> triples pairs: the paper's
D, trained before the rationale set D'.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from graphwright.agents.call import call_agent
from graphwright.agents.prompts import load_prompt
from graphwright.errors import UserError
from graphwright.jsonl import append_jsonl, read_jsonl
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM

PROMPTS_PACKAGE = "graphwright.train"
OBSERVATION_CHARS = 600  # a trajectory step's observation shown to the summariser


class Rationale(BaseModel):
    rationale: str = Field(description="one to three sentences of reasoning")


@dataclass
class ScoredSentence:
    id: str
    text: str
    gold: list[list[str]]
    steps: list[dict[str, str]]


def read_run(run_dir: Path) -> tuple[dict[str, Any], list[ScoredSentence]]:
    """The run's settings and its scored sentences with their gold triples and agent trajectories."""
    run_file, docs_file, traces_file = (run_dir / n for n in ("run.json", "documents.jsonl", "traces.jsonl"))
    for path in (run_file, docs_file, traces_file):
        if not path.is_file():
            raise UserError(f"{run_dir} is not an eval run folder: {path.name} is missing")
    run = json.loads(run_file.read_text(encoding="utf-8"))
    traces = {row["trace_id"]: row for row in read_jsonl(traces_file)}
    sentences = []
    for row in read_jsonl(docs_file):
        trace = traces.get(row["trace_id"], {})
        segments = (trace.get("extra") or {}).get("trajectories") or []
        if len(segments) != 1:
            continue  # a failed run, or a text of several sentences: no one trajectory to learn from
        gold = [[_name(t["subject"]), _name(t["predicate"]), _name(t["object"])] for t in row["gold"]]
        sentences.append(ScoredSentence(row["id"], segments[0]["text"], gold, segments[0]["steps"]))
    return run, sentences


def _name(term: dict[str, Any]) -> str:
    """How the gold writes a term: its words in the text, else its other names, id or value (a user's gold
    file may give a relation only by its schema name, an entity only by its names)."""
    return next(
        str(term[k]) if k != "names" else term[k][0] for k in ("surface", "names", "iri", "literal") if term.get(k)
    )


def render_steps(steps: list[dict[str, str]]) -> str:
    lines = []
    for s in steps:
        if s.get("thought"):
            lines.append(f"Thought: {s['thought']}")
        if s["action"] != "Finish":
            observation = s["observation"][:OBSERVATION_CHARS]
            lines.append(
                f"Action: {s['action']}({json.dumps(s.get('input', ''), ensure_ascii=False)})\n"
                f"Observation: {observation}"
            )
    return "\n".join(lines) or "(no steps)"


async def export_sft(
    run_dir: Path, out_path: Path, relations: str, llm: LLM | None, *, on_progress: Callable[[str], None] | None = None
) -> dict[str, int]:
    """Append one chat example per scored sentence to ``out_path`` (JSONL); ids already there are
    skipped, so an interrupted export resumes. ``llm=None`` writes plain examples without rationale."""
    _, sentences = read_run(run_dir)
    done = {row["id"] for row in read_jsonl(out_path)}
    student, summariser = load_prompt(PROMPTS_PACKAGE, "student"), load_prompt(PROMPTS_PACKAGE, "rationale")
    counts = {"written": 0, "skipped": 0}
    out_path.parent.mkdir(parents=True, exist_ok=True)
    for sentence in sentences:
        if sentence.id in done:
            counts["skipped"] += 1
        else:
            answer = f"Triples: {json.dumps(sentence.gold, ensure_ascii=False)}"
            if llm is not None:
                system, user = summariser.render(
                    relations=relations,
                    sentence=sentence.text,
                    steps=render_steps(sentence.steps),
                    triples=json.dumps(sentence.gold, ensure_ascii=False),
                )
                with for_agent("rationale"):
                    reply = await call_agent(llm, system, user, Rationale, max_tokens=256)
                answer = f"Rationale: {reply.output.rationale.strip()}\n{answer}"
            system, user = student.render(relations=relations, sentence=sentence.text)
            row = {
                "id": sentence.id,
                "messages": [
                    {"role": "system", "content": system},
                    {"role": "user", "content": user},
                    {"role": "assistant", "content": answer},
                ],
            }
            append_jsonl(out_path, row)
            counts["written"] += 1
        if on_progress:
            on_progress(sentence.id)
    return counts


def export_agentic_kgr(run_dir: Path, out_path: Path, *, full_match_only: bool = True) -> dict[str, int]:
    """Append the policy conversations of an ``agentic-kgr.agent`` eval run as chat examples (SFT on distilled
    trajectories, paper 004): those that finished the workflow, and with ``full_match_only`` only those whose
    triples matched the gold exactly. Ids already in ``out_path`` are skipped."""
    docs_file, traces_file = run_dir / "documents.jsonl", run_dir / "traces.jsonl"
    for path in (docs_file, traces_file):
        if not path.is_file():
            raise UserError(f"{run_dir} is not an eval run folder: {path.name} is missing")
    traces = {row["trace_id"]: row for row in read_jsonl(traces_file)}
    done = {row["id"] for row in read_jsonl(out_path)}
    counts = {"written": 0, "skipped": 0, "left_out": 0}
    out_path.parent.mkdir(parents=True, exist_ok=True)
    for row in read_jsonl(docs_file):
        trajectory = (traces.get(row["trace_id"], {}).get("extra") or {}).get("trajectory") or {}
        c = (row.get("counts") or {}).get("triples", {})
        exact = c.get("matched_pred") == c.get("predicted") and c.get("matched_gold") == c.get("gold")
        if trajectory.get("stopped") != "finished" or not trajectory.get("messages") or (full_match_only and not exact):
            counts["left_out"] += 1
        elif row["id"] in done:
            counts["skipped"] += 1
        else:  # the conversation ends with the policy's finish; the observation after it is not an example
            messages = trajectory["messages"]
            append_jsonl(
                out_path, {"id": row["id"], "messages": messages[:-1] if messages[-1]["role"] == "user" else messages}
            )
            counts["written"] += 1
    return counts
