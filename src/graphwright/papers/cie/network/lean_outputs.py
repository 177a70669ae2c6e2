"""Output models of the lean network (``lean=true``): the agents' answers with nothing the next step
does not read.

Against the paper's models (outputs.py) there is no ``thought`` field, a triple is a
``[subject, predicate, object]`` list instead of an object with three keys (half the tokens), and the
validation agent names the lines to drop instead of writing the Turtle again. The tools the strict
routes force run without an agent turn (nodes.py), so the URI agent's first answer is a mapping.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field, field_validator

from graphwright.papers.cie.network.outputs import Mapping, UriMappingOutput, mapping_from_choices
from graphwright.tools.uri_retrieval import SearchRequest

Triple = Annotated[list[str], Field(min_length=3, max_length=3)]


class LeanExtractorOutput(BaseModel):
    triples: list[Triple] = Field(description="every fact the text states, as [subject, predicate, object]")
    # a default, so that the complete triples of a list cut off at the budget still validate
    goto: Literal["uri_mapping_and_refinement", "validation_and_output"] = Field(
        default="uri_mapping_and_refinement", description="next agent"
    )
    instruction: str = Field(default="", description="what the next agent should do")

    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {"uri_mapping_and_refinement": ("triples",)}
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = {"uri_mapping_and_refinement": ("instruction",)}

    def free_triples(self) -> list[dict[str, str]]:
        keys = ("subject", "predicate", "object")
        return [dict(zip(keys, (part.strip() for part in t))) for t in self.triples if all(part.strip() for part in t)]


class LeanUriMappingOutput(BaseModel):
    goto: Literal["uri_retrieval_tool", "validation_and_output", "extractor"] = Field(description="next agent or tool")
    uri_mapping: list[Mapping] = Field(default_factory=list, description='for every term: its IRI, or "none"')
    tool_input: list[SearchRequest] = Field(
        default_factory=list, description="new searches {term, mode, kind}; else []"
    )
    instruction: str = Field(default="", description="what the extractor should fix; else empty")

    _from_choices = field_validator("uri_mapping", mode="before")(lambda value: mapping_from_choices(value))

    # the same routes carry the same payloads as in the paper's answer model
    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = UriMappingOutput.ROUTE_NEEDS
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = UriMappingOutput.ROUTE_EMPTIES


class LeanValidationOutput(BaseModel):
    goto: Literal["extractor", "uri_mapping_and_refinement", "finish"] = Field(description="next agent, or finish")
    remove: list[int] = Field(default_factory=list, description="numbers of the lines that are wrong; [] keeps all")
    instruction: str = Field(default="", description="what the next agent should fix; empty when you finish")

    ROUTE_NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "extractor": ("instruction",),
        "uri_mapping_and_refinement": ("instruction",),
    }
    ROUTE_EMPTIES: ClassVar[dict[str, tuple[str, ...]]] = {"finish": ("instruction",)}
