"""CIExMAS split supervisor architecture (paper 000, sections 4.1.2, 5.4.2 and 5.4.3), system ``cie.ssa``."""

from __future__ import annotations

from typing import Any

from graphwright.papers.cie.ssa.system import SsaConfig, SsaSystem
from graphwright.systems.base import register_system
from graphwright.systems.settings import parse_settings


@register_system(
    "cie.ssa", role="variant", purpose="CIExMAS architecture: one agent with tools", family="cie", links_to_kb=True
)
def make_ssa_system(llm, kb, config: dict[str, Any] | None = None) -> SsaSystem:
    return SsaSystem(llm, kb, parse_settings(SsaConfig, "cie.ssa", config))


__all__ = ["SsaConfig", "SsaSystem", "make_ssa_system"]
