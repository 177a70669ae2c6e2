"""Facts checked against what their entities are, after linking, for every system that links (issue 61).

A small model gives a founder her company's inception, or a city as a country ("Brine & Kelp, country,
Ålesund"). The KB's classes say what a linked entity is; for a minted one, the document's other facts do
(a name with a date of birth or a school is a person). A fact its entities cannot hold is dropped, with
the reason, and counted:

- a person has no inception, location of formation, headquarters, industry or head count;
- "country" and "country of citizenship" take a country: a KB entity of a country class, never a city
  nor a name the KB lacks (the KB holds the countries; a name it lacks is not one);
- a sovereign state's country is itself ("Germany | country | Italy" is a slip; Scotland's is the UK);
- a founder, author, director or family member is no place: not a name its evidence writes as where
  something is or comes from ("Skarv Software, a small firm from Bodø" founded by Bodø).
"""

from __future__ import annotations

import re

from graphwright.kb.namespaces import is_unlinked, parse_wikidata_id
from graphwright.linking.geography import is_country
from graphwright.linking.occupations import HUMAN
from graphwright.model import Triple

#: properties whose subject is an organisation or a thing, never a person
NOT_OF_PERSONS = frozenset({"P571", "P740", "P159", "P452", "P1128", "P2139", "P1454"})
#: properties whose subject is a person (birth, death, schooling, work, family, citizenship, office, party)
OF_PERSONS = frozenset(
    {
        "P19",
        "P20",
        "P569",
        "P570",
        "P69",
        "P106",
        "P27",
        "P21",
        "P26",
        "P22",
        "P25",
        "P40",
        "P39",
        "P102",
        "P1412",
        "P3373",
        "P108",
        "P1066",
        "P802",
        "P512",
    }
)
#: properties whose value is a person (author, director, cast, chief executive, chairperson, family)
PERSON_VALUED = frozenset(
    {"P50", "P57", "P58", "P161", "P169", "P488", "P26", "P40", "P22", "P25", "P3373", "P1066", "P802"}
)
#: properties whose value is someone who acts: a person or, for a founder, a body
AGENT_VALUED = PERSON_VALUED | {"P112"}
#: a name written right after one of these is where something is or comes from
LOCATIVE = r"\b(?:in|from|near|outside|based in|headquartered in)\s+"
#: properties whose value is a country
COUNTRY_VALUED = frozenset({"P17", "P27", "P495"})
SOVEREIGN_STATE = "Q3624078"  # not "country": Scotland's country is the United Kingdom
HISTORICAL_COUNTRIES = frozenset({"Q3024240", "Q1250464", "Q417175"})  # historical country, realm, kingdom


class FactTypes:
    """Checks the facts of one document against one KB."""

    def __init__(self, kb):
        self.kb = kb
        self._countries = kb.get("Q6256") is not None  # a Wikidata KB (a user's ontology has its own classes)

    def check(self, triples: list[Triple]) -> tuple[list[Triple], list[tuple[Triple, str]]]:
        """The facts kept, and those dropped with the reason."""
        persons = self._persons(triples)
        kept, dropped = [], []
        for t in triples:
            reason = self._misfit(t, persons)
            if reason:
                dropped.append((t, reason))
            else:
                kept.append(t)
        return kept, dropped

    def _misfit(self, t: Triple, persons: set[str]) -> str | None:
        pid = _pid(t.predicate.value)
        if pid in NOT_OF_PERSONS and t.subject.value in persons:
            return f"{_name(t.subject)} is a person, and {pid} is not of persons"
        if pid in AGENT_VALUED and t.object.kind == "iri" and is_unlinked(t.object.value) and _written_as_place(t):
            return f"{_name(t.object)} is written as a place, and {pid} takes a person or a body"
        if pid == "P17" and t.subject.value != t.object.value and self._sovereign(t.subject.value):
            return f"{_name(t.subject)} is a sovereign state, and its country is itself"  # "Germany | country | Italy"
        if pid in COUNTRY_VALUED and self._countries and t.object.kind == "iri":
            if is_unlinked(t.object.value):
                return f"{_name(t.object)} is no country the KB knows, and {pid} takes a country"
            record = self.kb.get(t.object.value)
            if record is not None and not (is_country(record) or HISTORICAL_COUNTRIES & set(record.types)):
                return f"{_name(t.object)} ({record.description or record.id}) is not a country, and {pid} takes one"
        return None

    def _sovereign(self, entity: str) -> bool:
        record = None if is_unlinked(entity) else self.kb.get(entity)
        return record is not None and SOVEREIGN_STATE in record.types

    def _persons(self, triples: list[Triple]) -> set[str]:
        """The entities that are people: a KB human, or a name the document's facts treat as one."""
        persons = set()
        for t in triples:
            pid = _pid(t.predicate.value)
            if pid in OF_PERSONS:
                persons.add(t.subject.value)
            if pid in PERSON_VALUED and t.object.kind == "iri":
                persons.add(t.object.value)
        for term in {t.subject.value for t in triples}:
            if not is_unlinked(term):
                record = self.kb.get(term)
                if record is not None:
                    persons.discard(term)  # a KB entity is what its classes say
                    if HUMAN in record.types:
                        persons.add(term)
        return persons


def _written_as_place(t: Triple) -> bool:
    """Whether the fact's evidence writes its value right after "in", "from" or "near" ("a firm from Bodø")."""
    evidence = t.provenance.evidence.text if t.provenance.evidence else ""
    name = t.object.surface or t.object.label
    return bool(evidence and name and re.search(rf"{LOCATIVE}{re.escape(name)}(?!\w)", evidence, re.I))


def _pid(iri: str) -> str | None:
    ident = parse_wikidata_id(iri)
    return ident if ident and ident.startswith("P") else None


def _name(term) -> str:
    return term.label or term.surface or term.value
