"""Small name registries (systems, backends, KBs, tools...).

A decorator next to the definition registers it; an unknown name raises an
error listing the valid ones. A registry can also know names before they are registered: ``lazy`` maps a
name to the module whose import registers it, imported the first time that name is asked for (so a
command that runs one system imports only that system's package, and the registry imports none).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Generic, TypeVar

from graphwright.errors import UnknownNameError

T = TypeVar("T")


class Registry(Generic[T]):
    def __init__(self, kind: str, lazy: dict[str, str] | None = None):
        self.kind = kind
        self._items: dict[str, T] = {}
        self._lazy = dict(lazy or {})

    def register(self, name: str) -> Callable[[T], T]:
        def deco(obj: T) -> T:
            if name in self._items:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._items[name] = obj
            return obj

        return deco

    def get(self, name: str) -> T:
        if name not in self._items and name in self._lazy:
            importlib.import_module(self._lazy[name])
            if name not in self._items:
                raise LookupError(f"{self._lazy[name]} does not register the {self.kind} {name!r}")
        try:
            return self._items[name]
        except KeyError:
            raise UnknownNameError(self.kind, name, self.names()) from None

    def names(self) -> list[str]:
        return sorted(set(self._items) | set(self._lazy))

    def __contains__(self, name: str) -> bool:
        return name in self._items or name in self._lazy
