"""The pydantic data model shared by every layer."""

from graphwright.model.document import Document, Span
from graphwright.model.events import Event, EventArgument, EventSchema, EventType
from graphwright.model.graph import Entity, Mention, Provenance, Term, Triple
from graphwright.model.result import ExtractionResult, TraceStep, Usage

__all__ = [
    "Document",
    "Entity",
    "Event",
    "EventArgument",
    "EventSchema",
    "EventType",
    "ExtractionResult",
    "Mention",
    "Provenance",
    "Span",
    "Term",
    "TraceStep",
    "Triple",
    "Usage",
]
