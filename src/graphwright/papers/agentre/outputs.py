"""What the model must answer, as pydantic models: relations are an enum of the schema's names, so
constrained decoding cannot invent one, and free text has a length bound in the schema, so it cannot
loop until max_tokens."""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, create_model

#: characters of free text a field may hold; far above what good answers use (a thought: 70-190)
THOUGHT_CHARS, INPUT_CHARS, ENTITY_CHARS = 400, 200, 150
#: triples one answer may list (a CoNLL04 or SciERC sentence has at most a handful); same kind of bound
MAX_TRIPLES = 20


def text_field(description: str, max_chars: int) -> Any:
    """A string field whose bound is in the JSON schema only: llama.cpp's grammar closes the string at
    the bound (the 1.5B model otherwise repeats one sentence of a thought until its 512 tokens run out,
    and the cut JSON costs retries; measured: no slower decoding), while a longer answer from a server
    without constrained decoding still validates instead of costing a retry."""
    return Field(description=description, json_schema_extra={"maxLength": max_chars})


def triples_field(description: str) -> Any:
    return Field(description=description, json_schema_extra={"maxItems": MAX_TRIPLES})


def triple_model(relations: list[str], spans: list[str] | None = None) -> type[BaseModel]:
    """A triple; with ``spans``, head and tail are an enum of them (the sentence's word spans), so
    constrained decoding copies them from the sentence."""
    argument: Any = Literal[tuple(spans)] if spans else str  # type: ignore[valid-type]
    relation: Any = Literal[tuple(relations)]  # type: ignore[valid-type]
    return create_model(
        "Triple",
        head=(argument, text_field("the head entity, copied from the sentence", ENTITY_CHARS)),
        relation=(relation, Field(description="one of the schema's relations")),
        tail=(argument, text_field("the tail entity, copied from the sentence", ENTITY_CHARS)),
    )


def extraction_model(relations: list[str], reasoning: bool = False, spans: list[str] | None = None) -> type[BaseModel]:
    fields: dict = {}
    if reasoning:
        fields["reasoning"] = (
            str,
            text_field("which entities the sentence names and which relations hold", 2 * THOUGHT_CHARS),
        )
    triple: Any = triple_model(relations, spans)
    fields["triples"] = (
        list[triple],
        triples_field("every triple the sentence states; [] if none"),
    )
    return create_model("Extraction", **fields)


def relation_choice_model(relations: list[str]) -> type[BaseModel]:
    relation: Any = Literal[tuple(relations)]  # type: ignore[valid-type]
    return create_model(
        "RelationChoice",
        relations=(
            list[relation],
            Field(description="the relations the sentence expresses; [] if none"),
        ),
    )


def react_step_model(actions: list[str], relations: list[str]) -> type[BaseModel]:
    action: Any = Literal[tuple(actions)]  # type: ignore[valid-type]
    triple: Any = triple_model(relations)
    return create_model(
        "Step",
        thought=(str, text_field("what you know and what to do next", THOUGHT_CHARS)),
        action=(action, Field(description="the action to take")),
        action_input=(str, text_field("the action's input; empty for Finish", INPUT_CHARS)),
        triples=(list[triple], triples_field("with Finish: the final triples; else []")),
    )


# The models above are built per call (their enums are this run's names), so their fields are unknown to a
# type checker; these protocols state them for the code that reads an answer.


class TripleAnswer(Protocol):
    head: str
    relation: str
    tail: str


class ExtractionAnswer(Protocol):
    triples: list[TripleAnswer]


class RelationChoiceAnswer(Protocol):
    relations: list[str]


class ReactStepAnswer(Protocol):
    thought: str
    action: str
    action_input: str
    triples: list[TripleAnswer]


class Lesson(BaseModel):
    lesson: str = text_field("one sentence: the rule that avoids the mistake", THOUGHT_CHARS)


class Summary(BaseModel):
    summary: str = text_field("at most two sentences about the entity", THOUGHT_CHARS)
