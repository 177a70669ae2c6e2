"""The specialist agents of the supervisor architectures (CIExMAS 4.1.1 to 4.1.3): entity,
property and triple extractors, and the Turtle formatter. Each sees the text, the instruction
it was given and what the architecture passes as context, and answers with a list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from graphwright.papers.cie.common.outputs import EntityList, PropertyList, TripleList, TurtleOutput, render_triples
from graphwright.papers.cie.common.turn import CieContext, Turn, agent_turn

ENTITY_EXTRACTOR = "entity_extractor"
PROPERTY_EXTRACTOR = "property_extractor"
TRIPLE_EXTRACTOR = "triple_extractor"
TURTLE_FORMATTER = "turtle_formatter"
SPECIALISTS: dict[str, type[BaseModel]] = {
    ENTITY_EXTRACTOR: EntityList,
    PROPERTY_EXTRACTOR: PropertyList,
    TRIPLE_EXTRACTOR: TripleList,
    TURTLE_FORMATTER: TurtleOutput,
}
LONG_ANSWERS = (TRIPLE_EXTRACTOR, TURTLE_FORMATTER)


async def specialist_turn(
    state: Mapping[str, Any], ctx: CieContext, agent: str, instruction: str, context: str
) -> Turn:
    view = f"Instruction: {instruction or '(none: do your job on the whole text)'}\n\n{context}".strip()
    budget = ctx.config.extractor_max_tokens if agent in LONG_ANSWERS else ctx.config.max_tokens
    return await agent_turn(state, ctx, agent, SPECIALISTS[agent], view=view, max_tokens=budget)


def summarize_output(agent: str, output) -> str:
    """What a specialist answered, as the supervisor reads it."""
    if agent == ENTITY_EXTRACTOR:
        return "entities: " + ("; ".join(output.entities) or "(none)")
    if agent == PROPERTY_EXTRACTOR:
        return "properties: " + ("; ".join(output.properties) or "(none)")
    if agent == TRIPLE_EXTRACTOR:
        return "triples:\n" + render_triples([t.model_dump() for t in output.triples])
    return "turtle:\n" + output.turtle
