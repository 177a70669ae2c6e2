"""Run bookkeeping every cie architecture keeps next to the state fields of its table."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


class RunState(TypedDict, total=False):
    text: str
    tool_input: Any  # the input for the tool called next
    feedback: str  # an error for the agent to fix (error incorporation)
    steps: int  # agent calls so far (the step limit counts these)
    call_trace: Annotated[list[dict[str, Any]], operator.add]
    warnings: Annotated[list[str], operator.add]
    turtle: str  # the candidate final output
    turtle_author: str  # the node that wrote it; a rejected Turtle goes back there
    forced: bool  # the step limit or the token budget ended the run
    finish_attempts: int
    final_triples: list[dict[str, Any]]
    final_turtle: str
