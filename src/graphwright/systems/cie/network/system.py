"""``cie.network``: run the graph on one document and turn its state into an ExtractionResult."""

from __future__ import annotations

from graphwright.systems.cie.common.system import CieGraphSystem
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
