"""Does an entity satisfy a property's subject or value type constraint?

An entity fits when one of its P31 classes, or an ancestor of one through P279, is among the
allowed classes. Semantic validation follows the whole (cycle-cut, so loop-free) hierarchy;
network traversal allows one superclass level, as in CIExMAS section 4.2.2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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
        return (f"{prop.id} has a {kind} constraint, but the KB lacks its classes (P2308 qualifiers are not in the "
                f"offline property data): not checked")
    return None


def entity_classes(kb, ident: str, depth: int) -> set[str]:
    classes = set(kb.types(ident))
    for c in list(classes):
        classes.update(kb.superclasses(c, depth=depth))
    return classes


def check_type(kb, ident: str, prop, role: Role, depth: int = WHOLE_HIERARCHY) -> TypeVerdict:
    allowed = constraint_classes(prop, role)
    if not allowed:
        return TypeVerdict(None, unchecked_reason(prop, role) or "")
    have = entity_classes(kb, ident, depth)
    if not have:
        return TypeVerdict(None, f"{role} {ident} has no known type; {role} type constraint not checked")
    if have & set(allowed):
        return TypeVerdict(True)
    names = ", ".join(f"{c} ({kb.label(c) or '?'})" for c in allowed)
    return TypeVerdict(False, f"{role} {ident} is not of an allowed type ({names})")
