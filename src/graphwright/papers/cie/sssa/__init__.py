"""CIExMAS simplified split supervisor architecture (paper 000, sections 4.1.3 and 5.4.4), system ``cie.sssa``."""

from __future__ import annotations

from typing import Any

from graphwright.papers.cie.sssa.system import SssaConfig, SssaSystem
from graphwright.systems.base import register_system
from graphwright.systems.settings import parse_settings


@register_system(
    "cie.sssa",
    role="variant",
    purpose="CIExMAS architecture: one agent whose tools are the other agents",
    family="cie",
    links_to_kb=True,
)
def make_sssa_system(llm, kb, config: dict[str, Any] | None = None) -> SssaSystem:
    return SssaSystem(llm, kb, parse_settings(SssaConfig, "cie.sssa", config))


__all__ = ["SssaConfig", "SssaSystem", "make_sssa_system"]
