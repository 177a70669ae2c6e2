"""Which of several same-name KB entities the document means, read from the document's other names.

A KB entity's description says where it is or what it is ("city in and county seat of Jefferson County,
Alabama, United States"; "political party in Malta"; "1979 film by John Badham"). The document's other
capitalised words and the countries its demonyms name ("Maltese") are its cues:
- a place written with the place it lies in ("London, Ontario") is an entity whose description or aliases
  name that place; when no same-name entity's does, the KB lacks the one meant;
- among same-name entities, one whose description shares cues with the document is taken over one that
  shares none.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphwright.kb.records import KBRecord
from graphwright.linking.names import DEMONYMS, FUNCTION_WORDS, normalize

GEOGRAPHIC_LOCATION = "Q2221906"
COUNTRIES = frozenset({"Q6256", "Q3624078"})  # country, sovereign state
_CAPITALISED = re.compile(r"[A-Z][\w'’-]+(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z][\w'’-]+)*")


@lru_cache(maxsize=256)
def document_cues(text: str) -> frozenset[str]:
    """The document's capitalised words and names, folded, and the country of each demonym it writes."""
    cues = set()
    for match in _CAPITALISED.finditer(text):
        words = normalize(match.group(0))
        if not words or words in FUNCTION_WORDS:
            continue
        cues.add(words)
        cues.update(w for w in words.split() if w not in FUNCTION_WORDS and len(w) > 2)
        if words in DEMONYMS:
            cues.add(DEMONYMS[words])
    return frozenset(cues)


def described_by(record: KBRecord, cue: str) -> bool:
    """Whether the entity's description or one of its aliases names ``cue`` as whole words."""
    words = f" {normalize(' ; '.join([record.description, *record.aliases]))} "
    return f" {cue} " in words


def shared_cues(record: KBRecord, text: str, surface: str) -> int:
    """How many of the document's cues (other than the mention's own words) the entity's description names."""
    own = set(normalize(surface).split()) | {normalize(surface), normalize(record.label)}
    return sum(described_by(record, cue) for cue in document_cues(text) if cue not in own)


def is_place(kb, record: KBRecord) -> bool:
    """Whether the entity is a geographic location (a city, a region, a country...), by its classes."""
    return any(c == GEOGRAPHIC_LOCATION or GEOGRAPHIC_LOCATION in kb.superclasses(c, depth=6) for c in record.types)


def is_country(record: KBRecord) -> bool:
    return bool(COUNTRIES & set(record.types))


def qualifier(surface: str, text: str) -> str | None:
    """The place a mention is written with: "London, Ontario" -> "ontario" (folded); None when there is none
    or it is an abbreviation ("Salem, OR")."""
    match = re.search(rf"(?<!\w){re.escape(surface)},\s+([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)*)", text)
    if match is None or match.group(1).isupper():
        return None
    return normalize(match.group(1))
