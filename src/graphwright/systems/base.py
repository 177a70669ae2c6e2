"""The system contract: a factory takes an LLM, a KB and a config and returns
something with an async ``run(document) -> ExtractionResult``.

Systems never import a concrete LLM backend or KB; they get them here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Protocol

from graphwright.kb.protocol import KnowledgeBase
from graphwright.llm.base import LLM
from graphwright.model import Document, ExtractionResult
from graphwright.registry import Registry


class System(Protocol):
    name: str

    async def run(self, document: Document) -> ExtractionResult: ...


SystemFactory = Callable[[LLM, KnowledgeBase | None, dict[str, Any] | None], System]


@dataclass(frozen=True)
class Capabilities:
    """What a system declares of itself, known before it is built (the Ray engine asks before it builds)."""

    links_to_kb: bool = False  # it proposes KB entities for names: open-world linking checks them
    takes_dataset: bool = False  # it reads its dataset's schema, pool or domain (`eval run` passes them)
    uses_grown_graph: bool = False  # its tools read the graph grown so far (on the local engine only)


@dataclass(frozen=True)
class SystemSpec:
    name: str
    factory: SystemFactory
    capabilities: Capabilities
    role: str = "variant"  # recommended | baseline | paper | variant (ROLES): what `graphwright systems` says of it
    purpose: str = ""  # what it is for, one line
    family: str = ""  # the system a preset belongs to ("agentre" for agentre.fewshot); its own name when alone
    preset: dict[str, Any] | None = None  # a preset's settings over its family's (graphwright.systems.family)


#: The entry-point group systems register under (``[project.entry-points."graphwright.systems"]``): one entry
#: per family, named as the family (a system's name up to its first dot) and naming the module whose import
#: registers the family's systems. graphwright's own are in pyproject.toml; another package adds its
#: systems the same way, and nothing else lists their names.
ENTRY_POINTS = "graphwright.systems"


class SystemRegistry(Registry[SystemSpec]):
    """Systems by name, each family loaded from its entry point the first time one of its names is asked
    for (so a run imports only its own system's package); listing the names loads every family."""

    def __init__(self) -> None:
        super().__init__("system")
        self._loaded: set[str] = set()

    def get(self, name: str) -> SystemSpec:
        if name not in self._items:
            self._load(name.split(".", 1)[0])
        return super().get(name)

    def names(self) -> list[str]:
        for family in _entry_points():
            self._load(family)
        return super().names()

    def __contains__(self, name: str) -> bool:
        return name in self.names()

    def _load(self, family: str) -> None:
        entry = _entry_points().get(family)
        if entry is not None and family not in self._loaded:
            self._loaded.add(family)
            entry.load()


@cache
def _entry_points() -> dict[str, EntryPoint]:
    """The installed families, read from the packages' metadata once per process."""
    return {entry.name: entry for entry in entry_points(group=ENTRY_POINTS)}


SYSTEMS = SystemRegistry()
#: what `extract`, the demo and the web app run unless told otherwise: every fact the text states (issue 43)
DEFAULT_SYSTEM = "facts"
#: the default: the model glosses the names its text leaves open (linking/check.py, issue 61); the paper systems
#: keep the linking their benchmarks measured
DEFAULT_LINKING = {"facts": "checked"}


def make_system(name: str, llm: LLM, kb: KnowledgeBase | None, config: dict[str, Any] | None = None) -> System:
    """The system with its settings; one that links to the KB gets open-world linking after it unless
    the ``linking`` setting is ``closed`` (``link_risk`` tunes it: linking/system.py); every system's facts about things the text does not state
    are dropped (graphwright.linking.stated)."""
    from graphwright.linking.stated import StatedOnly
    from graphwright.linking.system import with_linking

    spec = SYSTEMS.get(name)
    settings = dict(config or {})
    mode = str(settings.pop("linking", DEFAULT_LINKING.get(name, "open")))
    link_risk = settings.pop("link_risk", None)
    system = spec.factory(llm, kb, settings)
    return StatedOnly(with_linking(system, kb, mode, spec.capabilities.links_to_kb, llm, link_risk), kb)


def register_system(
    name: str, *, role: str, purpose: str, family: str | None = None, **capabilities: bool
) -> Callable[[SystemFactory], SystemFactory]:
    """A decorator registering a system's factory under ``name`` with its role, what it is for and what it
    declares (``Capabilities``); ``family`` names the paper's system it is an architecture of (cie.react of
    "cie"). Presets of one system class register through graphwright.systems.family instead."""

    def deco(factory: SystemFactory) -> SystemFactory:
        SYSTEMS.register(name)(
            SystemSpec(name, factory, Capabilities(**capabilities), check_role(role), purpose, family=family or name)
        )
        return factory

    return deco


def capabilities(name: str) -> Capabilities:
    return SYSTEMS.get(name).capabilities


def system_names() -> list[str]:
    return SYSTEMS.names()


@dataclass(frozen=True)
class SystemEntry:
    name: str
    role: str  # recommended | baseline | paper | variant
    purpose: str
    family: str  # the system it is a preset or an architecture of; its own name when alone
    preset: dict[str, Any] | None  # a preset's settings over its family's; None when not a preset

    def relation(self) -> str:
        """How the name relates to its family, for `graphwright systems`."""
        if self.family == self.name:
            return ""
        if self.preset is None:
            return f"an architecture of {self.family}"
        settings = ", ".join(f"{key}={_setting(value)}" for key, value in self.preset.items())
        return f"{self.family} with {settings}" if settings else f"{self.family} with its settings' own defaults"


def _setting(value: Any) -> str:
    return (
        ",".join(map(str, value))
        if isinstance(value, list)
        else str(value).lower()
        if isinstance(value, bool)
        else str(value)
    )


ROLES = ("recommended", "baseline", "paper", "variant")


def check_role(role: str) -> str:
    if role not in ROLES:
        raise ValueError(f"role {role!r} is none of {', '.join(ROLES)}")
    return role


def system_catalogue() -> list[SystemEntry]:
    """Every system with its role and what it is for, as it registered: the default, then the other
    recommended ones, then baselines, paper configurations and variants."""
    entries = [
        SystemEntry(spec.name, spec.role, spec.purpose, spec.family, spec.preset)
        for spec in map(SYSTEMS.get, system_names())
    ]
    return sorted(entries, key=lambda e: (e.name != DEFAULT_SYSTEM, ROLES.index(e.role), e.name))
