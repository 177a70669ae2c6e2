"""AgenticNER (issue 6, paper 002): domain-agnostic NER from entity definitions by a tagger, a reviewer
and a researcher with a grounding engine. ``agenticner`` is set up for small models by default (issue
27): no reviewer, and the grounding KB acts; ``agenticner.paper`` is the paper's team,
``agenticner.single`` its single-call baseline, and ``agenticner.lean`` the small-model settings fixed."""

from __future__ import annotations

from typing import Any

from graphwright.systems.agenticner.config import AgenticNERConfig
from graphwright.systems.agenticner.system import AgenticNERSystem
from graphwright.systems.base import register_system
from graphwright.systems.settings import parse_settings

# Measured with the embedded 1.5B model (docs/BENCHMARKS.md, issue 27): the tagger ignores the reviewer and
# keeps the types the grounding engine flags, so the reviewer goes and the KB corrects and adds itself.
SMALL_MODEL: dict[str, Any] = {"reviewer": False, "kb_types": True, "kb_spot": True}


def _factory(name: str, single: bool = False, defaults: dict[str, Any] | None = None, **fixed: Any):
    def make(llm, kb, config: dict[str, Any] | None = None) -> AgenticNERSystem:
        return AgenticNERSystem(llm, kb, parse_settings(AgenticNERConfig, name, config, defaults=defaults, **fixed),
                                name=name, single=single)

    return make


register_system("agenticner", takes_dataset=True)(_factory("agenticner", defaults=SMALL_MODEL))
register_system("agenticner.paper", takes_dataset=True)(_factory("agenticner.paper"))
register_system("agenticner.single", takes_dataset=True)(_factory("agenticner.single", single=True))
register_system("agenticner.lean", takes_dataset=True)(_factory("agenticner.lean", **SMALL_MODEL))

__all__ = ["AgenticNERConfig", "AgenticNERSystem"]
