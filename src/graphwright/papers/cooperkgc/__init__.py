"""CooperKGC (issue 24, paper 003): NER, RE and event-extraction experts in collaborative rounds, and its
baselines with the same experts: ``cooperkgc.single`` (one call per task), ``cooperkgc.twostage`` (labels,
then the extraction) and ``cooperkgc.vote`` (three members and a majority vote)."""

from __future__ import annotations

from graphwright.papers.cooperkgc.config import CooperKGCConfig
from graphwright.papers.cooperkgc.system import CooperKGCSystem
from graphwright.systems.family import Preset, register_family

register_family(
    "cooperkgc",
    CooperKGCConfig,
    CooperKGCSystem,
    takes_dataset=True,
    presets={
        "": Preset("paper", "Entities, relations and events from three experts revising over rounds"),
        "single": Preset("baseline", "CooperKGC's experts, one call per task", fixed={"mode": "single"}),
        "twostage": Preset("baseline", "Types first, then extraction (ChatIE)", fixed={"mode": "two-stage"}),
        "vote": Preset("baseline", "Three members' answers, majority vote", fixed={"mode": "vote"}),
    },
)

__all__ = ["CooperKGCConfig", "CooperKGCSystem"]
