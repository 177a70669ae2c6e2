"""Prompt templates are versioned files next to the code that uses them.

``extractor.v1.txt`` is loaded by name ``extractor``; the version and a hash of
the text go into provenance and cache keys. A template holds a static part
(role, tools, guidelines, examples) and, after a ``---STATE---`` line, the
per-call part, so the static prefix is identical across calls and the
backend's prompt cache can reuse it.
"""

from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass
from importlib import resources

from graphwright.errors import UnknownNameError

STATE_MARKER = "---STATE---"
_FILE = re.compile(r"^(?P<name>[a-z_]+)\.(?P<version>v\d+)\.txt$")


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    version: str
    static: str
    dynamic: str

    @property
    def id(self) -> str:
        return f"{self.name}.{self.version}"

    @property
    def sha(self) -> str:
        return hashlib.sha256((self.static + self.dynamic).encode()).hexdigest()[:12]

    def render(self, **values: object) -> tuple[str, str]:
        """(system message, user message): the static part, then the filled dynamic part."""
        static = string.Template(self.static).substitute(values)
        dynamic = string.Template(self.dynamic).substitute(values)
        return static.strip(), dynamic.strip()


def load_prompt(package: str, name: str, version: str | None = None) -> PromptTemplate:
    """Load ``<name>.<version>.txt`` from ``<package>/prompts``; the newest version by default."""
    folder = resources.files(package).joinpath("prompts")
    found: dict[str, dict[str, str]] = {}
    for entry in folder.iterdir():
        m = _FILE.match(entry.name)
        if m:
            found.setdefault(m["name"], {})[m["version"]] = entry.name
    if name not in found:
        raise UnknownNameError("prompt", name, list(found))
    versions = found[name]
    if version is None:
        version = max(versions, key=lambda v: int(v[1:]))
    if version not in versions:
        raise UnknownNameError(f"version of prompt {name!r}", version, list(versions))
    text = folder.joinpath(versions[version]).read_text(encoding="utf-8")
    static, _, dynamic = text.partition(STATE_MARKER)
    return PromptTemplate(name=name, version=version, static=static, dynamic=dynamic)
