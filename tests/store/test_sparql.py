from __future__ import annotations

import pytest

from graphwright.errors import UserError
from graphwright.kb.namespaces import WD
from graphwright.store import escape_sparql_string, sparql_iri, sparql_literal

from .conftest import EVIL, make_result


@pytest.mark.parametrize(
    "raw, escaped",
    [
        ("plain", "plain"),
        ('say "hi"', 'say \\"hi\\"'),
        ("it's", "it\\'s"),
        ("back\\slash", "back\\\\slash"),
        ("a\nb\rc\td", "a\\nb\\rc\\td"),
        ("\b\f", "\\b\\f"),
        ("Warszawa 🇵🇱 \u2028", "Warszawa 🇵🇱 \u2028"),
    ],
)
def test_sparql_escape_sparql_string(raw, escaped):
    assert escape_sparql_string(raw) == escaped


@pytest.mark.parametrize(
    "label",
    [EVIL, 'x" } ; ?s ?p ?o . FILTER("1"="1', "x' . ?s ?p ?o #", 'tab\tand\nnewline \\" end'],
)
def test_sparql_escaped_literal_matches_exactly_that_label(store, document, label):
    store.add_result(document, make_result(document, label=label))
    rows = store.query(f"SELECT ?s WHERE {{ ?s rdfs:label {sparql_literal(label)} }}")
    assert rows == [{"s": WD + "Q7186"}]
    rows = store.query(f"SELECT ?s WHERE {{ ?s rdfs:label {sparql_literal(label + 'x')} }}")
    assert rows == []


def test_sparql_literal_with_datatype_and_language():
    assert sparql_literal("1", datatype="http://www.w3.org/2001/XMLSchema#integer") == (
        '"1"^^<http://www.w3.org/2001/XMLSchema#integer>'
    )
    assert sparql_literal("Paris", language="fr-FR") == '"Paris"@fr-FR'
    with pytest.raises(UserError):
        sparql_literal("x", language="en . }")


@pytest.mark.parametrize("bad", ["Q42", "http://x/> . ?s ?p ?o . <http://y", "http://x/a b", 'http://x/"', ""])
def test_sparql_iri_rejects_what_could_break_out(bad):
    with pytest.raises(UserError, match="not an absolute IRI"):
        sparql_iri(bad)


def test_sparql_iri_accepts_real_iris():
    assert sparql_iri(WD + "Q42") == f"<{WD}Q42>"
    assert sparql_iri("urn:graphwright:doc:a%3Ab:s") == "<urn:graphwright:doc:a%3Ab:s>"
