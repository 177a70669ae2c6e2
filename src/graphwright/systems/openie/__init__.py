"""``openie``: open information extraction in one call per passage, as HippoRAG indexes a corpus. Names
become nodes (dates and numbers typed values), relations are the text's own verb phrases; it is the
cheap indexer behind question answering over a corpus (``graphwright ask``), not a seed system."""

from __future__ import annotations

from typing import Any

from graphwright.systems.base import register_system
from graphwright.systems.openie.config import OpenIEConfig
from graphwright.systems.openie.system import OpenIESystem
from graphwright.systems.settings import parse_settings


@register_system(
    "openie", role="baseline", purpose="Open triples in the text's words, one call, no KB: fast, and the index QA reads"
)
def _make(llm, kb, config: dict[str, Any] | None = None) -> OpenIESystem:
    return OpenIESystem(llm, parse_settings(OpenIEConfig, "openie", config))


__all__ = ["OpenIEConfig", "OpenIESystem"]
