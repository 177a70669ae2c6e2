"""One output model per agent; JSON decoding and the XML-tag parser both yield these."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from graphwright.tools.uri_retrieval import SearchRequest

EXTRACTOR = "extractor"
URI_MAPPING = "uri_mapping_and_refinement"
VALIDATION = "validation_and_output"
URI_TOOL = "uri_retrieval_tool"
SEMANTIC_TOOL = "semantic_validation_tool"
LABEL_TOOL = "turtle_to_label_tool"
FINISH = "finish"


class FreeTriple(BaseModel):
    subject: str = Field(max_length=120)
    predicate: str = Field(max_length=80)
    object: str = Field(max_length=120)


class ExtractorOutput(BaseModel):
    thought: str = Field(max_length=300, description="one or two sentences of reasoning")
    triples: list[FreeTriple] = Field(max_length=25, description="every fact as (subject, predicate, object) in words from the text")
    goto: Literal["uri_mapping_and_refinement", "validation_and_output"] = Field(description="next agent")
    instruction: str = Field(max_length=300, description="what the next agent should do")


class Mapping(BaseModel):
    surface: str = Field(max_length=120, description="the words from the triples")
    iri: str = Field(max_length=20, description="wd:Q... for entities, wdt:P... for properties")


class UriMappingOutput(BaseModel):
    thought: str = Field(max_length=300, description="one or two sentences of reasoning")
    goto: Literal["uri_retrieval_tool", "validation_and_output", "extractor"] = Field(description="next agent or tool")
    tool_input: list[SearchRequest] = Field(
        default_factory=list, max_length=30, description="searches for uri_retrieval_tool: {term, mode, kind}; else []"
    )
    uri_mapping: list[Mapping] = Field(
        default_factory=list, max_length=40, description="chosen IRI for every subject, predicate and object; else []"
    )
    instruction: str = Field(default="", max_length=300, description="what the next agent should do")


class ValidationOutput(BaseModel):
    thought: str = Field(max_length=300, description="one or two sentences of reasoning")
    goto: Literal[
        "semantic_validation_tool", "turtle_to_label_tool", "extractor", "uri_mapping_and_refinement", "finish"
    ] = Field(description="next agent or tool, or finish")
    turtle: str = Field(default="", max_length=4000, description="the triples as Turtle, one `wd:Q.. wdt:P.. wd:Q.. .` per line")
    instruction: str = Field(default="", max_length=300, description="what the next agent should fix, if anything")
