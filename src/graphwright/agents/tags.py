"""The XML-tag protocol of CIExMAS: ``<goto>agent</goto><instruction>...</instruction>``.

A missing or empty tag raises ModelOutputError whose message is fed back to
the model (error incorporation).
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from graphwright.errors import ModelOutputError

M = TypeVar("M", bound=BaseModel)


def find_tag(text: str, tag: str) -> str | None:
    """Content of the last ``<tag>...</tag>`` in text (models often restate drafts first)."""
    matches = re.findall(rf"<{tag}>(.*?)</{tag}>", text, flags=re.DOTALL | re.IGNORECASE)
    return matches[-1].strip() if matches else None


def require_tag(text: str, tag: str) -> str:
    value = find_tag(text, tag)
    if value is None:
        raise ModelOutputError(f"Your answer has no <{tag}>...</{tag}> tag. Add it and answer again.")
    if not value:
        raise ModelOutputError(f"The <{tag}> tag in your answer is empty. Fill it and answer again.")
    return value


def parse_tagged(text: str, output_type: type[M]) -> M:
    """Read one tag per field of ``output_type``; list/object fields hold JSON.

    This gives the same pydantic model as schema-constrained JSON decoding.
    """
    values: dict[str, Any] = {}
    for name, field in output_type.model_fields.items():
        raw = find_tag(text, name)
        if raw is None:
            if field.is_required():
                raise ModelOutputError(f"Your answer has no <{name}>...</{name}> tag. Add it and answer again.")
            continue
        annotation = str(field.annotation)
        if "list" in annotation or "dict" in annotation:
            try:
                values[name] = json.loads(raw) if raw else []
            except json.JSONDecodeError as exc:
                raise ModelOutputError(f"The <{name}> tag must hold valid JSON: {exc}") from exc
        else:
            values[name] = raw
    try:
        return output_type.model_validate(values)
    except ValidationError as exc:
        raise ModelOutputError(f"Your tagged answer is invalid: {_short(exc)}") from exc


def _short(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:5])
