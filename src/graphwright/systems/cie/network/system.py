"""``cie.network``: run the graph on one document and turn its state into an ExtractionResult."""

from __future__ import annotations

from graphwright.kb.namespaces import WD
from graphwright.systems.cie.common.system import CieGraphSystem
from graphwright.systems.cie.network.graph import build_graph

NAME = "cie.network"
VERSION = "cie.network.v1"


class NetworkSystem(CieGraphSystem):
    name = NAME
    version = VERSION
    prompts_package = "graphwright.systems.cie.network"
    prompt_names = ("extractor", "uri_mapping", "validation_output")
    lean_prompt_names = ("lean_team", "lean_extractor", "lean_uri_mapping", "lean_validation")

    def __init__(self, llm, kb, config):
        if config.lean:
            self.prompt_names = self.lean_prompt_names
        super().__init__(llm, kb, config)

    def run_config(self):
        # open-world linking keeps a name the KB lacks as its own node; the name check would drop its fact
        if self.names_judged_after and self.config.name_check:
            return self.config.model_copy(update={"name_check": False})
        return self.config

    def surfaces(self, state):
        """The mapping's words per IRI; a place read from a list (place_chains) by its own words."""
        surfaces = super().surfaces(state)
        for check in state.get("checks") or []:
            surfaces.update({WD + iri.removeprefix("wd:"): words for iri, words in (check.get("surfaces") or {}).items()})
        return surfaces

    def build_graph(self):
        return build_graph()
