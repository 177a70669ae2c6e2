"""One knowledge graph that grows over documents and runs (Agentic-KGR's evolving graph, paper 004).

Entities are resolved to one node each, edges carry confidence, votes and evidence, weak or novel edges
wait in a staging area until enough documents support them, unseen edges age out, and the schema grows
by a logged allow-list. See ``episodes.grow`` for the per-episode pipeline.
"""

from graphwright.growth.codec import KG_GRAPH, STATE_GRAPH, load, save, save_update
from graphwright.growth.episodes import EpisodeReport, apply, grow
from graphwright.growth.lifecycle import check
from graphwright.growth.policy import GrowthPolicy
from graphwright.growth.state import GrowthState

__all__ = [
    "KG_GRAPH",
    "STATE_GRAPH",
    "EpisodeReport",
    "GrowthPolicy",
    "GrowthState",
    "apply",
    "check",
    "grow",
    "load",
    "save",
    "save_update",
]
