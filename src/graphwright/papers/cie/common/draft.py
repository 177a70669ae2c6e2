"""The draft Turtle the agents' work adds up to: one line per free-form triple whose parts have IRIs.

With the KB, three steps act where a small model cannot (issue 27; docs/decisions.md): dates and
numbers as typed values, no entity whose KB names do not fit its words, place lists as the facts they
state.
"""

from __future__ import annotations

from typing import Any

from graphwright.kb.namespaces import local_id
from graphwright.linking.literals import typed_value
from graphwright.linking.names import FILLER, names_fit, normalize
from graphwright.papers.cie.common.places import PLACE_PROPERTIES, chain_triples, place_chain
from graphwright.sparql import sparql_literal


def draft_lines(
    triples: list[dict[str, str]],
    mapping: list[dict[str, Any]],
    kb=None,
    *,
    typed_values: bool = False,
    name_check: bool = False,
    place_chains: bool = False,
) -> list[dict[str, Any]]:
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
