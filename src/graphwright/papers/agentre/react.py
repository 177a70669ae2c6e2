"""AgentRE's extraction module: a ReAct loop (thought, action, observation) over the retrieval and
memory tools until the agent finishes (paper 001, section 3.4). It starts from the prefetched
observations, as the authors' code pre-fills the first steps, so a sure agent can finish at once:
that is the paper's "direct" path inside the loop."""

from __future__ import annotations

import json
from typing import cast

from graphwright.agents.prompts import PromptTemplate
from graphwright.errors import ModelOutputError
from graphwright.papers.agentre.outputs import ReactStepAnswer, react_step_model
from graphwright.papers.agentre.steps import Caller, SentenceRun, ground, triples_json
from graphwright.papers.agentre.tools import Retrieval

FINISH = "Finish"
LAST_CALL = "You have used every action: Finish now with the triples you found."
REPEATED = (
    "You repeated a search you already made, so there is nothing new to find: Finish now with the triples you found."
)


async def extract_react(
    sentence: str, retrieval: Retrieval, caller: Caller, prompt: PromptTemplate, max_iterations: int
) -> SentenceRun:
    run = SentenceRun()
    history: list[str] = []
    done: set[tuple[str, str]] = set()

    def observe(action: str, query: str, text: str, thought: str = "") -> None:
        run.tool(action, query, text)
        run.trajectory.append({"thought": thought, "action": action, "input": query, "observation": text})
        head = f"Thought: {thought}\n" if thought else ""
        history.append(f"{head}Action: {action}({json.dumps(query, ensure_ascii=False)})\nObservation: {text}")
        done.add((action, query.strip()))

    for o in retrieval.prefetch(sentence):
        observe(o.action, o.input, o.text)
    just_used, repeated = "", False
    for iteration in range(max_iterations + 1):
        # a repeated search means the agent has nothing left to look up: it alternated two tools on the
        # same input until the step limit when only the last action was closed (seen with the 1.5B model)
        last = iteration == max_iterations or repeated
        # the action that just answered is closed for one step: at temperature 0 a small model otherwise
        # repeats the same call until the step limit (seen with the 1.5B model)
        actions = [FINISH] if last else [a for a in retrieval.actions if a != just_used] + [FINISH]
        step_type = react_step_model(actions, retrieval.schema.names)
        shown = history + [REPEATED if repeated else LAST_CALL] if last else history
        try:
            # step_type is built per call (enums of the open actions): the protocol names its fields
            step = cast(
                ReactStepAnswer,
                await caller.ask(
                    run,
                    "agent",
                    prompt,
                    step_type,
                    sentence=sentence,
                    history="\n\n".join(shown),
                    relations=retrieval.relation_lines(False),
                    actions=retrieval.describe_actions(),
                    max_iterations=max_iterations,
                ),
            )
        except ModelOutputError as exc:  # error incorporation: the loop goes on with the error in view
            if last:
                raise
            observe("Error", "", f"your answer could not be used: {exc}")
            continue
        if step.action == FINISH:
            ground(run, step.triples, sentence)
            run.trajectory.append(
                {"thought": step.thought, "action": FINISH, "input": "", "observation": triples_json(run.triples)}
            )
            return run
        query = step.action_input.strip()
        just_used = step.action
        repeated = (step.action, query) in done
        if repeated:
            observe(step.action, query, "you already did this; use the observation above or Finish", step.thought)
        else:
            observe(step.action, query, retrieval.call(step.action, query, sentence).text, step.thought)
    return run  # not reached: the last iteration allows only Finish
