"""Id parsing and SPARQL literal escaping (checked by running the query in pyoxigraph)."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from graphwright.errors import UserError
from graphwright.kb.namespaces import WD, parse_wikidata_id
from graphwright.sparql import sparql_literal


@pytest.mark.parametrize(
    "value,expected",
    [
        ("Q42", "Q42"),
        ("wd:Q42", "Q42"),
        ("wdt:P31", "P31"),
        (WD + "Q42", "Q42"),
        ("http://www.wikidata.org/prop/direct/P31", "P31"),
        ("<http://www.wikidata.org/entity/Q42>", "Q42"),
        ("https://www.wikidata.org/wiki/Property:P31", "P31"),
        (" Q42 ", "Q42"),
        ("q42", None),
        ("Q0", None),
        ("Q42x", None),
        ("http://example.org/Q42", None),
        ("", None),
        ("Q4 2", None),
    ],
)
def test_parse_wikidata_id(value, expected):
    assert parse_wikidata_id(value) == expected


@pytest.mark.parametrize(
    "text", ['Foo "bar" } baz', "O'Brien \\ back\\slash", "line\nbreak\ttab", "} . ?s ?p ?o {", ""]
)
def test_sparql_literal_round_trips_through_a_real_query(text):
    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode(WD + "Q1"), ox.NamedNode("http://x/label"), ox.Literal(text, language="en")))
    rows = list(store.query(f"SELECT ?s WHERE {{ ?s <http://x/label> {sparql_literal(text, language='en')} }}"))
    assert [r["s"].value for r in rows] == [WD + "Q1"]


def test_sparql_literal_rejects_bad_language_tags():
    with pytest.raises(UserError):
        sparql_literal("x", language='en" } DROP')
