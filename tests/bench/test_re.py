"""Relation extraction data and metrics: schemas, the five datasets, strict and boundary scores."""

from __future__ import annotations

import pytest

from graphwright.bench.data.gold import GoldDocument, GoldTerm, GoldTriple
from graphwright.bench.data.re_data import load_re_dataset
from graphwright.bench.eval.datasets import load_dataset
from graphwright.bench.eval.re_metrics import REScorer
from graphwright.errors import DataNotFoundError, UserError
from graphwright.model import ExtractionResult, Provenance, Term, Triple
from graphwright.model.schema import RelationSchema, RelationType, load_schema, name_entity_iri
from graphwright.paths import data_dir

SCHEMA = RelationSchema(name="news", relations=[RelationType(name="Work_For"), RelationType(name="Live_In")])
needs_data = pytest.mark.skipif(
    not (data_dir() / "conll04").is_dir(), reason=f"RE data not found under {data_dir()} (set GRAPHWRIGHT_DATA_DIR)"
)


def result(*triples, status="ok"):
    def term(text):
        return Term.iri(name_entity_iri(text), surface=text, label=text)

    return ExtractionResult(
        document_id="d",
        system="s",
        status=status,
        triples=[
            Triple(
                subject=term(h),
                predicate=Term.iri(SCHEMA.relation_iri(r), label=r),
                object=term(t),
                provenance=Provenance(system="s"),
            )
            for h, r, t in triples
        ],
    )


def gold(*triples):
    return GoldDocument(
        id="d",
        text="x",
        triples=[
            GoldTriple(
                subject=GoldTerm(surface=h), predicate=GoldTerm(iri=SCHEMA.relation_iri(r)), object=GoldTerm(surface=t)
            )
            for h, r, t in triples
        ],
    )


def test_strict_match_needs_exact_arguments_and_relation():
    doc = gold(("John Smith", "Work_For", "IBM"), ("John Smith", "Live_In", "New  York"))
    counts = REScorer().score_document(
        result(
            ("John Smith", "Work_For", "IBM"),
            ("John  Smith", "Work_For", "IBM"),  # the same after whitespace normalisation: counted once
            ("John Smith", "Work_For", "New York"),  # right pair, wrong relation
            ("john smith", "Live_In", "New York"),  # case counts
        ),
        doc,
    )
    strict, pairs = counts["triples"], counts["boundaries"]
    assert (strict.matched_pred, strict.predicted, strict.gold) == (1, 3, 2)
    assert (pairs.matched_pred, pairs.predicted, pairs.gold) == (2, 3, 2), "relation ignored"
    assert strict.precision == pytest.approx(1 / 3) and strict.recall == pytest.approx(1 / 2)


def test_failed_document_predicts_nothing():
    counts = REScorer().score_document(result(("A", "Work_For", "B"), status="failed"), gold(("A", "Work_For", "B")))
    assert counts["triples"].predicted == 0 and counts["triples"].recall == 0.0


def test_schema_file_in_both_forms(tmp_path):
    mapping = tmp_path / "s.yaml"
    mapping.write_text("relations:\n  works_for: {description: employed by, head: [Person], tail: [Org]}\n")
    schema = load_schema(mapping)
    assert schema.name == "s" and schema.names == ["works_for"]
    assert schema.guidelines() == "- works_for (Person -> Org): employed by"
    listed = tmp_path / "l.json"
    listed.write_text('{"name": "x", "relations": [{"name": "a", "iri": "http://ex.org/a"}, {"name": "b"}]}')
    schema = load_schema(listed)
    assert schema.relation_iri("a") == "http://ex.org/a" and schema.relation_iri("b").endswith("/schema/x/b")


@pytest.mark.parametrize(
    "text, error",
    [
        ("relations: []", "at least one relation"),
        ("relations: [{name: a}, {name: a}]", "relations named twice: a"),
        ("- a\n- b", "a mapping with 'name' and 'relations'"),
        ("relations: {a: {head: 3}}", "relations.0.head"),
    ],
)
def test_bad_schema_files_are_clear_errors(tmp_path, text, error):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(UserError, match=error):
        load_schema(path)
    with pytest.raises(DataNotFoundError):
        load_schema(tmp_path / "missing.yaml")


def test_entity_iris_are_stable_and_escaped():
    assert name_entity_iri("New  York") == name_entity_iri("New York")
    assert name_entity_iri('a "b" <c>').endswith("a%20%22b%22%20%3Cc%3E")


@needs_data
@pytest.mark.parametrize(
    "name, test, pool, relations",
    [
        ("conll04", 288, 922, 5),
        ("scierc", 551, 1861, 7),
        ("nyt", 5000, 5000, 24),
        ("webnlg", 703, 5019, 216),
        ("duie2", 2000, 4000, 48),
    ],
)
def test_datasets_load_with_schema_and_pool(name, test, pool, relations):
    data = load_re_dataset(name)
    assert (len(data.test), len(data.pool), len(data.schema.relations)) == (test, pool, relations)
    names = set(data.schema.names)
    triples = [t for s in data.test for t in s.triples]
    assert triples and all(t.relation in names for t in triples)
    # exact match is fair only if the gold arguments are written in the text
    inside = sum(t.head in s.text and t.tail in s.text for s in data.test for t in s.triples)
    assert inside / len(triples) > 0.99
    assert data.schema.guidelines().count("\n") == relations - 1


@needs_data
def test_re_dataset_runs_as_an_eval_dataset():
    data = load_dataset("conll04", limit=3)
    assert data.task == "re" and data.kb == "none" and data.system_settings == {"dataset": "conll04"}
    first = data.documents[0]
    assert first.text.startswith("An art exhibit at the Hakawati Theatre")
    assert [(t.subject.surface, t.predicate.iri.rsplit("/", 1)[1], t.object.surface) for t in first.triples] == [
        ("Hakawati Theatre", "OrgBased_In", "Jerusalem")
    ]
