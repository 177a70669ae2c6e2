"""CIExMAS network architecture (paper 000, sections 4.1.5 and 5.4.8), system ``cie.network``."""

from __future__ import annotations

from typing import Any

from graphwright.papers.cie.network.config import NetworkConfig
from graphwright.papers.cie.network.system import NetworkSystem
from graphwright.systems.base import register_system
from graphwright.systems.settings import parse_settings


@register_system(
    "cie.network",
    role="recommended",
    purpose="Closed IE onto Wikidata properties and entities with the CIExMAS agent network",
    family="cie",
    links_to_kb=True,
)
def make_network_system(llm, kb, config: dict[str, Any] | None = None) -> NetworkSystem:
    return NetworkSystem(llm, kb, parse_settings(NetworkConfig, "cie.network", config))


__all__ = ["NetworkConfig", "NetworkSystem", "make_network_system"]
