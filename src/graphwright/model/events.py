"""Events: who did what to whom, when and where, as n-ary nodes of the graph (paper 003).

An event schema names the event types a system may output, each with its argument roles. A user writes
one as YAML::

    name: company-news
    events:
      Acquisition:
        description: one company buys another
        roles: [Buyer, Acquired, Price, Time, Place]
      Appointment: {description: a person takes up a post, roles: [Person, Position, Organization, Time]}

Event types and roles get IRIs under the graphwright schema namespace; an extracted event becomes a node
with its type, its trigger (the word that says the event happened, with its span) and one edge per role
to the entity that fills it.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from pydantic import BaseModel, Field, field_validator

from graphwright.model.document import Span
from graphwright.model.files import load_model_file
from graphwright.model.graph import Provenance, Term
from graphwright.model.schema import SCHEMA_NS, distinct_names, listed

EVENT_NS = "urn:graphwright:event:"


def event_iri(document_id: str, system: str, index: int) -> str:
    """The node of the ``index``-th event a system found in a document: events have no KB identity, and two
    documents (or two systems) never share an event node."""
    return f"{EVENT_NS}{quote(document_id, safe='')}:{quote(system, safe='')}:{index}"


class EventType(BaseModel):
    name: str
    description: str = ""
    roles: list[str] = Field(default_factory=list, description="The argument roles an event of this type may have.")

    def guideline(self) -> str:
        """One line for a prompt: the type, its roles and its definition."""
        text = f"{self.name} (roles: {', '.join(self.roles) or 'none'})"
        return f"{text}: {self.description}" if self.description else text


class EventSchema(BaseModel):
    name: str
    events: list[EventType]
    language: str = "en"
    note: str = ""

    @field_validator("events")
    @classmethod
    def _distinct(cls, value: list[EventType]) -> list[EventType]:
        return distinct_names(value, "an event schema needs at least one event type", "event types")

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.events]

    def get(self, name: str) -> EventType | None:
        return next((e for e in self.events if e.name == name), None)

    def type_iri(self, name: str) -> str:
        return f"{SCHEMA_NS}{quote(self.name, safe='')}/event/{quote(name, safe='')}"

    def role_iri(self, role: str) -> str:
        # roles are shared between event types (Place, Time), so one role is one property
        return f"{SCHEMA_NS}{quote(self.name, safe='')}/role/{quote(role, safe='')}"

    def guidelines(self) -> str:
        return "\n".join(f"- {e.guideline()}" for e in self.events)


class EventArgument(BaseModel):
    """One role of an event and the entity that fills it."""

    role: str = Field(description="The role's property IRI.")
    entity: Term = Field(description="The argument entity (its IRI, with the text's words as surface).")
    span: Span | None = None


class Event(BaseModel):
    """An event found in the text: a node of its own, typed, with its trigger and its arguments."""

    iri: str
    type: str = Field(description="The event type's class IRI.")
    trigger: str = Field(description="The word or phrase that says the event happened.")
    trigger_span: Span | None = None
    arguments: list[EventArgument] = Field(default_factory=list)
    provenance: Provenance


def load_event_schema(path: Path | str) -> EventSchema:
    """An event schema from a YAML or JSON file; ``events`` may be a list or a name -> definition mapping."""
    return load_model_file(path, EventSchema, "event schema", "a mapping with 'name' and 'events'", listed("events"))
