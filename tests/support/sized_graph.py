"""A stored graph of a chosen number of edges, shaped like extracted news: a few companies that many
people work for, cities, founding years. For the graph page's readability checks at 20 and 200 edges."""

from __future__ import annotations

import itertools
from pathlib import Path
from urllib.parse import quote

from graphwright.kb.namespaces import WDT
from graphwright.model import Document, ExtractionResult, Provenance, Term, Triple
from graphwright.store import GraphStore

FIRST = ["Ingrid", "Tomas", "Maren", "Oskar", "Liv", "Henrik", "Sigrid", "Anders", "Kari", "Jonas", "Eira", "Mats"]
LAST = ["Halvorsen", "Varhaug", "Solberg", "Lindqvist", "Aasen", "Brekke", "Nygaard", "Tveit", "Rønning"]
COMPANIES = [
    "Lumen Fjord",
    "Tidewater Instruments",
    "Harbour Lantern Press",
    "Northwind Analytics",
    "Kestrel Marine Robotics",
    "Bergvik Paper Mills",
    "Solstrand Energy",
    "Fjellhus Architects",
]
CITIES = ["Stavanger", "Bergen", "Trondheim", "Tromsø", "Ålesund", "Bodø", "Drammen", "Kristiansand"]
RELATIONS = [("P108", "employer"), ("P19", "place of birth"), ("P69", "educated at")]
UNIVERSITIES = ["University of Bergen", "Norwegian University of Science and Technology", "University of Oslo"]


def _triples(count: int) -> list[tuple[str, str, str, str]]:
    """``count`` facts: (subject, property, label, object), companies first so hubs exist at any size."""
    facts = []
    for i, company in enumerate(COMPANIES):
        facts.append((company, "P159", "headquarters location", CITIES[i % len(CITIES)]))
        facts.append((company, "P571", "inception", str(1990 + 3 * i)))
    people = (f"{a} {b}" for b, a in itertools.product(LAST, FIRST))
    for i, person in enumerate(people):
        facts.append((person, "P108", "employer", COMPANIES[i % len(COMPANIES)]))
        facts.append((person, "P19", "place of birth", CITIES[(i * 5) % len(CITIES)]))
        facts.append((person, "P69", "educated at", UNIVERSITIES[i % len(UNIVERSITIES)]))
    assert count <= len(facts), f"at most {len(facts)} facts"
    return facts[:count]


def iri(name: str) -> str:
    return "http://example.org/register/" + quote(name.replace(" ", "_"))


def fill_store(path: Path, edges: int) -> None:
    """A store at ``path`` holding ``edges`` distinct facts from one document."""
    text = "A register of Norwegian companies and the people who work for them."
    document = Document(id="register", text=text, source="register.txt")
    triples = []
    for subject, prop, label, obj in _triples(edges):
        value = (
            Term.literal(obj, datatype="http://www.w3.org/2001/XMLSchema#gYear")
            if obj.isdigit()
            else Term.iri(iri(obj), label=obj)
        )
        triples.append(
            Triple(
                subject=Term.iri(iri(subject), label=subject),
                predicate=Term.iri(WDT + prop, label=label),
                object=value,
                provenance=Provenance(system="facts", confidence=0.9),
            )
        )
    with GraphStore.open(path) as store:
        store.add_result(document, ExtractionResult(document_id=document.id, system="facts", triples=triples))
