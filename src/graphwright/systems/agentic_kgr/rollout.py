"""The three ways one text is taken through the environment.

* ``single``: one extraction call (the baseline).
* ``guided``: the model only extracts; the system calls the tools the workflow requires, feeds the density
  tool's (and the chosen optional tools') findings back for a re-extraction while density is inadequate and
  further rounds still help, then disambiguates and stores. The cheapest faithful path on small models.
* ``agent``: the model chooses every action as JSON (the paper's policy, what GRPO trains); a rollout that
  ends without storing gets the required steps done by the system, marked as not the model's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphwright.agents.call import call_agent
from graphwright.agents.prompts import PromptTemplate
from graphwright.errors import ModelOutputError
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM
from graphwright.systems.agentic_kgr.compress import compress_observation, render_history
from graphwright.systems.agentic_kgr.config import AgenticKGRConfig
from graphwright.systems.agentic_kgr.environment import Environment
from graphwright.systems.agentic_kgr.kg_json import KG, check_format
from graphwright.systems.agentic_kgr.trajectory import (COVERAGE, DENSITY, DISAMBIGUATION, EXTRACT, FEEDBACK, FINISH,
                                                        QUALITY, STORAGE, TOOLS, Trajectory)

LOOP_TOOLS = {"quality": QUALITY, "feedback": FEEDBACK, "coverage": COVERAGE}
ACTIONS = (EXTRACT, *TOOLS, FINISH)


class AgentAction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    thought: str = Field(default="", description="why this action")
    action: Literal[ACTIONS]  # type: ignore[valid-type]
    arguments: dict[str, Any] = Field(default_factory=dict)
    kg: KG | None = None


@dataclass
class Asker:
    llm: LLM
    config: AgenticKGRConfig

    async def ask(self, prompt: PromptTemplate, output_type, json_schema: dict, **values: Any):
        system, user = prompt.render(**values)
        with for_agent(prompt.name):
            reply = await call_agent(self.llm, system, user, output_type, max_retries=self.config.parse_retries,
                                     max_tokens=self.config.max_tokens, schema=json_schema,
                                     salvage_cut_off=True)
        return reply.output, reply.raw


def _values(env: Environment) -> dict[str, str]:
    return {"schema": env.schema.render(), "guidelines": env.schema.guidelines(), "text": env.text}


async def _extract(env: Environment, asker: Asker, prompt: PromptTemplate, **extra: str) -> KG | None:
    try:
        kg, raw = await asker.ask(prompt, KG, env.schema.json_schema(), **_values(env), **extra)
    except ModelOutputError as exc:
        env.extract(None, raw=None, error=str(exc))
        return None
    env.extract(kg, raw=raw)
    return kg


async def single(env: Environment, asker: Asker, prompts: dict[str, PromptTemplate]) -> Trajectory:
    env.trajectory.kg = await _extract(env, asker, prompts["extract"])
    env.trajectory.stopped = "one call"
    return env.trajectory


async def guided(env: Environment, asker: Asker, prompts: dict[str, PromptTemplate]) -> Trajectory:
    kg = await _extract(env, asker, prompts["extract"])
    if kg is None:
        env.trajectory.stopped = "no usable extraction"
        return env.trajectory
    loop = [LOOP_TOOLS[t] for t in env.config.loop_tools]
    cycle = 2 + len(loop)  # extract, density and the optional tools
    while True:
        density = env.call(DENSITY, by_model=False)
        if not density.observation["needs_more_extraction"]:
            env.trajectory.stopped = "density adequate"
            break
        if env.steps_left() < cycle + 2:  # and still disambiguate and store
            env.trajectory.stopped = "step limit"
            break
        feedback = [f"{DENSITY}: {compress_observation(DENSITY, density.observation, env.config.observation_tokens)}"]
        for tool in loop:
            step = env.call(tool, by_model=False)
            feedback.append(f"{tool}: {compress_observation(tool, step.observation, env.config.observation_tokens)}")
        said = env.last(FEEDBACK)
        if said is not None and not said.observation["should_continue_iteration"]:
            env.trajectory.stopped = "no further gain"
            break
        new = await _extract(env, asker, prompts["refine"], previous=env.kg.render(), feedback="\n".join(feedback))
        if new is None or new == kg:
            env.trajectory.stopped = "extraction unchanged" if new is not None else "no usable re-extraction"
            if new is None:  # the failed answer leaves the last extraction in place, checked again
                env.kg = kg
            env.call(DENSITY, by_model=False)
            break
        kg = new
    _store(env, by_model=False)
    return env.trajectory


def _store(env: Environment, *, by_model: bool) -> None:
    """Disambiguate and store the latest extraction (the density tool's verdict stands: the budget is spent)."""
    if env.last(DENSITY) is None:
        env.call(DENSITY, by_model=by_model)
    if not env.adequate:  # the workflow allows disambiguation only after adequate density; at the end it must
        env.trajectory.stopped = env.trajectory.stopped or "stored below adequate density"
        density = env.last(DENSITY)
        density.observation = {**density.observation, "needs_more_extraction": False}
    env.call(DISAMBIGUATION, by_model=by_model)
    env.call(STORAGE, by_model=by_model)
    env.finish(by_model=by_model)


async def agent(env: Environment, asker: Asker, prompts: dict[str, PromptTemplate]) -> Trajectory:
    prompt = prompts["policy"]
    constrained = action_schema(env)
    while env.steps_left() > 0:
        history = render_history(env.trajectory.steps, env.config.history_tokens, env.config.observation_tokens)
        try:
            action, raw = await asker.ask(prompt, AgentAction, constrained, **_values(env), history=history,
                                          max_steps=str(env.config.max_steps))
        except ModelOutputError as exc:
            env.extract(None, raw=None, error=f"no usable action: {exc}")
            continue
        if action.action == EXTRACT:
            if action.kg is None:
                env.extract(None, raw=raw, error="extract needs the extraction in 'kg'")
            else:
                env.extract(action.kg, raw=check_format(action.kg.render()) and action.kg.render())
        elif action.action == FINISH:
            if env.finish(raw=raw).success:
                env.trajectory.stopped = "finished"
                return env.trajectory
        else:
            env.call(action.action, action.arguments, raw=raw)
    env.trajectory.stopped = "step limit"
    if env.kg is not None and not env.stored:
        _store(env, by_model=False)
    return env.trajectory


def action_schema(env: Environment) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": ["thought", "action"],
            "properties": {"thought": {"type": "string", "maxLength": 300},
                           "action": {"type": "string", "enum": list(ACTIONS)},
                           "arguments": {"type": "object"},
                           "kg": env.schema.json_schema()}}


ROLLOUTS = {"single": single, "guided": guided, "agent": agent}
