"""Settings of ``facts``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class FactsConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt setting is an error, not a silent default

    adapter: str = Field(
        default="facts",
        description="The LoRA adapter the model applies to the extraction call "
        "where it has one by this name (the embedded 1.5B model ships `facts`): its short prompt, "
        "without the relation table. none: the full prompt, untuned. With schema_file the full "
        "schema prompt is used, untuned.",
    )
    max_triples: int | None = Field(
        default=None,
        ge=1,
        le=120,
        description="Facts asked for per passage (default: "
        "24 from the untuned model, which loops on long lists; 80 from the adapter).",
    )
    glean: bool = Field(default=False, description="A second turn asks for the facts the first answer left out.")
    in_passing: bool = Field(
        default=True,
        description="Add the facts sentences state in passing, read without the "
        "model: occupations and citizenship before or after a person's name, an organisation's "
        "country and seat before its name, a place written with the place it lies in.",
    )
    max_tokens: int | None = Field(
        default=None,
        ge=32,
        description="Completion budget of the extraction answer (default: 640 untuned, 1600 from the adapter).",
    )
    parse_retries: int = Field(default=1, ge=0, le=5, description="Corrections of an answer that does not parse.")
    candidates: int = Field(
        default=4, ge=1, le=8, description="KB properties offered per relation phrase in the mapping call."
    )
    map_with_model: bool = Field(
        default=False,
        description="Ask the model (a second call) to map the phrases the "
        "relation table and the KB's labels do not; off: they keep their phrases. Off by "
        "default: with the 1.5B model it wrote more wrong facts than right ones on the dev "
        "texts of bench-facts.",
    )
    max_relation_words: int = Field(default=6, ge=1, description="Longer relation phrases are dropped as sentences.")
    max_argument_words: int = Field(default=10, ge=1, description="Longer subjects and objects are dropped as clauses.")
    schema_file: str | None = Field(
        default=None,
        description="The user's relation schema (YAML/JSON, as for agentre): "
        "its relations take the place of the KB's properties.",
    )
    outside_schema: Literal["keep", "drop"] = Field(
        default="keep",
        description="With schema_file, what becomes of a "
        "fact no schema relation holds: kept under its phrase (gwr:), or "
        "dropped and counted.",
    )
    pool_file: str | None = Field(
        default=None,
        description="The user's labelled examples (JSONL, as agentre reads: "
        "text, triples [[head, relation, tail], ...]): the nearest ones to each passage are "
        "shown as demonstrations. With schema_file their relations must be the schema's.",
    )
    demonstrations: int = Field(default=2, ge=1, le=3, description="With pool_file, the examples shown per passage.")
    pool_retriever: Literal["bm25", "tfidf", "embedding"] = Field(
        default="bm25", description="With pool_file, how the nearest examples are found."
    )
    token_budget: int | None = Field(default=None, ge=1, description="Tokens one document may spend in all.")

    @model_validator(mode="after")
    def _schema_mapping(self) -> FactsConfig:
        if self.schema_file and self.map_with_model:
            raise ValueError(
                "map_with_model chooses among KB properties; with schema_file the schema's relations "
                "are named in the extraction prompt instead: leave map_with_model off"
            )
        return self
