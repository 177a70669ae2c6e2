"""Semantic validation of triples against what the KB knows about each
property (CIExMAS section 4.2.3).

Checks the property's datatype (an item-valued property needs an entity as
object; a time, quantity or string property needs a literal) and, where the KB
has type constraints, the subject and value classes with one superclass level.
Where the KB has no constraint classes it says it cannot check them rather
than guess.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from graphwright.kb.namespaces import local_id
from graphwright.tools.turtle import ParsedTriple, parse_turtle

ITEM_DATATYPES = {"wikibase-item", "wikibase-property", "wikibase-lexeme", "wikibase-form", "wikibase-sense"}


class TripleCheck(BaseModel):
    triple: tuple[str, str, str]
    verdict: Literal["valid", "invalid", "unchecked"]
    reasons: list[str] = Field(default_factory=list)
    expected_subject_types: list[str] = Field(default_factory=list)
    expected_object_types: list[str] = Field(default_factory=list)


def _types_with_parents(kb, ident: str) -> set[str]:
    types = set(kb.types(ident))
    for t in list(types):
        types.update(kb.superclasses(t, depth=1))
    return types


def _check_types(kb, check: TripleCheck, ident: str, allowed: list[str], role: str) -> None:
    if not allowed:
        return
    have = _types_with_parents(kb, ident)
    if not have:
        check.reasons.append(f"{role} {ident} has no known type; type constraint not checked")
    elif not have & set(allowed):
        check.verdict = "invalid"
        check.reasons.append(f"{role} {ident} is not of an allowed type ({', '.join(allowed)})")


def check_triple(kb, t: ParsedTriple) -> TripleCheck:
    s, p = local_id(t.subject.value), local_id(t.predicate.value)
    o = local_id(t.object.value) if t.object.is_iri else t.object.value
    check = TripleCheck(triple=(s, p, o), verdict="valid")
    prop = kb.get(p)
    if prop is None or prop.kind != "property":
        check.verdict = "invalid"
        check.reasons.append(f"{p} is not a known property")
        return check
    datatype = prop.datatype
    if datatype in ITEM_DATATYPES and not t.object.is_iri:
        check.verdict = "invalid"
        check.reasons.append(f"{p} ({prop.label}) links to an item: the object must be wd:Q..., not a literal")
    elif datatype and datatype not in ITEM_DATATYPES and t.object.is_iri:
        check.verdict = "invalid"
        check.reasons.append(f"{p} ({prop.label}) has datatype {datatype}: the object must be a literal")
    subject_types = getattr(prop, "subject_types", None) or []
    value_types = getattr(prop, "value_types", None) or []
    if not subject_types and not value_types:
        check.reasons.append(f"the KB has no type constraints for {p}; subject and value types not checked")
        if check.verdict == "valid" and not datatype:
            check.verdict = "unchecked"
    _check_types(kb, check, s, subject_types, "subject")
    if t.object.is_iri:
        _check_types(kb, check, o, value_types, "object")
    if check.verdict == "invalid":
        check.expected_subject_types, check.expected_object_types = subject_types, value_types
    return check


def semantic_validation(kb, turtle: str) -> list[TripleCheck]:
    """Validate each triple of ``turtle`` against property datatypes and type constraints.

    kb: the knowledge base with property metadata. turtle: the candidate
    output (wd:/wdt: prefixes predeclared). Raises ModelOutputError when the
    Turtle does not parse.
    """
    return [check_triple(kb, t) for t in parse_turtle(turtle)]


def render_checks(checks: list[TripleCheck]) -> str:
    lines = []
    for c in checks:
        line = f"{' '.join(c.triple)}: {c.verdict}"
        if c.reasons:
            line += " - " + "; ".join(c.reasons)
        if c.expected_subject_types or c.expected_object_types:
            line += f" (expected subject types {c.expected_subject_types}, object types {c.expected_object_types})"
        lines.append(line)
    return "\n".join(lines) or "No triples to validate."
