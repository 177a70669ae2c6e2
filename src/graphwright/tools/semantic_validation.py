"""Semantic validation of triples against what the KB knows about each
property (CIExMAS section 4.2.3).

Checks the property's datatype (an item-valued property needs an entity as
object; a time, quantity or string property needs a literal) and, where the KB
has type constraints, the subject and value classes through the whole class
hierarchy (cycles cut, so it is loop-free). The classes are Wikidata's own (live
endpoint), a user ontology's domain and range, or, in the default KB, broad
classes derived from how each property is used (graphwright.kb.expected_types).
Where the KB has no constraint classes it says it cannot check them rather than
guess.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from graphwright.kb.namespaces import local_id
from graphwright.tools.turtle import ParsedTriple, parse_turtle
from graphwright.tools.type_constraints import check_type

ITEM_DATATYPES = {"wikibase-item", "wikibase-property", "wikibase-lexeme", "wikibase-form", "wikibase-sense"}


class TripleCheck(BaseModel):
    triple: tuple[str, str, str]
    verdict: Literal["valid", "invalid", "unchecked"]
    reasons: list[str] = Field(default_factory=list)
    expected_subject_types: list[str] = Field(default_factory=list)
    expected_object_types: list[str] = Field(default_factory=list)


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
    verdicts = [check_type(kb, s, prop, "subject")]
    if t.object.is_iri:
        verdicts.append(check_type(kb, o, prop, "value"))
    for v in verdicts:
        if v.fits is False:
            check.verdict = "invalid"
        if v.reason:
            check.reasons.append(v.reason)
    if not prop.subject_types and not prop.value_types and not prop.unchecked_constraints:
        check.reasons.append(f"the KB has no type constraints for {p}; subject and value types not checked")
    if check.verdict == "valid" and not datatype and not any(v.fits for v in verdicts):
        check.verdict = "unchecked"  # nothing at all could be checked
    if check.verdict == "invalid":
        check.expected_subject_types, check.expected_object_types = prop.subject_types, prop.value_types
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
