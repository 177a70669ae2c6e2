"""One output model per agent; JSON decoding and the XML-tag parser both yield these.

No maxLength/maxItems here; answer length is bounded by max_tokens. Bounds cost
agentre no decoding speed (docs/decisions.md); these nested models are unmeasured.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field, field_validator

from graphwright.papers.cie.common.outputs import FreeTriple
from graphwright.tools.uri_retrieval import SearchRequest

EXTRACTOR = "extractor"
URI_MAPPING = "uri_mapping_and_refinement"
VALIDATION = "validation_and_output"
URI_TOOL = "uri_retrieval_tool"
SEMANTIC_TOOL = "semantic_validation_tool"
LABEL_TOOL = "turtle_to_label_tool"
CHECK_TOOLS = "check_tools"  # lean network: both check tools on a hand-over, without an agent turn
FINISH = "finish"
NO_IRI = "none"  # the URI agent's answer for a surface form no candidate fits


class ExtractorOutput(BaseModel):
    thought: str = Field(description="one short sentence: which facts the text states")
    triples: list[FreeTriple] = Field(description="every fact as (subject, predicate, object) in words from the text")
    goto: Literal["uri_mapping_and_refinement", "validation_and_output"] = Field(description="next agent")
    instruction: str = Field(description="what the next agent should do")

    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {"uri_mapping_and_refinement": ("triples",)}
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = {"uri_mapping_and_refinement": ("instruction",)}


def mapping_from_choices(value):
    """The candidate-constrained schema asks for {surface: iri | "none"}: as Mapping entries."""
    if isinstance(value, dict):
        return [{"surface": s, "iri": iri} for s, iri in value.items() if iri and iri != NO_IRI]
    return value


class Mapping(BaseModel):
    surface: str = Field(description="the words from the triples")
    iri: str = Field(description="wd:Q... for entities, wdt:P... for properties")


class UriMappingOutput(BaseModel):
    thought: str = Field(description="one short sentence: what you do next and why")
    goto: Literal["uri_retrieval_tool", "validation_and_output", "extractor"] = Field(description="next agent or tool")
    tool_input: list[SearchRequest] = Field(
        default_factory=list, description="searches for uri_retrieval_tool: {term, mode, kind}; else []"
    )
    uri_mapping: list[Mapping] = Field(
        default_factory=list, description="chosen IRI for every subject, predicate and object; else []"
    )
    instruction: str = Field(default="", description="what the next agent should do")

    _from_choices = field_validator("uri_mapping", mode="before")(lambda value: mapping_from_choices(value))

    #: per route: fields that must be non-empty / fixed to [] (see agents/routing.py)
    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "uri_retrieval_tool": ("tool_input",),
        "validation_and_output": ("uri_mapping",),
        "extractor": ("instruction",),
    }
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = {
        "uri_retrieval_tool": ("uri_mapping", "instruction"),
        "validation_and_output": ("tool_input", "instruction"),
        "extractor": ("tool_input", "uri_mapping"),
    }


class ValidationOutput(BaseModel):
    thought: str = Field(description="one short sentence: what you do next and why")
    goto: Literal[
        "semantic_validation_tool", "turtle_to_label_tool", "extractor", "uri_mapping_and_refinement", "finish"
    ] = Field(description="next agent or tool, or finish")
    turtle: str = Field(
        default="",
        description="the corrected Turtle, one `wd:Q.. wdt:P.. wd:Q.. .` per line; empty keeps the current Turtle",
    )
    instruction: str = Field(default="", description="what the next agent should fix, if anything")

    #: per route: fields that must be non-empty / fixed to [] (see agents/routing.py)
    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "extractor": ("instruction",),
        "uri_mapping_and_refinement": ("instruction",),
    }
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = {
        "turtle_to_label_tool": ("turtle", "instruction"),
        "semantic_validation_tool": ("turtle", "instruction"),
        "finish": ("instruction",),
    }
