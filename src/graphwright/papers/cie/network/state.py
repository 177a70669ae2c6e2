"""State of the network architecture (CIExMAS Table 4.4) plus run bookkeeping."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


class NetworkState(TypedDict, total=False):
    text: str
    # Table 4.4
    triples: list[dict[str, str]]  # free-form (subject, predicate, object) from the extractor
    uri_mapping: list[dict[str, Any]]  # surface -> iri with KB label and description
    call_trace: Annotated[list[dict[str, Any]], operator.add]
    last_call: str
    last_response: str
    agent_instruction: str
    tool_call: Any
    messages: list[str]  # the final Turtle
    # bookkeeping
    candidates: dict[str, dict[str, Any]]  # search term -> the IRIs uri_retrieval_tool showed for it
    caller: str  # agent that invoked the current tool
    turtle: str  # current candidate Turtle
    turtle_author: str  # "draft" (assembled from the mapping) or the agent that wrote it
    steps: int
    checks: list[dict[str, Any]]  # lean: the draft's lines with labels and verdicts (lean_view.check_lines)
    check_problems: int  # problems the last check tool reported (strict routing opens send-backs on them)
    finish_attempts: int
    forced: bool
    final_triples: list[dict[str, Any]]
    final_turtle: str
    warnings: Annotated[list[str], operator.add]
