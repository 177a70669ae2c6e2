"""User settings of a system (``--set KEY=VALUE``) validated against its pydantic config model."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from graphwright.errors import UserError
from graphwright.model.files import read_mapping

C = TypeVar("C", bound=BaseModel)


def parse_settings(
    config_type: type[C],
    system: str,
    values: dict[str, Any] | None,
    *,
    defaults: dict[str, Any] | None = None,
    **fixed: Any,
) -> C:
    """``values`` over the system's ``defaults`` (where they differ from the config's own), plus the
    settings a preset system fixes (a baseline's mode, say); the error names the bad setting and lists
    the valid ones."""
    clash = sorted(set(values or {}) & set(fixed))
    if clash:
        raise UserError(f"{system} fixes {', '.join(clash)}; use the full system to change it")
    try:
        return config_type.model_validate({**(defaults or {}), **(values or {}), **fixed})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = first["loc"][0] if first["loc"] else "settings"
        fields = ", ".join(sorted(config_type.model_fields))
        raise UserError(f"invalid {system} setting: {first['msg']} ({where}); valid settings: {fields}") from exc


def read_settings_file(path: Path | str) -> dict[str, Any]:
    """A system configuration file (``--config``): a YAML or JSON mapping of settings, as ``--set`` takes
    them. File and folder settings written relative to it are read relative to it, so a configuration
    and its examples travel together."""
    path = Path(path)
    data = read_mapping(path, "configuration", "a mapping of settings (KEY: VALUE)")

    def beside(value: Any) -> Any:
        if isinstance(value, list):
            return [beside(v) for v in value]
        return str(path.parent / value) if isinstance(value, str) and not Path(value).is_absolute() else value

    def schema_beside(value: Any) -> Any:
        """A schema file named in a setting (cooperkgc's ``ner: people.yaml``, ``team: [ner:other.yaml]``)."""
        if isinstance(value, list):
            return [schema_beside(v) for v in value]
        if not isinstance(value, str):
            return value
        prefix, sep, rest = value.rpartition(":") if ":" in value and not Path(value).exists() else ("", "", value)
        return f"{prefix}{sep}{beside(rest)}" if Path(rest).suffix in SCHEMA_SUFFIXES else value

    return {
        key: beside(value) if key.endswith(("_file", "_dir")) or key == "corpus" else schema_beside(value)
        for key, value in data.items()
    }


SCHEMA_SUFFIXES = (".yaml", ".yml", ".json")
