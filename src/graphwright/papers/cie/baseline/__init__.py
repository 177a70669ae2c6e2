"""CIExMAS baseline architecture (paper 000, sections 4.1.1, 5.4.1 and 5.4.3), system ``cie.baseline``."""

from __future__ import annotations

from typing import Any

from graphwright.papers.cie.baseline.system import BaselineConfig, BaselineSystem
from graphwright.systems.base import register_system
from graphwright.systems.settings import parse_settings


@register_system(
    "cie.baseline",
    role="variant",
    purpose="CIExMAS architecture: fixed pipeline of extraction, URI mapping and output",
    family="cie",
    links_to_kb=True,
)
def make_baseline_system(llm, kb, config: dict[str, Any] | None = None) -> BaselineSystem:
    return BaselineSystem(llm, kb, parse_settings(BaselineConfig, "cie.baseline", config))


__all__ = ["BaselineConfig", "BaselineSystem", "make_baseline_system"]
