"""Typed SPARQL in a child process: the store's answers, a runaway query stopped at the time limit (the
next query still answered), answers capped in rows and bytes, and results stored while the child runs."""

from __future__ import annotations

import json

import pytest

from graphwright.errors import StoreError
from graphwright.store import GraphStore
from graphwright.store.bounded_query import AnswerTooLarge, BoundedQueries, QueryTimeout

from .conftest import EVIL, make_document, make_result

LABELS = "SELECT ?l WHERE { ?s rdfs:label ?l } ORDER BY ?l"
# The fixture's 91 quads joined six times over: COUNT gives no row before the join ends, and no machine
# counts 5.7e11 rows in 1.5 s (a three-way join counts its 7.5e5 in 0.15 s here: four-way would be ~14 s,
# close enough to the limit for a machine ten times faster)
EVERY_QUAD_SIX_TIMES_OVER = (
    "SELECT (COUNT(*) AS ?n) WHERE { " + " ".join(f"GRAPH ?g{i} {{ ?s{i} ?p{i} ?o{i} }}" for i in range(6)) + " }"
)


@pytest.fixture
def stored(tmp_path):
    """A store on disk that this process writes (as the server does), with one result in it."""
    store = GraphStore.open(tmp_path / "store")
    store.add_result(make_document(), make_result(make_document(), label=EVIL))
    yield store
    store.close()


@pytest.fixture
def queries(stored):
    bounded = BoundedQueries(stored.path, seconds=20, max_rows=10, max_bytes=2_000)
    yield bounded
    bounded.close()


def test_rows_are_the_stores_own_answer(stored, queries):
    found = queries.rows(LABELS, version=1)
    assert found.rows == stored.query(LABELS) and not found.truncated
    assert EVIL in [row["l"] for row in found.rows]  # the label comes back as data, unchanged


def test_more_rows_than_the_cap_are_cut_and_said_to_be(stored, queries):
    everything = stored.query("SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }")
    assert len(everything) > 10
    found = queries.rows("SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }", version=1)
    assert len(found.rows) == 10 and found.truncated


def test_a_runaway_query_is_stopped_and_the_next_one_answered(stored):
    with BoundedQueries(stored.path, seconds=1.5) as bounded:
        bounded.rows(LABELS, version=1)  # the child is started and has opened the store
        with pytest.raises(QueryTimeout, match="1.5 s limit"):
            bounded.rows(EVERY_QUAD_SIX_TIMES_OVER, version=1)
        assert bounded.rows(LABELS, version=1).rows == stored.query(LABELS)


def test_results_stored_later_are_seen_under_the_new_version(stored, queries):
    assert "Second" not in [row["l"] for row in queries.rows(LABELS, version=1).rows]
    other = make_document("doc:2")
    stored.add_result(other, make_result(other, label="Second"))
    assert "Second" in [row["l"] for row in queries.rows(LABELS, version=2).rows]


def test_the_protocol_answer_is_sparql_json_or_n_triples_and_capped_in_bytes(stored, queries):
    answer = queries.serialized("SELECT ?l WHERE { ?s rdfs:label ?l }", version=1)
    assert answer.media_type == "application/sparql-results+json"
    assert EVIL in [b["l"]["value"] for b in json.loads(answer.body)["results"]["bindings"]]
    triples = queries.serialized("CONSTRUCT { ?s rdfs:label ?l } WHERE { ?s rdfs:label ?l }", version=1)
    assert triples.media_type == "application/n-triples" and triples.body.count(b"\n") == len(stored.query(LABELS))
    with pytest.raises(AnswerTooLarge, match="add a LIMIT"):
        queries.serialized("SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }", version=1)


def test_a_bad_query_is_a_store_error_with_the_parsers_reason(queries):
    with pytest.raises(StoreError, match="invalid SPARQL"):
        queries.rows("SELECT WHERE {", version=1)
    assert queries.rows(LABELS, version=1).rows  # the child is still there
