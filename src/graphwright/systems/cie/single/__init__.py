"""Same-model baseline ``cie.single`` (issue 3): one LLM call extracts triples whose IRIs are
chosen from KB candidates retrieved without an LLM (same model, same KB as ``cie.network``)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from graphwright.errors import UserError
from graphwright.systems.base import SYSTEMS
from graphwright.systems.cie.single.candidates import Candidate, Candidates, retrieve_candidates
from graphwright.systems.cie.single.config import SingleConfig
from graphwright.systems.cie.single.system import SingleSystem


@SYSTEMS.register("cie.single")
def make_single_system(llm, kb, config: dict[str, Any] | None = None) -> SingleSystem:
    try:
        settings = SingleConfig.model_validate(config or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = first["loc"][0] if first["loc"] else "settings"
        fields = ", ".join(sorted(SingleConfig.model_fields))
        raise UserError(f"invalid cie.single setting: {first['msg']} ({where}); valid settings: {fields}") from exc
    return SingleSystem(llm, kb, settings)


__all__ = ["Candidate", "Candidates", "SingleConfig", "SingleSystem", "make_single_system", "retrieve_candidates"]
