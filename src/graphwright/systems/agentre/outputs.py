"""What the model must answer, as pydantic models: relations are an enum of the schema's names, so
constrained decoding cannot invent one."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, create_model


def triple_model(relations: list[str]) -> type[BaseModel]:
    return create_model(
        "Triple",
        head=(str, Field(description="the head entity, copied from the sentence")),
        relation=(Literal[tuple(relations)], Field(description="one of the schema's relations")),  # type: ignore[valid-type]
        tail=(str, Field(description="the tail entity, copied from the sentence")),
    )


def extraction_model(relations: list[str], reasoning: bool = False) -> type[BaseModel]:
    fields: dict = {}
    if reasoning:
        fields["reasoning"] = (str, Field(description="which entities the sentence names and which relations hold"))
    fields["triples"] = (list[triple_model(relations)], Field(description="every triple the sentence states; [] if none"))
    return create_model("Extraction", **fields)


def relation_choice_model(relations: list[str]) -> type[BaseModel]:
    return create_model("RelationChoice", relations=(
        list[Literal[tuple(relations)]],  # type: ignore[valid-type]
        Field(description="the relations the sentence expresses; [] if none")))


def react_step_model(actions: list[str], relations: list[str]) -> type[BaseModel]:
    return create_model(
        "Step",
        thought=(str, Field(description="what you know and what to do next")),
        action=(Literal[tuple(actions)], Field(description="the action to take")),  # type: ignore[valid-type]
        action_input=(str, Field(description="the action's input; empty for Finish")),
        triples=(list[triple_model(relations)], Field(description="with Finish: the final triples; else []")),
    )


class Lesson(BaseModel):
    lesson: str = Field(description="one sentence: the rule that avoids the mistake")


class Summary(BaseModel):
    summary: str = Field(description="at most two sentences about the entity")
