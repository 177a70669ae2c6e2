"""A family of systems: one system class and its settings model, and named presets of its settings.

``agentre.fewshot`` is not another system but AgentRE with the settings of a single few-shot call, so a
family registers each preset as a name of its own: what the preset fixes cannot be changed with ``--set``
(it is what the name means; use the family to change it), what it starts from can. ``graphwright
systems`` shows each preset under its family, with the settings it stands for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from graphwright.systems.base import SYSTEMS, Capabilities, SystemSpec, check_role
from graphwright.systems.settings import parse_settings


@dataclass(frozen=True)
class Preset:
    role: str  # recommended | baseline | paper | variant (graphwright.systems.base.ROLES)
    purpose: str  # what the name is for, one line (`graphwright systems`)
    fixed: dict[str, Any] = field(default_factory=dict)  # the settings the name stands for
    defaults: dict[str, Any] = field(default_factory=dict)  # where its settings start; each can be changed
    build: dict[str, Any] = field(default_factory=dict)  # keywords of the system class beyond its settings


def register_family(
    family: str, config_type: type[BaseModel], system_type: type, presets: dict[str, Preset], **capabilities: bool
) -> None:
    """Each preset under ``family.<preset>``; the one keyed "" under the family's own name."""
    for key, preset in presets.items():
        name = f"{family}.{key}" if key else family

        def make(llm, kb, config: dict[str, Any] | None = None, name: str = name, preset: Preset = preset):
            settings = parse_settings(config_type, name, config, defaults=preset.defaults, **preset.fixed)
            return system_type(llm, kb, settings, name=name, **preset.build)

        SYSTEMS.register(name)(
            SystemSpec(
                name,
                make,
                Capabilities(**capabilities),
                check_role(preset.role),
                preset.purpose,
                family=family,
                preset={**preset.defaults, **preset.fixed, **preset.build},
            )
        )
