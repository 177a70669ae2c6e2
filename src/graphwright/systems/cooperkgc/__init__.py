"""CooperKGC (issue 24, paper 003): NER, RE and event-extraction experts in collaborative rounds, and its
baselines with the same experts: ``cooperkgc.single`` (one call per task), ``cooperkgc.twostage`` (labels,
then the extraction) and ``cooperkgc.vote`` (three members and a majority vote)."""

from __future__ import annotations

from typing import Any

from graphwright.systems.base import register_system
from graphwright.systems.cooperkgc.config import CooperKGCConfig
from graphwright.systems.cooperkgc.system import CooperKGCSystem
from graphwright.systems.settings import parse_settings


def _factory(name: str, **fixed: Any):
    def make(llm, kb, config: dict[str, Any] | None = None) -> CooperKGCSystem:
        return CooperKGCSystem(llm, kb, parse_settings(CooperKGCConfig, name, config, **fixed), name=name)

    return make


register_system("cooperkgc", takes_dataset=True)(_factory("cooperkgc"))
register_system("cooperkgc.single", takes_dataset=True)(_factory("cooperkgc.single", mode="single"))
register_system("cooperkgc.twostage", takes_dataset=True)(_factory("cooperkgc.twostage", mode="two-stage"))
register_system("cooperkgc.vote", takes_dataset=True)(_factory("cooperkgc.vote", mode="vote"))

__all__ = ["CooperKGCConfig", "CooperKGCSystem"]
