"""The supervisor's answer: where to go next and what that step needs."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from graphwright.tools.uri_retrieval import SearchRequest

SUPERVISOR = "supervisor"
URI_TOOL = "uri_retrieval_tool"


class SupervisorOutput(BaseModel):
    thought: str = Field(description="one short sentence: what is done, what comes next")
    goto: Literal["entity_extractor", "triple_extractor", "uri_retrieval_tool", "finish"] = Field(
        description="next agent or tool, or finish"
    )
    instruction: str = Field(default="", description="what the extractor should do; else empty")
    tool_input: list[SearchRequest] = Field(
        default_factory=list, description="searches for uri_retrieval_tool: {term, mode, kind}; else []"
    )
    turtle: str = Field(default="", description="with finish: the final Turtle, one `wd:Q.. wdt:P.. wd:Q.. .` per line")

    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {"uri_retrieval_tool": ("tool_input",)}
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = {
        "entity_extractor": ("tool_input", "turtle"),
        "triple_extractor": ("tool_input", "turtle"),
        "uri_retrieval_tool": ("instruction", "turtle"),
        "finish": ("instruction", "tool_input"),
    }
