"""A short word written right after a number is a unit, a currency or a time zone (issue 61).

"98 kg" is the kilogram, not Kyrgyzstan; "70 mph" the mile per hour; "12:55 EAT" East Africa Time; and
"9:40 AM" or "17 GW" name nothing the KB holds (not the Order of Australia, not George Washington
University), so they are not linked at all.
"""

from __future__ import annotations

import re

from graphwright.kb.records import KBRecord

#: unit of measurement, time zone, currency
MEASURES = frozenset({"Q47574", "Q12143", "Q8142"})
SHORT = 4  # longer names after a number are names ("the 1997 Titanic")
_NUMBER = r"\d(?:[\d,.:]*\d)?\s*"


def after_number(surface: str, text: str) -> bool:
    """Whether every time the text writes this short word (as written), a number comes right before it."""
    if len(surface) > SHORT or not surface.isalpha():
        return False
    name = rf"(?<![\w.]){re.escape(surface)}(?![\w])"
    written = len(re.findall(name, text))
    return written > 0 and len(re.findall(rf"(?<![\w.]){_NUMBER}{re.escape(surface)}(?!\w)", text)) == written


def is_measure(kb, record: KBRecord) -> bool:
    """Whether the entity is a unit, a time zone or a currency, by its classes."""
    return any(c in MEASURES or MEASURES & set(kb.superclasses(c, depth=6)) for c in record.types)
