"""CooperKGC (issue 24, paper 003): NER, RE and event-extraction experts in collaborative rounds, and its
baselines with the same experts: ``cooperkgc.single`` (one call per task), ``cooperkgc.twostage`` (labels,
then the extraction) and ``cooperkgc.vote`` (three members and a majority vote)."""

from __future__ import annotations

from graphwright.systems.cooperkgc.config import CooperKGCConfig
from graphwright.systems.cooperkgc.system import CooperKGCSystem
from graphwright.systems.family import Preset, register_family


register_family("cooperkgc", CooperKGCConfig, CooperKGCSystem, takes_dataset=True, presets={
    "": Preset(),
    "single": Preset(fixed={"mode": "single"}),
    "twostage": Preset(fixed={"mode": "two-stage"}),
    "vote": Preset(fixed={"mode": "vote"}),
})

__all__ = ["CooperKGCConfig", "CooperKGCSystem"]
