"""The ReAct agent's answer: a thought, one action and that action's input."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from graphwright.tools.network_traversal import TraversalRequest
from graphwright.tools.uri_retrieval import SearchRequest

AGENT = "react_agent"
URI_TOOL = "uri_retrieval_tool"
TRAVERSAL_TOOL = "network_traversal_tool"
SEMANTIC_TOOL = "semantic_validation_tool"
LABEL_TOOL = "turtle_to_label_tool"
DELETE_TOOL = "message_deletion_tool"
TOOLS = (URI_TOOL, TRAVERSAL_TOOL, SEMANTIC_TOOL, LABEL_TOOL, DELETE_TOOL)
MAX_SEARCHES, MAX_TRAVERSALS, MAX_DELETIONS = 15, 5, 20  # requests per action


class ReactOutput(BaseModel):
    thought: str = Field(description="one or two sentences: what you know and what you do next")
    goto: Literal[
        "uri_retrieval_tool",
        "network_traversal_tool",
        "semantic_validation_tool",
        "turtle_to_label_tool",
        "message_deletion_tool",
        "finish",
    ] = Field(description="the action")
    # the caps end a list the 1.5B model pads with repeats until the token limit (it filled 1,024
    # tokens with one traversal request); measured: no slower decoding at these sizes
    searches: list[SearchRequest] = Field(
        default_factory=list,
        max_length=MAX_SEARCHES,
        description="uri_retrieval_tool: {term, mode, kind} requests; else []",
    )
    traverse: list[TraversalRequest] = Field(
        default_factory=list,
        max_length=MAX_TRAVERSALS,
        description="network_traversal_tool: {property, subject, object} requests; else []",
    )
    turtle: str = Field(
        default="", description="semantic_validation_tool, turtle_to_label_tool and finish: the Turtle; else empty"
    )
    delete_ids: list[int] = Field(
        default_factory=list,
        max_length=MAX_DELETIONS,
        description="message_deletion_tool: ids of messages to delete; else []",
    )
    summary: str = Field(
        default="", description="message_deletion_tool: what to keep from the deleted messages; else empty"
    )

    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {
        URI_TOOL: ("searches",),
        TRAVERSAL_TOOL: ("traverse",),
        SEMANTIC_TOOL: ("turtle",),
        LABEL_TOOL: ("turtle",),
        DELETE_TOOL: ("delete_ids",),
    }
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = {
        URI_TOOL: ("traverse", "turtle", "delete_ids", "summary"),
        TRAVERSAL_TOOL: ("searches", "turtle", "delete_ids", "summary"),
        SEMANTIC_TOOL: ("searches", "traverse", "delete_ids", "summary"),
        LABEL_TOOL: ("searches", "traverse", "delete_ids", "summary"),
        DELETE_TOOL: ("searches", "traverse", "turtle"),
        "finish": ("searches", "traverse", "delete_ids", "summary"),
    }
