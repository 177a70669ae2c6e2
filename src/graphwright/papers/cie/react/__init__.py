"""CIExMAS ReAct architecture (paper 000, sections 4.1.4, 5.4.5 and 5.4.9), system ``cie.react``."""

from __future__ import annotations

from typing import Any

from graphwright.papers.cie.react.system import ReactConfig, ReactSystem
from graphwright.systems.base import register_system
from graphwright.systems.settings import parse_settings


@register_system(
    "cie.react",
    role="variant",
    purpose="CIExMAS architecture: a ReAct agent over the URI tools",
    family="cie",
    links_to_kb=True,
)
def make_react_system(llm, kb, config: dict[str, Any] | None = None) -> ReactSystem:
    return ReactSystem(llm, kb, parse_settings(ReactConfig, "cie.react", config))


__all__ = ["ReactConfig", "ReactSystem", "make_react_system"]
