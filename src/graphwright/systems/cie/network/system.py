"""``cie.network``: run the graph on one document and turn its state into an ExtractionResult."""

from __future__ import annotations

from typing import Any

from graphwright.systems.cie.common.system import CieGraphSystem, mapping_surfaces
from graphwright.systems.cie.network.graph import build_graph

NAME = "cie.network"
VERSION = "cie.network.v1"


class NetworkSystem(CieGraphSystem):
    name = NAME
    version = VERSION
    prompts_package = "graphwright.systems.cie.network"
    prompt_names = ("extractor", "uri_mapping", "validation_output")

    def build_graph(self):
        return build_graph()

    def surfaces(self, state: dict[str, Any]) -> dict[str, str]:
        return mapping_surfaces(state.get("uri_mapping") or [])

    def extra(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"steps": state.get("steps", 0), "free_triples": state.get("triples") or [],
                "uri_mapping": state.get("uri_mapping") or []}
