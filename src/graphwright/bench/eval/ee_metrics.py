"""Event-extraction metrics (paper 003): strict micro P/R/F1 at the four levels the EE literature reports.

*triggers* (trigger identification): a predicted trigger is right when a gold event of the same
document has the same trigger text.
*trigger_types* (trigger classification): the same trigger text and the same event type.
*arguments* (argument identification, as in ACE: right when its event type and its text match a gold
argument): (event type, argument text), the role ignored.
*argument_roles* (argument classification): (event type, role, argument text).

Matching is on text, not on offsets, because LLM systems write the words they found, not where they
are. Texts are compared after Unicode (NFKC) and whitespace normalisation only, as the RE metrics do:
case and punctuation count. Each side is a set per document, so duplicates collapse: two events with
the same trigger text count once for *triggers*, and an argument text that fills the same role in two
events of the same type counts once. Predicted event types and roles are named by the last segment of
their IRIs (URL-unquoted); gold events name them directly. A failed document predicts nothing.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from urllib.parse import unquote

from graphwright.bench.data.gold import GoldDocument
from graphwright.bench.eval.metrics import Counts, set_counts
from graphwright.model import ExtractionResult
from graphwright.model.labelled import normalize_argument

EE_CATEGORIES = ("triggers", "trigger_types", "arguments", "argument_roles")


class EventView(NamedTuple):
    """An event as the metrics see it: names and texts, as written (not yet normalised)."""

    type: str
    trigger: str
    arguments: tuple[tuple[str, str], ...]  # (role, text)

    def as_row(self) -> dict[str, Any]:
        """A compact dict for a run's documents.jsonl."""
        return {
            "type": self.type,
            "trigger": self.trigger,
            "arguments": [{"role": role, "text": text} for role, text in self.arguments],
        }


def iri_name(value: str) -> str:
    """The name an IRI stands for: its last path segment, URL-unquoted (``.../event/Life.Die`` -> ``Life.Die``,
    ``.../event/vote.n%2Fa`` -> ``vote.n/a``); a plain name (no ``://``) stays as it is, slashes and all."""
    return unquote(value.rstrip("/").rsplit("/", 1)[-1]) if "://" in value else value


def predicted_events(result: ExtractionResult) -> list[EventView]:
    """A result's events as views; a failed result has none."""
    if result.status != "ok":
        return []
    return [
        EventView(
            iri_name(e.type),
            e.trigger,
            tuple((iri_name(a.role), a.entity.surface or a.entity.label or a.entity.value) for a in e.arguments),
        )
        for e in result.events
    ]


def gold_events(doc: GoldDocument) -> list[EventView]:
    return [EventView(e.type, e.trigger, tuple((a.role, a.surface) for a in e.arguments)) for e in doc.events]


def event_keys(events: list[EventView]) -> dict[str, set[tuple[str, ...]]]:
    """The items each category counts, over one document's events."""
    keys: dict[str, set[tuple[str, ...]]] = {c: set() for c in EE_CATEGORIES}
    for event in events:
        trigger = normalize_argument(event.trigger)
        keys["triggers"].add((trigger,))
        keys["trigger_types"].add((trigger, event.type))
        for role, text in event.arguments:
            keys["arguments"].add((event.type, normalize_argument(text)))
            keys["argument_roles"].add((event.type, role, normalize_argument(text)))
    return keys


class EEScorer:
    """Triggers and arguments matched by text, with and without their type and role; micro-averaged."""

    categories = EE_CATEGORIES

    def score_document(self, result: ExtractionResult, doc: GoldDocument) -> dict[str, Counts]:
        predicted, gold = event_keys(predicted_events(result)), event_keys(gold_events(doc))
        return {c: set_counts(predicted[c], gold[c]) for c in EE_CATEGORIES}
