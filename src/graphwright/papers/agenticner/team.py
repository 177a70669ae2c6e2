"""The group chat of tagger, reviewer and researcher under a rule-based supervisor, then the grounding
engine (paper 002, sections 4.2 to 4.4).

Routing: the tagger speaks first; an <output> goes to the reviewer, an <objection> too, a <search> to
the researcher, anything else back to the tagger with a reminder. The reviewer's <search> goes to the
researcher, <feedback> to the tagger, APPROVED! to grounding, anything else back to the reviewer. The
researcher answers whoever asked and sees only the question. Grounding runs once: with feedback the
tagger answers once more and that answer is final. At most ``max_turns`` agent turns; the last tagger
<output> is the answer.

Three rules the paper lacks, from real runs of a small model at temperature 0: an <output> that does not
reproduce the text (``min_coverage``) and is not a list of tagged mentions found in it is sent back to
the tagger and never becomes the answer; a tagger that answers feedback with the same output again ends
the review (``stop_on_repeat``), because the reviewer then repeats its feedback until the cap; and
feedback with no words in it but the approval (a copied ``<feedback>...</feedback>``, or
``<feedback>APPROVED!</feedback>``) asks for nothing and counts as approval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

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
        result = ChatResult(output=None, turns=[Turn("user", text_to_tag(text))])
        speaker, asker, final_next = "tagger", "tagger", False
        while result.agent_turns < self.max_turns:
            if speaker == "researcher":
                question = tag_content(result.turns[-1].content, "search") or ""
                result.turns.append(Turn("researcher", await self._research(question, result)))
                speaker = asker
                continue
            reply = await self._speak(speaker, result)
            result.turns.append(Turn(speaker, reply))
            if speaker == "tagger":
                output = tag_content(reply, "output")
                if (
                    output is not None
                    and coverage(output, text) < self.min_coverage
                    and not mention_list(output, text, self.types)
                ):
                    result.turns.append(Turn("supervisor", NOT_THE_TEXT))
                elif output is not None:
                    repeated = self.stop_on_repeat and output == result.output
                    result.output = output
                    if final_next:
                        return result  # the answer to grounding feedback is not reviewed again
                    if repeated:
                        result.turns.append(Turn("supervisor", KEPT_OUTPUT))
                    if self.reviewer_prompt is not None and not repeated:
                        speaker = "reviewer"
                    elif not self._grounded(result, text):
                        return result
                    else:
                        final_next = True
                elif tag_content(reply, "objection") is not None:
                    speaker = "reviewer" if self.reviewer_prompt else "tagger"
                elif tag_content(reply, "search") is not None:
                    speaker, asker = "researcher", "tagger"
                else:
                    result.turns.append(Turn("supervisor", NO_OUTPUT))
            else:  # reviewer
                feedback = tag_content(reply, "feedback")
                if tag_content(reply, "search") is not None:
                    speaker, asker = "researcher", "reviewer"
                elif asks_for_change(feedback):
                    result.turns.append(
                        Turn(
                            "supervisor", f"Remember, you need to tag the following:\n<text_to_tag>{text}</text_to_tag>"
                        )
                    )
                    speaker = "tagger"
                elif APPROVED in reply or feedback is not None:  # feedback that asks for nothing approves
                    if not self._grounded(result, text):
                        return result
                    speaker, final_next = "tagger", True
                else:
                    result.turns.append(Turn("supervisor", REVIEWER_AGAIN))
        result.stopped_by_cap = True
        return result

    def _grounded(self, result: ChatResult, text: str) -> bool:
        """Grounding, once: True when it has feedback, which goes to the tagger as a message."""
        if self.ground is None or result.output is None or result.grounding_feedback:
            return False
        result.grounding_feedback = self.ground(result.output, text)
        if result.grounding_feedback:
            result.turns.append(
                Turn(
                    "grounding",
                    "Please consider the following feedback from the grounding engine "
                    "as well:\n<grounding_feedback>\n"
                    + "\n".join(result.grounding_feedback)
                    + "\n</grounding_feedback>",
                )
            )
        return bool(result.grounding_feedback)

    async def _speak(self, speaker: str, result: ChatResult) -> str:
        result.agent_turns += 1
        if speaker == "tagger":
            messages = [{"role": "system", "content": self.tagger_prompt}] + _as_chat(result.turns, me="tagger")
        else:
            assert self.reviewer_prompt is not None  # tag() hands the turn to the reviewer only when there is one
            transcript = "\n\n".join(f"[{t.speaker}]: {t.content}" for t in result.turns)
            messages = [
                {"role": "system", "content": self.reviewer_prompt},
                {"role": "user", "content": transcript + "\n\nYour review:"},
            ]
        with for_agent(speaker):
            return (await ask_text(self.llm, messages, max_tokens=self.max_tokens)).text

    async def _research(self, question: str, result: ChatResult) -> str:
        if self.researcher is None or not question:
            return NO_RESEARCHER
        try:
            found = await self.search.search(question, k=3) if self.search else []
        except SearchUnavailableError as exc:
            found = [f"(search failed: {exc})"]
        result.agent_turns += 1
        system, user = self.researcher.render(question=question, results="\n".join(f"- {r}" for r in found) or "(none)")
        with for_agent("researcher"):
            reply = await ask_text(
                self.llm,
                [{"role": "system", "content": system}, {"role": "user", "content": user}],
                max_tokens=self.max_tokens,
            )
        return f"<answer>{tag_content(reply.text, 'answer') or reply.text.strip()}</answer>"


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
