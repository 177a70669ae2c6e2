"""The single-agent runtime: error incorporation, finishing, and the step budget the agent keeps."""

import asyncio

import pytest

from graphwright.agents.tool_loop import run_tool_loop
from graphwright.errors import ModelOutputError


class Scripted:
    """Decides the scripted answers in turn; an Exception in the script is an unusable answer."""

    def __init__(self, answers, steps, raise_unusable=False):
        self.answers, self.steps, self.raise_unusable = list(answers), steps, raise_unusable
        self.seen: list[str] = []

    def steps_left(self):
        return self.steps

    async def decide(self):
        self.steps -= 1
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def unusable(self, error):
        if self.raise_unusable:
            raise error
        self.seen.append(f"error: {error}")

    def carry_out(self, action):
        self.seen.append(action)
        return action == "finish"


def test_an_unusable_answer_is_shown_and_the_agent_goes_on_to_finish():
    agent = Scripted(["search", ModelOutputError("not JSON"), "finish", "never asked"], steps=5)
    assert asyncio.run(run_tool_loop(agent)) is True
    assert agent.seen == ["search", "error: not JSON", "finish"]
    assert agent.answers == ["never asked"]


def test_the_loop_stops_when_the_agent_has_no_steps_left():
    agent = Scripted(["search"] * 5, steps=3)
    assert asyncio.run(run_tool_loop(agent)) is False
    assert agent.seen == ["search"] * 3


def test_an_agent_may_end_the_run_on_an_unusable_answer():
    agent = Scripted([ModelOutputError("cut off")], steps=3, raise_unusable=True)
    with pytest.raises(ModelOutputError, match="cut off"):
        asyncio.run(run_tool_loop(agent))
