"""AgenticNER (issue 6, paper 002): domain-agnostic NER from entity definitions by a tagger, a reviewer
and a researcher with a grounding engine; ``agenticner.single`` is its single-call baseline, and
``agenticner.lean`` the team for small models (issue 27): no reviewer, and the grounding KB acts."""

from __future__ import annotations

from typing import Any

from graphwright.systems.agenticner.config import AgenticNERConfig
from graphwright.systems.agenticner.system import AgenticNERSystem
from graphwright.systems.base import SYSTEMS
from graphwright.systems.settings import parse_settings


def _factory(name: str, single: bool = False, **fixed: Any):
    def make(llm, kb, config: dict[str, Any] | None = None) -> AgenticNERSystem:
        return AgenticNERSystem(llm, kb, parse_settings(AgenticNERConfig, name, config, **fixed), name=name,
                                single=single)

    make.takes_dataset = True  # `eval run` passes the dataset: its domain, examples and grounding KB
    return make


SYSTEMS.register("agenticner")(_factory("agenticner"))
SYSTEMS.register("agenticner.single")(_factory("agenticner.single", single=True))
# Measured with the embedded 1.5B model (docs/BENCHMARKS.md, issue 27): the tagger ignores the reviewer and
# keeps the types the grounding engine flags, so the reviewer goes and the KB corrects and adds itself.
SYSTEMS.register("agenticner.lean")(_factory("agenticner.lean", reviewer=False, kb_types=True, kb_spot=True))

__all__ = ["AgenticNERConfig", "AgenticNERSystem"]
