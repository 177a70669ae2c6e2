"""Usage per agent: each document's calls counted under the agent that made them, traces naming it."""

from __future__ import annotations

import asyncio
import json

from graphwright.llm import MeteredLLM, ScriptedLLM, TracingLLM
from graphwright.llm.attribution import UNNAMED, for_agent
from graphwright.model import Document, ExtractionResult
from graphwright.pipeline import run_document

MESSAGES = [{"role": "user", "content": "hi"}]


class TwoAgents:
    """A system whose 'planner' calls once and whose 'writer' calls ``writes`` times, plus one unnamed call."""

    name = "two-agents"

    def __init__(self, llm, writes: int):
        self.llm, self.writes = llm, writes

    async def run(self, document: Document) -> ExtractionResult:
        meter = MeteredLLM(self.llm)
        with for_agent("planner"):
            await meter.chat(MESSAGES)
        for _ in range(self.writes):
            with for_agent("writer"):
                await asyncio.sleep(0)  # let the other document run in between
                await meter.chat(MESSAGES)
        await meter.chat(MESSAGES)
        return ExtractionResult(document_id=document.id, system=self.name, usage=meter.usage)


async def test_each_documents_calls_are_counted_under_their_agents_even_when_documents_interleave(tmp_path):
    llm = TracingLLM(ScriptedLLM(["ok"] * 20), tmp_path / "trace.jsonl")
    one, two = await asyncio.gather(
        run_document(TwoAgents(llm, 1), Document(text="one"), chunk_chars=1000, max_chars=1000),
        run_document(TwoAgents(llm, 3), Document(text="two"), chunk_chars=1000, max_chars=1000),
    )
    assert {a: u.llm_calls for a, u in one.usage_by_agent.items()} == {"planner": 1, "writer": 1, UNNAMED: 1}
    assert {a: u.llm_calls for a, u in two.usage_by_agent.items()} == {"planner": 1, "writer": 3, UNNAMED: 1}
    assert sum(u.prompt_tokens for u in two.usage_by_agent.values()) == two.usage.prompt_tokens
    agents = [json.loads(line)["agent"] for line in (tmp_path / "trace.jsonl").read_text().splitlines()]
    assert sorted(agents) == sorted(["planner", "writer", UNNAMED] + ["planner", "writer", "writer", "writer", UNNAMED])
