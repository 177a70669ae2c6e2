"""Settings of the CIExMAS network architecture: the shared ones plus strict routing."""

from __future__ import annotations

from pydantic import Field

from graphwright.papers.cie.common.config import CieConfig, input_sized_cap


class NetworkConfig(CieConfig):
    max_steps: int = Field(default=8, ge=3, description="Agent calls before the run is wrapped up (step limit).")
    recursion_limit: int = Field(
        default=60, description="LangGraph super-step backstop; above max_steps plus tool steps."
    )
    strict_routing: bool = Field(
        default=True,
        description="Routes close by the state (see routes.py): search before mapping, check before judging.",
    )
    salvage_cut_off: bool = Field(
        default=False,
        description="lean=false: keep the complete part of a cut-off answer; off: the "
        "20-document benchmark of cie.network was measured with cut-off answers fed back.",
    )
    max_repairs: int = Field(
        default=1, ge=0, description="Strict routing: times the validation agent may send work back."
    )
    lean: bool = Field(
        default=True,
        description="The path for small models (lean_*.txt prompts, lean_outputs.py): the searches "
        "and checks strict routing forces run without an agent turn, one system message with the "
        "document for all agents, compact answers, the extractor's budget sized to the text (the complete part of a cut-off answer kept). "
        "false: the prompts and turns of the paper's design, as benchmarked before.",
    )
    extractor_min_tokens: int = Field(
        default=128,
        ge=16,
        description="lean: the least budget of the extractor's answer "
        "(a short text gets this much, a long one about its own length).",
    )

    typed_values: bool = Field(
        default=True,
        description="lean: a property that takes a date or a number gets the "
        "free-form object as a typed literal, instead of the item the search offered for it.",
    )
    name_check: bool = Field(
        default=True,
        description="lean, closed-world linking: a mapped entity with no KB name that "
        "fits the words it was mapped from is left out of the draft (the search returns hits even for "
        "words the KB lacks). Open-world linking judges names itself and keeps such an entity as its own node.",
    )
    place_chains: bool = Field(
        default=True,
        description="lean: a list of places as the object of a place-valued property "
        '("Datong District, Taipei, Taiwan") is drafted as the chain of facts it states (places.py).',
    )
    validator: bool = Field(
        default=False,
        description="lean: the validation agent judges the checked lines; off: the lines "
        "the check tools pass are the answer (the 1.5B validator removed none in 20 documents).",
    )

    def extractor_cap(self, text: str) -> int:
        if not self.lean:
            return self.extractor_max_tokens
        return input_sized_cap(text, self.extractor_max_tokens, self.extractor_min_tokens)
