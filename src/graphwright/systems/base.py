"""The system contract: a factory takes an LLM, a KB and a config and returns
something with an async ``run(document) -> ExtractionResult``.

Systems never import a concrete LLM backend or KB; they get them here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

from graphwright.llm.base import LLM
from graphwright.model import Document, ExtractionResult
from graphwright.registry import Registry


class System(Protocol):
    name: str

    async def run(self, document: Document) -> ExtractionResult: ...


SystemFactory = Callable[[LLM, Any, dict[str, Any] | None], System]

SYSTEMS: Registry[SystemFactory] = Registry("system")
#: what `extract`, the demo and the web app run unless told otherwise: every fact the text states (issue 43)
DEFAULT_SYSTEM = "facts"


def load_builtin_systems() -> None:
    """Import the built-in system packages so their factories register."""
    import graphwright.systems.agentic_kgr  # noqa: F401
    import graphwright.systems.agenticner  # noqa: F401
    import graphwright.systems.agentre  # noqa: F401
    import graphwright.systems.cie.baseline  # noqa: F401
    import graphwright.systems.cie.network  # noqa: F401
    import graphwright.systems.cie.react  # noqa: F401
    import graphwright.systems.cie.single  # noqa: F401
    import graphwright.systems.cie.ssa  # noqa: F401
    import graphwright.systems.cie.sssa  # noqa: F401
    import graphwright.systems.cooperkgc  # noqa: F401
    import graphwright.systems.facts  # noqa: F401
    import graphwright.systems.openie  # noqa: F401


def make_system(name: str, llm: LLM, kb: Any, config: dict[str, Any] | None = None) -> System:
    """The system with its settings; one that links to the KB gets open-world linking after it unless
    the ``linking`` setting is ``closed``; every system's facts about things the text does not state
    are dropped (graphwright.linking.stated)."""
    from graphwright.linking.stated import StatedOnly
    from graphwright.linking.system import with_linking

    load_builtin_systems()
    settings = dict(config or {})
    mode = str(settings.pop("linking", "open"))
    return StatedOnly(with_linking(SYSTEMS.get(name)(llm, kb, settings), kb, mode), kb)


def system_names() -> list[str]:
    load_builtin_systems()
    return SYSTEMS.names()


@dataclass(frozen=True)
class SystemEntry:
    name: str
    role: str  # recommended | baseline | paper | variant
    purpose: str


ROLES = ("recommended", "baseline", "paper", "variant")


def system_catalogue() -> list[SystemEntry]:
    """Every system with its role and what it is for (systems/catalogue.yaml): the default, then the other
    recommended ones, then baselines, paper configurations and variants."""
    import yaml

    raw = yaml.safe_load((Path(__file__).parent / "catalogue.yaml").read_text(encoding="utf-8"))
    entries = [SystemEntry(name, entry["role"], entry["purpose"]) for name, entry in raw.items()]
    return sorted(entries, key=lambda e: (e.name != DEFAULT_SYSTEM, ROLES.index(e.role), e.name))
