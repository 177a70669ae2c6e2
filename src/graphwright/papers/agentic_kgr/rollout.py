"""The three ways one text is taken through the environment.

* ``single``: one extraction call (the baseline).
* ``guided``: the model only extracts; the system calls the tools the workflow requires, feeds the density
  tool's (and the chosen optional tools') findings back for a re-extraction while density is inadequate and
  further rounds still help, then disambiguates and stores. The cheapest faithful path on small models.
* ``agent``: the model chooses every action as JSON (the paper's policy, what GRPO trains); a rollout that
  ends without storing gets the required steps done by the system, marked as not the model's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphwright.agents.call import ask_text, call_agent
from graphwright.agents.prompts import PromptTemplate
from graphwright.agents.tool_loop import run_tool_loop
from graphwright.errors import ModelOutputError
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM
from graphwright.papers.agentic_kgr.compress import compress_observation
from graphwright.papers.agentic_kgr.config import AgenticKGRConfig
from graphwright.papers.agentic_kgr.environment import Environment
from graphwright.papers.agentic_kgr.kg_json import KG
from graphwright.papers.agentic_kgr.trajectory import (
    COVERAGE,
    DENSITY,
    DISAMBIGUATION,
    EXTRACT,
    FEEDBACK,
    FINISH,
    QUALITY,
    STORAGE,
    TOOLS,
    Step,
    Trajectory,
)

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
            reply = await call_agent(
                self.llm,
                system,
                user,
                output_type,
                max_retries=self.config.parse_retries,
                max_tokens=self.config.max_tokens,
                schema=json_schema,
                salvage_cut_off=True,
            )
        return reply.output, reply.raw


def _values(env: Environment) -> dict[str, str]:
    return {
        "schema": env.schema.render(),
        "guidelines": env.schema.guidelines(),
        "text": env.text,
        "examples": env.examples,
    }


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
        assert env.kg is not None  # the first extraction succeeded, and a failed one leaves the last in place
        new = await _extract(env, asker, prompts["refine"], previous=env.kg.render(), feedback="\n".join(feedback))
        if new is None or new == kg:  # a failed answer leaves the last extraction in place
            env.trajectory.stopped = "extraction unchanged" if new is not None else "no usable re-extraction"
            break
        kg = new
    _store(env)
    return env.trajectory


def _store(env: Environment) -> None:
    """Disambiguate and store the latest extraction, even one the density tool found thin: the budget is spent."""
    if env.last(DENSITY) is None:
        env.call(DENSITY, by_model=False)
    env.call(DISAMBIGUATION, by_model=False)
    env.call(STORAGE, by_model=False)
    env.finish(by_model=False)


def apply_action(env: Environment, text: str) -> Step:
    """Parse one policy turn and carry it out; an answer that is no action is a failed step the policy sees."""
    try:
        action = AgentAction.model_validate_json(text)
    except ValueError as exc:
        first = str(exc).splitlines()[:3]
        return env.extract(None, raw=text, error=f"not a valid action: {' '.join(first)}")
    if action.action == EXTRACT:
        if action.kg is None:
            return env.extract(None, raw=text, error="extract needs the extraction in 'kg'")
        return env.extract(action.kg, raw=action.kg.render())
    if action.action == FINISH:
        return env.finish(raw=text)
    return env.call(action.action, action.arguments, raw=text)


def observation_message(step: Step, budget_tokens: int | None) -> str:
    """What the policy is told after a step."""
    if not step.success:
        return f"ERROR: {step.error}"
    if step.action == EXTRACT:
        return "Extraction recorded. Call query_extraction_density next."
    if step.action == FINISH:
        return "Finished."
    return "Observation: " + compress_observation(step.action, step.observation, budget_tokens)


def policy_messages(env: Environment, prompt: PromptTemplate) -> list[dict[str, str]]:
    system, user = prompt.render(**_values(env), max_steps=str(env.config.max_steps))
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


async def agent(env: Environment, asker: Asker, prompts: dict[str, PromptTemplate]) -> Trajectory:
    """The policy's turns as one chat: action, observation, action... (a backend reuses the shared prefix)."""
    messages = policy_messages(env, prompts["policy"])
    constrained = action_schema(env)

    async def turn(history: list[dict[str, str]]) -> str:
        with for_agent("policy"):
            response = await ask_text(asker.llm, history, json_schema=constrained, max_tokens=asker.config.max_tokens)
        return response.text

    return await run_policy(env, messages, turn)


class PolicyAgent:
    """The policy's turns as one chat over the environment: its action, then what the step observed."""

    def __init__(self, env: Environment, messages: list[dict[str, str]], turn: Callable[[list], Awaitable[str]]):
        self.env, self.messages, self.turn = env, messages, turn

    def steps_left(self) -> int:
        return self.env.steps_left()

    async def decide(self) -> str:
        return await self.turn(self.messages)

    def unusable(self, error: ModelOutputError) -> None:
        raise error  # the policy's text is parsed in carry_out: an answer that is no action is a failed step

    def carry_out(self, text: str) -> bool:
        step = apply_action(self.env, text)
        self.messages += [
            {"role": "assistant", "content": text},
            {"role": "user", "content": observation_message(step, self.env.config.observation_tokens)},
        ]
        return step.action == FINISH and step.success


async def run_policy(env: Environment, messages: list[dict[str, str]], turn) -> Trajectory:
    """Drive ``turn`` (messages -> the next assistant text) until it finishes or the steps run out; shared by
    the agent at inference and by GRPO's rollouts, so both see the same conversation."""
    env.trajectory.messages = messages
    if await run_tool_loop(PolicyAgent(env, messages, turn)):
        env.trajectory.stopped = "finished"
        return env.trajectory
    env.trajectory.stopped = "step limit"
    if env.kg is not None and not env.stored:
        _store(env)
    return env.trajectory


def action_schema(env: Environment) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["thought", "action"],
        "properties": {
            "thought": {"type": "string", "maxLength": 300},
            "action": {"type": "string", "enum": list(ACTIONS)},
            "arguments": {"type": "object"},
            "kg": env.schema.json_schema(),
        },
    }


ROLLOUTS = {"single": single, "guided": guided, "agent": agent}
