"""Does an entity satisfy a property's subject or value type constraint?

An entity fits when one of its P31 classes, or an ancestor of one through P279, is among the
allowed classes. Semantic validation follows the whole (cycle-cut, so loop-free) hierarchy;
network traversal allows one superclass level, as in CIExMAS section 4.2.2. The default KB's
constraint classes are broad classes derived from usage (:mod:`graphwright.kb.expected_types`), and
its type classes link straight to the broad classes they reach, so one level suffices there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from graphwright.kb.expected_types import BROAD_CLASSES

WHOLE_HIERARCHY = 64  # the KB's own depth cap; superclasses() cuts cycles, so this terminates

Role = Literal["subject", "value"]


@dataclass(frozen=True)
class TypeVerdict:
    fits: bool | None  # None: not checkable (no constraint classes, or the entity has no known type)
    reason: str = ""


def constraint_classes(prop, role: Role) -> list[str]:
    return list(prop.subject_types if role == "subject" else prop.value_types)


def unchecked_reason(prop, role: Role) -> str | None:
    """Why ``role`` of ``prop`` cannot be checked, or None when it can (or has no constraint at all)."""
    if constraint_classes(prop, role):
        return None
    kind = "subject type" if role == "subject" else "value type"
    if kind in prop.unchecked_constraints:
        return (
            f"{prop.id} has a {kind} constraint, but the KB lacks its classes (P2308 qualifiers are not in the "
            f"offline property data): not checked"
        )
    return None


def entity_classes(kb, ident: str, depth: int) -> set[str]:
    classes = set(kb.types(ident))
    for c in list(classes):
        classes.update(kb.superclasses(c, depth=depth))
    return classes


def entity_kinds(kb, qid: str, depth: int = WHOLE_HIERARCHY) -> set[str]:
    """The broad classes (``BROAD_CLASSES``) ``qid`` is an instance of, through its P31 types and their
    P279 ancestors up to ``depth`` levels; empty when it has no type or reaches none."""
    return entity_classes(kb, qid, depth) & BROAD_CLASSES.keys()


def type_fit(kb, qid: str, expected: list[str], depth: int = WHOLE_HIERARCHY) -> bool | None:
    """True when ``qid`` is an instance of one of ``expected`` (or of a subclass), False when it has
    types and none leads there, None when that is unknown (no expected classes, or no type)."""
    if not expected:
        return None
    have = entity_classes(kb, qid, depth)
    return bool(have & set(expected)) if have else None


def check_type(kb, ident: str, prop, role: Role, depth: int = WHOLE_HIERARCHY) -> TypeVerdict:
    allowed = constraint_classes(prop, role)
    if not allowed:
        return TypeVerdict(None, unchecked_reason(prop, role) or "")
    fits = type_fit(kb, ident, allowed, depth)
    if fits is None:
        return TypeVerdict(None, f"{role} {ident} has no known type; {role} type constraint not checked")
    if fits:
        return TypeVerdict(True)
    names = ", ".join(f"{c} ({kb.label(c) or '?'})" for c in allowed)
    return TypeVerdict(False, f"{role} {ident} is not of an allowed type ({names})")
