"""``cie.network``: run the graph on one document and turn its state into an ExtractionResult."""

from __future__ import annotations

from graphwright.kb.namespaces import WD, WDT
from graphwright.papers.cie.common.system import CieGraphSystem
from graphwright.papers.cie.network.graph import build_graph

NAME = "cie.network"
VERSION = "cie.network.v1"


class NetworkSystem(CieGraphSystem):
    name = NAME
    version = VERSION
    prompts_package = "graphwright.papers.cie.network"
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

    def surfaces_of(self, state, triple, surfaces):
        """A drafted line's own words: the free-form triple it came from, and for a place read from a list
        (place_chains) that place's words. The same IRI may stand for other words on another line (the
        search gave Denmark for "Odense"), and open-world linking judges each link by these words."""
        key = tuple(triple[k]["value"] for k in ("subject", "predicate", "object"))
        for check in state.get("checks") or []:
            s, p, o = check["line"].removesuffix(" .").split(" ", 2)
            iris = (WD + s.removeprefix("wd:"), WDT + p.removeprefix("wdt:"), WD + o.removeprefix("wd:"))
            if iris[:2] == key[:2] and (iris[2] == key[2] or not o.startswith("wd:")):
                words = {iris[0]: check["free"][0], iris[2]: check["free"][2]}
                words.update(
                    {WD + iri.removeprefix("wd:"): part for iri, part in (check.get("surfaces") or {}).items()}
                )
                return {**surfaces, **words}
        return surfaces

    def build_graph(self):
        return build_graph()
