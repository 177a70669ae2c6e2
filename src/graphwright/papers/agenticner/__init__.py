"""AgenticNER (issue 6, paper 002): domain-agnostic NER from entity definitions by a tagger, a reviewer
and a researcher with a grounding engine. ``agenticner`` is set up for small models by default (issue
27): no reviewer, and the grounding KB acts; ``agenticner.paper`` is the paper's team,
``agenticner.single`` its single-call baseline, and ``agenticner.lean`` the small-model settings fixed."""

from __future__ import annotations

from typing import Any

from graphwright.papers.agenticner.config import AgenticNERConfig
from graphwright.papers.agenticner.system import AgenticNERSystem
from graphwright.systems.family import Preset, register_family

# Measured with the embedded 1.5B model (docs/BENCHMARKS.md, issue 27): the tagger ignores the reviewer and
# keeps the types the grounding engine flags, so the reviewer goes and the KB corrects and adds itself.
SMALL_MODEL: dict[str, Any] = {"reviewer": False, "kb_types": True, "kb_spot": True}


register_family(
    "agenticner",
    AgenticNERConfig,
    AgenticNERSystem,
    takes_dataset=True,
    presets={
        "": Preset(
            "recommended",
            "Named entities of your domain: tagger with a grounding KB that corrects and adds",
            defaults=SMALL_MODEL,
        ),
        "paper": Preset("paper", "AgenticNER's team: tagger, reviewer and researcher in a group chat"),
        "single": Preset("baseline", "AgenticNER's single tagger call", build={"single": True}),
        "lean": Preset("variant", "agenticner with its small-model settings fixed", fixed=SMALL_MODEL),
    },
)

__all__ = ["AgenticNERConfig", "AgenticNERSystem"]
