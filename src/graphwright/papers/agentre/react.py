"""AgentRE's extraction module: a ReAct loop (thought, action, observation) over the retrieval and
memory tools until the agent finishes (paper 001, section 3.4). It starts from the prefetched
observations, as the authors' code pre-fills the first steps, so a sure agent can finish at once:
that is the paper's "direct" path inside the loop. It runs on the shared tool loop (agents.tool_loop)."""

from __future__ import annotations

import json
from typing import cast

from graphwright.agents.prompts import PromptTemplate
from graphwright.agents.tool_loop import run_tool_loop
from graphwright.errors import ModelOutputError
from graphwright.papers.agentre.outputs import ReactStepAnswer, react_step_model
from graphwright.papers.agentre.steps import Caller, SentenceRun, ground, triples_json
from graphwright.papers.agentre.tools import Retrieval

FINISH = "Finish"
LAST_CALL = "You have used every action: Finish now with the triples you found."
REPEATED = (
    "You repeated a search you already made, so there is nothing new to find: Finish now with the triples you found."
)


class ReactAgent:
    """One sentence's ReAct agent: its history of observations and the actions it may take next."""

    def __init__(
        self, sentence: str, retrieval: Retrieval, caller: Caller, prompt: PromptTemplate, max_iterations: int
    ):
        self.sentence, self.retrieval, self.caller, self.prompt = sentence, retrieval, caller, prompt
        self.max_iterations = max_iterations
        self.run = SentenceRun()
        self.history: list[str] = []
        self.done: set[tuple[str, str]] = set()
        self.iteration = 0  # turns asked so far, usable or not
        self.last = False  # this turn may only Finish
        self.just_used, self.repeated = "", False
        for o in retrieval.prefetch(sentence):
            self.observe(o.action, o.input, o.text)

    def observe(self, action: str, query: str, text: str, thought: str = "") -> None:
        self.run.tool(action, query, text)
        self.run.trajectory.append({"thought": thought, "action": action, "input": query, "observation": text})
        head = f"Thought: {thought}\n" if thought else ""
        self.history.append(f"{head}Action: {action}({json.dumps(query, ensure_ascii=False)})\nObservation: {text}")
        self.done.add((action, query.strip()))

    def steps_left(self) -> int:
        return self.max_iterations + 1 - self.iteration  # the last turn only finishes

    async def decide(self) -> ReactStepAnswer:
        # a repeated search means the agent has nothing left to look up: it alternated two tools on the
        # same input until the step limit when only the last action was closed (seen with the 1.5B model)
        self.last = self.iteration == self.max_iterations or self.repeated
        self.iteration += 1
        # the action that just answered is closed for one step: at temperature 0 a small model otherwise
        # repeats the same call until the step limit (seen with the 1.5B model)
        actions = [FINISH] if self.last else [a for a in self.retrieval.actions if a != self.just_used] + [FINISH]
        shown = self.history + [REPEATED if self.repeated else LAST_CALL] if self.last else self.history
        # the step's model is built per call (enums of the open actions): the protocol names its fields
        return cast(
            ReactStepAnswer,
            await self.caller.ask(
                self.run,
                "agent",
                self.prompt,
                react_step_model(actions, self.retrieval.schema.names),
                sentence=self.sentence,
                history="\n\n".join(shown),
                relations=self.retrieval.relation_lines(False),
                actions=self.retrieval.describe_actions(),
                max_iterations=self.max_iterations,
            ),
        )

    def unusable(self, error: ModelOutputError) -> None:
        if self.last:  # the agent was told to finish and could not: nothing is left to try
            raise error
        self.observe("Error", "", f"your answer could not be used: {error}")

    def carry_out(self, step: ReactStepAnswer) -> bool:
        if step.action == FINISH:
            ground(self.run, step.triples, self.sentence)
            self.run.trajectory.append(
                {"thought": step.thought, "action": FINISH, "input": "", "observation": triples_json(self.run.triples)}
            )
            return True
        query = step.action_input.strip()
        self.just_used = step.action
        self.repeated = (step.action, query) in self.done
        if self.repeated:
            self.observe(step.action, query, "you already did this; use the observation above or Finish", step.thought)
        else:
            self.observe(step.action, query, self.retrieval.call(step.action, query, self.sentence).text, step.thought)
        return False


async def extract_react(
    sentence: str, retrieval: Retrieval, caller: Caller, prompt: PromptTemplate, max_iterations: int
) -> SentenceRun:
    agent = ReactAgent(sentence, retrieval, caller, prompt, max_iterations)
    await run_tool_loop(agent)  # the last turn allows only Finish, so the loop ends by finishing
    return agent.run
