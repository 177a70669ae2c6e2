"""A registry's lazy names: known before their module is imported, imported on first use, and a module
that does not register the name it is listed for is an error, not a silent miss."""

from __future__ import annotations

import types

import pytest

from graphwright.errors import UnknownNameError
from graphwright.registry import Registry


def test_a_lazy_name_imports_its_module_once_and_only_when_asked(monkeypatch):
    registry: Registry[str] = Registry("widget", lazy={"round": "widgets_round", "square": "widgets_square"})
    imported = []

    def module(name: str, registers: str | None):
        mod = types.ModuleType(name)
        imported.append(name)
        if registers:
            registry.register(registers)(f"a {registers} widget")
        return mod

    modules: dict[str, types.ModuleType] = {}  # what import_module keeps: a module is imported once
    monkeypatch.setattr(
        "importlib.import_module",
        lambda name: (
            modules.get(name) or modules.setdefault(name, module(name, "round" if name == "widgets_round" else None))
        ),
    )
    assert registry.names() == ["round", "square"] and "square" in registry and imported == []
    assert registry.get("round") == "a round widget" and registry.get("round") == "a round widget"
    assert imported == ["widgets_round"]
    with pytest.raises(LookupError, match="does not register the widget 'square'"):
        registry.get("square")
    with pytest.raises(UnknownNameError):
        registry.get("hexagon")
