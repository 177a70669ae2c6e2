"""Reading a user's YAML or JSON file into a pydantic model, with errors that name the file and field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from graphwright.errors import DataNotFoundError, UserError

M = TypeVar("M", bound=BaseModel)


def read_mapping(path: Path | str, what: str, shape: str) -> dict[str, Any]:
    """``path`` (JSON by suffix, else YAML) as a mapping; ``what`` and ``shape`` word the errors
    ("schema", "a mapping with 'name' and 'relations'")."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise DataNotFoundError(f"{what} file {path} not found")
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise UserError(f"{path}: not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {exc}") from exc
    if not isinstance(data, dict):
        raise UserError(f"{path}: a {what} is {shape}")
    return data


def load_model_file(
    path: Path | str, model: type[M], what: str, shape: str, prepare: Callable[[dict], dict] = lambda d: d
) -> M:
    """``path`` read by :func:`read_mapping` as ``model``; ``name`` defaults to the file's stem."""
    path = Path(path)
    data = prepare({"name": path.stem, **read_mapping(path, what, shape)})
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise UserError(f"{path}: {where}: {err['msg']}") from exc
