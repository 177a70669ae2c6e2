"""Same-model baseline ``cie.single`` (issue 3): one LLM call extracts triples whose IRIs are
chosen from KB candidates retrieved without an LLM (same model, same KB as ``cie.network``)."""

from __future__ import annotations

from typing import Any

from graphwright.papers.cie.single.candidates import Candidate, Candidates, retrieve_candidates
from graphwright.papers.cie.single.config import SingleConfig
from graphwright.papers.cie.single.system import SingleSystem
from graphwright.systems.base import register_system
from graphwright.systems.settings import parse_settings


@register_system(
    "cie.single",
    role="baseline",
    purpose="CIExMAS's single call: triples onto Wikidata in one answer",
    family="cie",
    links_to_kb=True,
)
def make_single_system(llm, kb, config: dict[str, Any] | None = None) -> SingleSystem:
    settings = parse_settings(SingleConfig, "cie.single", config)
    return SingleSystem(llm, kb, settings)


__all__ = ["Candidate", "Candidates", "SingleConfig", "SingleSystem", "make_single_system", "retrieve_candidates"]
