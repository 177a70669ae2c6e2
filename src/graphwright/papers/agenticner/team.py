"""The group chat of tagger, reviewer and researcher under a rule-based supervisor, then the grounding
engine (paper 002, sections 4.2 to 4.4).

Routing: the tagger speaks first; an <output> goes to the reviewer, an <objection> too, a <search> to
the researcher, anything else back to the tagger with a reminder. The reviewer's <search> goes to the
researcher, <feedback> to the tagger, APPROVED! to grounding, anything else back to the reviewer. The
researcher answers whoever asked and sees only the question. Grounding runs once: with feedback the
tagger answers once more and that answer is final. At most ``max_turns`` agent turns; the last tagger
<output> is the answer. The chat is a LangGraph graph: a node per agent and one for grounding, each
routing to the next speaker by the rules above (the rule-based supervisor is that routing).

Three rules the paper lacks, from real runs of a small model at temperature 0: an <output> that does not
reproduce the text (``min_coverage``) and is not a list of tagged mentions found in it is sent back to
the tagger and never becomes the answer; a tagger that answers feedback with the same output again ends
the review (``stop_on_repeat``), because the reviewer then repeats its feedback until the cap; and
feedback with no words in it but the approval (a copied ``<feedback>...</feedback>``, or
``<feedback>APPROVED!</feedback>``) asks for nothing and counts as approval.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command

from graphwright.agents.call import ask_text
from graphwright.agents.prompts import PromptTemplate
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM
from graphwright.papers.agenticner.align import coverage, mention_list
from graphwright.papers.agenticner.protocol import APPROVED, asks_for_change, tag_content, text_to_tag
from graphwright.papers.agenticner.search import Search, SearchUnavailableError

NO_OUTPUT = "You should put your final output inside <output> tags!"
NO_RESEARCHER = "Sorry. The researcher is not available. Complete the task using your own internal knowledge."
REVIEWER_AGAIN = (
    "Answer with exactly one of: what to change inside <feedback></feedback> tags, a question inside "
    "<search></search> tags, or APPROVED!"
)
NOT_THE_TEXT = (
    "Your <output> is not the text to tag. Copy the text inside <text_to_tag> exactly, add the entity tags, "
    "and put it inside <output></output>."
)
KEPT_OUTPUT = "The tagger kept its output unchanged; the review ends."


@dataclass
class Turn:
    speaker: str  # user, tagger, reviewer, researcher, grounding, supervisor
    content: str


@dataclass
class ChatResult:
    output: str | None
    turns: list[Turn] = field(default_factory=list)
    agent_turns: int = 0
    grounding_feedback: list[str] = field(default_factory=list)
    stopped_by_cap: bool = False


class ChatState(TypedDict, total=False):
    text: str  # the text to tag
    turns: Annotated[list[Turn], operator.add]  # the shared history, oldest first
    output: str | None  # the tagger's last usable <output>
    agent_turns: int
    grounding_feedback: list[str]
    asker: str  # who the researcher answers
    final_next: bool  # the tagger's next output is the answer (it answers the grounding feedback)
    stopped_by_cap: bool


@dataclass
class Team:
    llm: LLM
    tagger_prompt: str
    reviewer_prompt: str | None  # None: no reviewer (the tagger's first output is final)
    researcher: PromptTemplate | None  # None: the researcher is not available
    search: Search | None
    ground: Callable[[str, str], list[str]] | None  # (output, text) -> feedback lines; None: no grounding
    types: list[str]  # the entity types, to read an output that lists tagged mentions
    max_turns: int = 10
    max_tokens: int = 512
    stop_on_repeat: bool = True
    min_coverage: float = 0.5

    async def tag(self, text: str) -> ChatResult:
        state: ChatState = {"text": text, "turns": [Turn("user", text_to_tag(text))], "output": None, "agent_turns": 0}
        # every agent turn is at most two steps of the graph (a researcher's answer, then the asker's turn),
        # and grounding is one: the cap on agent turns ends the chat well before this limit
        final = await CHAT.ainvoke(state, context=self, config={"recursion_limit": 3 * self.max_turns + 10})
        return ChatResult(
            output=final.get("output"),
            turns=final["turns"],
            agent_turns=final.get("agent_turns", 0),
            grounding_feedback=final.get("grounding_feedback") or [],
            stopped_by_cap=final.get("stopped_by_cap", False),
        )

    async def speak(self, speaker: str, turns: list[Turn]) -> str:
        if speaker == "tagger":
            messages = [{"role": "system", "content": self.tagger_prompt}] + _as_chat(turns, me="tagger")
        else:
            assert self.reviewer_prompt is not None  # the tagger hands the turn to the reviewer only when there is one
            transcript = "\n\n".join(f"[{t.speaker}]: {t.content}" for t in turns)
            messages = [
                {"role": "system", "content": self.reviewer_prompt},
                {"role": "user", "content": transcript + "\n\nYour review:"},
            ]
        with for_agent(speaker):
            return (await ask_text(self.llm, messages, max_tokens=self.max_tokens)).text

    async def research(self, question: str) -> str | None:
        """The researcher's answer, or None when it is not available (no model call)."""
        if self.researcher is None or not question:
            return None
        try:
            found = await self.search.search(question, k=3) if self.search else []
        except SearchUnavailableError as exc:
            found = [f"(search failed: {exc})"]
        system, user = self.researcher.render(question=question, results="\n".join(f"- {r}" for r in found) or "(none)")
        with for_agent("researcher"):
            reply = await ask_text(
                self.llm,
                [{"role": "system", "content": system}, {"role": "user", "content": user}],
                max_tokens=self.max_tokens,
            )
        return f"<answer>{tag_content(reply.text, 'answer') or reply.text.strip()}</answer>"


Ctx = Runtime[Team]


Node = Callable[[ChatState, Ctx], Awaitable[Command]]


def until_cap(node: Node) -> Node:
    """The chat ends when the agents have spoken ``max_turns`` times; the last tagger output is the answer."""

    @functools.wraps(node)
    async def capped(state: ChatState, runtime: Ctx) -> Command:
        if state.get("agent_turns", 0) >= runtime.context.max_turns:
            return Command(goto=END, update={"stopped_by_cap": True})
        return await node(state, runtime)

    return capped


async def _spoken(state: ChatState, team: Team, speaker: str) -> tuple[str, list[Turn], dict]:
    """An agent's turn: its reply, the turns it adds to the history (supervisor notes may follow), the update."""
    reply = await team.speak(speaker, state["turns"])
    said = [Turn(speaker, reply)]
    return reply, said, {"agent_turns": state.get("agent_turns", 0) + 1, "turns": said}


@until_cap
async def tagger(state: ChatState, runtime: Ctx) -> Command:
    team, text = runtime.context, state["text"]
    reply, said, update = await _spoken(state, team, "tagger")
    output = tag_content(reply, "output")
    if output is not None and coverage(output, text) < team.min_coverage and not mention_list(output, text, team.types):
        said.append(Turn("supervisor", NOT_THE_TEXT))
        return Command(goto="tagger", update=update)
    if output is not None:
        repeated = team.stop_on_repeat and output == state.get("output")
        update["output"] = output
        if state.get("final_next"):
            return Command(goto=END, update=update)  # the answer to grounding feedback is not reviewed again
        if repeated:
            said.append(Turn("supervisor", KEPT_OUTPUT))
        return Command(
            goto="reviewer" if team.reviewer_prompt is not None and not repeated else "grounding", update=update
        )
    if tag_content(reply, "objection") is not None:
        return Command(goto="reviewer" if team.reviewer_prompt else "tagger", update=update)
    if tag_content(reply, "search") is not None:
        return Command(goto="researcher", update={**update, "asker": "tagger"})
    said.append(Turn("supervisor", NO_OUTPUT))
    return Command(goto="tagger", update=update)


@until_cap
async def reviewer(state: ChatState, runtime: Ctx) -> Command:
    team, text = runtime.context, state["text"]
    reply, said, update = await _spoken(state, team, "reviewer")
    feedback = tag_content(reply, "feedback")
    if tag_content(reply, "search") is not None:
        return Command(goto="researcher", update={**update, "asker": "reviewer"})
    if asks_for_change(feedback):
        said.append(Turn("supervisor", f"Remember, you need to tag the following:\n<text_to_tag>{text}</text_to_tag>"))
        return Command(goto="tagger", update=update)
    if APPROVED in reply or feedback is not None:  # feedback that asks for nothing approves
        return Command(goto="grounding", update=update)
    said.append(Turn("supervisor", REVIEWER_AGAIN))
    return Command(goto="reviewer", update=update)


@until_cap
async def researcher(state: ChatState, runtime: Ctx) -> Command:
    team = runtime.context
    question = tag_content(state["turns"][-1].content, "search") or ""
    answer = await team.research(question)
    update: dict = {"turns": [Turn("researcher", NO_RESEARCHER if answer is None else answer)]}
    if answer is not None:
        update["agent_turns"] = state.get("agent_turns", 0) + 1
    return Command(goto=state.get("asker", "tagger"), update=update)


def grounding(state: ChatState, runtime: Ctx) -> Command:
    """Grounding, once: its feedback goes to the tagger, whose answer to it is final; without feedback
    (or a second time) the chat ends with the output it has."""
    team, output = runtime.context, state.get("output")
    if team.ground is None or output is None or state.get("grounding_feedback"):
        return Command(goto=END)
    feedback = team.ground(output, state["text"])
    if not feedback:
        return Command(goto=END, update={"grounding_feedback": feedback})
    said = Turn(
        "grounding",
        "Please consider the following feedback from the grounding engine as well:\n<grounding_feedback>\n"
        + "\n".join(feedback)
        + "\n</grounding_feedback>",
    )
    return Command(goto="tagger", update={"grounding_feedback": feedback, "turns": [said], "final_next": True})


def build_chat():
    graph = StateGraph(ChatState, context_schema=Team)
    graph.add_node("tagger", tagger, destinations=("tagger", "reviewer", "researcher", "grounding", END))
    graph.add_node("reviewer", reviewer, destinations=("tagger", "reviewer", "researcher", "grounding", END))
    graph.add_node("researcher", researcher, destinations=("tagger", "reviewer", END))
    graph.add_node("grounding", grounding, destinations=("tagger", END))
    graph.add_edge(START, "tagger")
    return graph.compile()


CHAT = build_chat()


def _as_chat(turns: list[Turn], me: str) -> list[dict[str, str]]:
    """The shared history as chat messages for one agent: its own turns are the assistant's, the others'
    are user messages named by speaker; consecutive user messages are joined."""
    out: list[dict[str, str]] = []
    for t in turns:
        role = "assistant" if t.speaker == me else "user"
        content = t.content if t.speaker in (me, "user") else f"[{t.speaker}]: {t.content}"
        if out and out[-1]["role"] == role == "user":
            out[-1]["content"] += "\n\n" + content
        else:
            out.append({"role": role, "content": content})
    return out
