"""Dependencies of the network graph, passed as LangGraph runtime context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphwright.agents.prompts import PromptTemplate, load_prompt
from graphwright.llm.base import LLM
from graphwright.systems.cie.network.config import NetworkConfig

PROMPTS_PACKAGE = "graphwright.systems.cie.network"


@dataclass
class NetworkContext:
    llm: LLM
    kb: Any
    config: NetworkConfig
    prompts: dict[str, PromptTemplate]


def load_prompts() -> dict[str, PromptTemplate]:
    return {name: load_prompt(PROMPTS_PACKAGE, name) for name in ("extractor", "uri_mapping", "validation_output")}
