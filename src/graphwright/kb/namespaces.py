"""Wikidata IRIs: entities and properties live in ``wd:``, direct claims use ``wdt:``."""

from __future__ import annotations

import re

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
#: Entities the text names but the KB lacks: minted by graphwright, never a KB link.
UNLINKED = "https://graphwright.dev/entity/"
#: Relations the text states and no KB property fits: minted from the phrase, never a KB property.
UNLINKED_RELATION = "https://graphwright.dev/relation/"

TURTLE_PREFIXES = (
    f"@prefix wd: <{WD}> .\n"
    f"@prefix wdt: <{WDT}> .\n"
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
)


def is_unlinked(iri: str) -> bool:
    return iri.startswith(UNLINKED) or iri.startswith("gwe:")


def is_unlinked_relation(iri: str) -> bool:
    return iri.startswith(UNLINKED_RELATION)


_ID = re.compile(r"^[PQ][1-9][0-9]*$")


def is_wikidata_id(value: str) -> bool:
    return bool(_ID.match(value))


def local_id(iri: str) -> str:
    """``http://www.wikidata.org/entity/Q42`` -> ``Q42``; other IRIs unchanged."""
    for ns in (WD, WDT):
        if iri.startswith(ns):
            return iri[len(ns) :]
    if iri.startswith("wd:") or iri.startswith("wdt:"):
        return iri.split(":", 1)[1]
    return iri


def short_iri(ident: str) -> str:
    """``Q42`` -> ``wd:Q42``, ``P31`` -> ``wdt:P31``: the prefixed form agents read and write in Turtle."""
    return ("wdt:" if ident.startswith("P") else "wd:") + ident


def entity_iri(qid_or_pid: str) -> str:
    """The ``wd:`` IRI of an item or property id."""
    return qid_or_pid if qid_or_pid.startswith("http") else WD + local_id(qid_or_pid)


def direct_property_iri(pid: str) -> str:
    """The ``wdt:`` IRI used as a predicate in a direct claim."""
    return WDT + local_id(pid)


_WIKI_PAGE = ("https://www.wikidata.org/wiki/", "http://www.wikidata.org/wiki/")


def parse_wikidata_id(value: str) -> str | None:
    """The Q/P id in any of the usual spellings, or None.

    Accepts ``Q42``, ``wd:Q42``, ``wdt:P31``, ``<http://www.wikidata.org/entity/Q42>``, the ``wdt:`` IRI,
    the wiki page URL and ``Property:P31``; anything else (including lower-case ids) gives None.
    """
    text = value.strip()
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    for page in _WIKI_PAGE:
        if text.startswith(page):
            text = text[len(page) :]
    if text.startswith("Property:"):
        text = text[len("Property:") :]
    text = local_id(text)
    return text if is_wikidata_id(text) else None
