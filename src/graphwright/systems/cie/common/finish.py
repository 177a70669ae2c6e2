"""The last step of every architecture: parse the final Turtle and keep only the triples
whose IRIs the KB knows, in the right namespaces (CIExMAS section 4.4).

A rejected Turtle goes back once to the agent that wrote it, with the problems; after that,
or when the step limit forced the end, the good triples are kept and the rest dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from langgraph.graph import END
from langgraph.types import Command

from graphwright.errors import ModelOutputError
from graphwright.kb.namespaces import TURTLE_PREFIXES, local_id
from graphwright.linking.literals import typed_value
from graphwright.linking.names import FILLER, names_fit, normalize
from graphwright.store.sparql import sparql_literal
from graphwright.systems.cie.common.places import PLACE_PROPERTIES, chain_triples, place_chain
from graphwright.systems.cie.common.turn import trace_step
from graphwright.tools.turtle import salvage_turtle
from graphwright.tools.turtle_to_label import label_triples

FINISH = "finish"


@dataclass
class FinishOutcome:
    turtle: str
    triples: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    parse_error: str | None = None


def check_turtle(kb, turtle: str, agent: str) -> FinishOutcome:
    """Triples of ``turtle`` that pass the label check, each tagged with the ``agent`` that wrote it.

    Statements the parser rejects are left out and named in ``problems``; ``parse_error`` is set only
    when no statement parses."""
    turtle = turtle.strip()
    if not turtle:
        return FinishOutcome(turtle="")
    try:
        parsed, bad_statements = salvage_turtle(turtle)
    except ModelOutputError as exc:
        return FinishOutcome(turtle=turtle, problems=[str(exc)], parse_error=str(exc))
    outcome = FinishOutcome(turtle=TURTLE_PREFIXES + turtle, problems=bad_statements)
    for triple in parsed:
        report = label_triples(kb, [triple])
        if report.problems:
            outcome.problems.extend(report.problems)
            continue
        t = report.triples[0]
        outcome.triples.append({"subject": t.subject.model_dump(), "predicate": t.predicate.model_dump(),
                                "object": t.object.model_dump(), "agent": agent})
    return outcome


def draft_lines(triples: list[dict[str, str]], mapping: list[dict[str, Any]], kb=None, *,
                typed_values: bool = False, name_check: bool = False, place_chains: bool = False) -> list[dict[str, Any]]:
    """One Turtle line per free-form triple whose three parts all have a mapped IRI (surface -> iri),
    each line once, with the free-form triple it came from.

    With the ``kb``: ``typed_values`` writes the object of a property that takes a date or a number as
    a typed literal parsed from the free-form object, where the search could only
    offer items ("5 May 1961" -> the item "1961"); ``name_check`` leaves out a triple whose subject or
    object IRI has no KB name that fits the words it was mapped from ("cake" -> Kenya);
    ``place_chains`` reads a list of places as the object of a place-valued property as the chain of
    facts it states (places.py); such lines carry ``surfaces``, the words of each place."""
    iri_of = {m["surface"].strip().casefold(): m["iri"] for m in mapping if m.get("iri")}
    lines: dict[str, dict[str, Any]] = {}

    def add(s: str, p: str, o: str, t: dict[str, str], **extra: Any) -> None:
        line = f"{s} {p} {o} ."
        lines.setdefault(line, {"line": line, "free": [t["subject"], t["predicate"], t["object"]], **extra})

    for t in triples:
        s, p, o = (iri_of.get(str(t[k]).strip().casefold()) for k in ("subject", "predicate", "object"))
        if not (s and p and s.startswith("wd:") and p.startswith("wdt:")):
            continue
        if name_check and not _names_fit(kb, s, t["subject"]):
            continue
        value = _typed_value(kb, p, str(t["predicate"]), str(t["object"])) if typed_values else None
        if value is not None:
            add(s, p, value, t)
            continue
        chain = place_chain(kb, str(t["object"])) if place_chains and local_id(p) in PLACE_PROPERTIES else []
        if chain:
            words = {f"wd:{ident}": part for ident, part in chain}  # each place by its own words, not the list's
            for cs, cp, co in chain_triples(kb, local_id(s), local_id(p), [ident for ident, _ in chain]):
                add(f"wd:{cs}", f"wdt:{cp}", f"wd:{co}", t, surfaces=words)
        elif o and o.startswith("wd:") and not (name_check and not _names_fit(kb, o, t["object"])):
            add(s, p, o, t)
    return list(lines.values())


VALUE_DATATYPES = {"time", "quantity"}
_STEM = 4  # "born" / "born on", "died" / "died on", "population" / "has population"
_ANY_VALUE = {"date", "year", "time", "day", "number", "count", "value", "has", "was"}  # say nothing of which one


def _says(predicate: str, record) -> bool:
    """A word of the free-form predicate begins like a word of the property's label or aliases: a value
    is not written under a property the search offered for other words ("acquisition date" -> publication
    date)."""
    def stems(text: str) -> set[str]:
        return {w[:_STEM] for w in normalize(text).split() if len(w) > 2 and w not in FILLER | _ANY_VALUE}
    return bool(stems(predicate) & set().union(*(stems(n) for n in [record.label or "", *record.aliases])))


def _names_fit(kb, iri: str, surface: str) -> bool:
    record = kb.get(iri)
    return record is not None and names_fit(str(surface), [record.label or "", *record.aliases])


def _typed_value(kb, property_iri: str, predicate: str, words: str) -> str | None:
    """The Turtle literal for ``words`` when the property takes a date or a number, the free-form
    predicate says so in a word of the property's names, and they parse as one. Text-valued properties
    are left out: a small model's free-form object is a phrase, and a property such as "birth name" or
    "motto text" would take any phrase, a date included."""
    record = kb.get(property_iri)
    if record is None or record.datatype not in VALUE_DATATYPES or not _says(predicate, record):
        return None
    value = typed_value(record.datatype, words)
    return sparql_literal(value.lexical, datatype=value.datatype) if value else None


def draft_turtle(triples: list[dict[str, str]], mapping: list[dict[str, Any]]) -> str:
    """Turtle from free-form triples whose three parts all have a mapped IRI."""
    return "\n".join(entry["line"] for entry in draft_lines(triples, mapping))


def mapping_fallback(state: dict[str, Any]) -> str:
    """The fallback Turtle of architectures that keep free-form triples and a uri_mapping."""
    return draft_turtle(state.get("triples") or [], state.get("uri_mapping") or [])


def make_finish(fallback: Callable[[dict[str, Any]], str] | None = None):
    """A ``finish`` node. State fields: ``turtle`` and ``turtle_author`` (who wrote it), ``forced``
    (the step limit or budget ended the run), ``finish_attempts``. ``fallback(state)`` assembles a
    Turtle from the structured state when the run ends without a usable one from an agent."""

    async def finish(state: dict[str, Any], runtime) -> Command:
        kb, config = runtime.context.kb, runtime.context.config
        author = state.get("turtle_author") or ""
        outcome = check_turtle(kb, state.get("turtle") or "", author or "fallback")
        forced = bool(state.get("forced"))
        if fallback and (forced or not author) and (outcome.parse_error or not outcome.triples):
            outcome = check_turtle(kb, fallback(state), "fallback")
        retries_left = state.get("finish_attempts", 0) < config.finish_retries
        if outcome.problems and author and not forced and retries_left:
            error = ("ERROR: the final Turtle was rejected:\n- " + "\n- ".join(outcome.problems)
                     + "\nFix these triples or leave them out, then finish again.")
            return Command(goto=author, update={"finish_attempts": state.get("finish_attempts", 0) + 1,
                                                "feedback": error,
                                                "call_trace": trace_step(state, FINISH, "system", goto=author, error=error)})
        return Command(goto=END, update={"final_triples": outcome.triples, "final_turtle": outcome.turtle,
                                         "warnings": outcome.problems,
                                         "call_trace": trace_step(state, FINISH, "system", output=outcome.turtle[:2000])})

    return finish
