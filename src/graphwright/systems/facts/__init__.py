"""``facts``: open extraction of every fact a passage states, then mapping onto the KB (relation table,
property labels, one constrained choice for the rest); what no property fits keeps its phrase."""

from __future__ import annotations

from typing import Any

from graphwright.systems.base import register_system
from graphwright.systems.facts.config import FactsConfig
from graphwright.systems.facts.system import FactsSystem
from graphwright.systems.settings import parse_settings


@register_system(
    "facts",
    role="recommended",
    purpose="Every fact a text states, linked to the KB where it fits and kept under the text's phrase where not; the default",
    links_to_kb=True,
)
def _make(llm, kb, config: dict[str, Any] | None = None) -> FactsSystem:
    return FactsSystem(llm, kb, parse_settings(FactsConfig, "facts", config))


__all__ = ["FactsConfig", "FactsSystem"]
