"""Text2KGBench's scoring as the benchmark defines it, and its ontologies as users' schemas."""

from __future__ import annotations

import pytest

from graphwright.bench.eval.text2kg import (
    Ontology,
    Text2KGSentence,
    averaged,
    benchmark_triples,
    detokenised,
    load_ontology,
    load_sentences,
    ontology_ids,
    score_sentence,
    train_pool,
    unscored_pool,
)
from graphwright.errors import DataNotFoundError
from graphwright.linking.literals import XSD
from graphwright.model import ExtractionResult, Provenance, Term, Triple

ONTOLOGY = Ontology(
    "ont_0_test",
    "Test",
    ("University", "City"),
    (
        {"pid": "city", "label": "city", "domain": "University", "range": "City"},
        {"pid": "established", "label": "established", "domain": "University", "range": "Year"},
        {"pid": "motto", "label": "motto", "domain": "University", "range": "string"},
    ),
)
SENTENCE = Text2KGSentence(
    "s1",
    "Nordhavn College was established in 1994 in Tromsø; its motto is Learn.",
    "ont_0_test",
    (
        ("Nordhavn_College", "established", "1994"),
        ("Nordhavn_College", "city", "Tromsø"),
        ("Nordhavn_College", "motto", '"Learn"'),
    ),
)


def test_only_triples_with_a_gold_relation_are_compared():
    written = [
        ("Nordhavn College", "established", "1994"),  # right: underscores and case aside
        ("Nordhavn  college", "city", "Bergen"),  # wrong, and its object is not in the sentence
        ("Nordhavn College", "founder", "Tromsø"),
    ]  # a relation no gold triple has: not compared
    score = score_sentence(SENTENCE, written, ONTOLOGY)
    assert (score.right, score.compared, score.written) == (1, 2, 3)
    assert score.precision == pytest.approx(0.5) and score.recall == pytest.approx(1 / 3)
    assert score.f1 == pytest.approx(2 * 0.5 * (1 / 3) / (0.5 + 1 / 3))
    assert score.conformance == pytest.approx(2 / 3) and score.relation_hallucination == pytest.approx(1 / 3)
    assert score.subject_hallucination == 0 and score.object_hallucination == pytest.approx(1 / 3)
    assert score.missed == ["Nordhavn_College | city | Tromsø", 'Nordhavn_College | motto | "Learn"']


def test_a_silent_system_scores_nothing_but_conforms():
    score = score_sentence(SENTENCE, [], ONTOLOGY)
    assert (score.precision, score.recall, score.f1, score.conformance) == (0, 0, 0, 1)
    assert averaged([score, score_sentence(SENTENCE, [("Nordhavn College", "established", "1994")], ONTOLOGY)])[
        "recall"
    ] == pytest.approx(1 / 6)


def test_results_are_written_as_the_benchmark_writes_triples():
    provenance = Provenance(system="facts")
    subject = Term.iri("https://graphwright.dev/entity/Nordhavn", surface="Nordhavn College", label="Nordhavn")
    triples = [
        Triple(
            subject=subject,
            predicate=Term.iri("http://dbpedia.org/ontology/" + name, label=name),
            object=obj,
            provenance=provenance,
        )
        for name, obj in [
            ("established", Term.literal("1994", datatype=XSD + "gYear")),
            ("openingDate", Term.literal("1994-05-02", datatype=XSD + "date")),
            ("staff", Term.literal("310", datatype=XSD + "decimal")),
            (
                "length",
                Term.literal("253260", datatype=XSD + "decimal", surface="253260.0 (millimetres)", unit="millimetres"),
            ),
            ("runwayLength", Term.literal("497", datatype=XSD + "decimal", surface="497.0")),
            ("motto", Term.literal("Learn")),
            ("city", Term.iri("http://www.wikidata.org/entity/Q25362", surface="Tromsø", label="Tromsø")),
        ]
    ]
    written = benchmark_triples(ExtractionResult(document_id="s1", system="facts", triples=triples))
    assert written == [
        ("Nordhavn College", "established", "1994"),
        ("Nordhavn College", "openingDate", "1994-05-02"),
        ("Nordhavn College", "staff", "310"),
        ("Nordhavn College", "length", "253260.0 (millimetres)"),
        ("Nordhavn College", "runwayLength", "497.0"),
        ("Nordhavn College", "motto", '"Learn"'),
        ("Nordhavn College", "city", "Tromsø"),
    ]


def test_the_ontologies_load_as_schemas():
    try:
        ids = ontology_ids()
    except DataNotFoundError as exc:
        pytest.skip(f"Text2KGBench data absent: {exc}")
    assert len(ids) == 19 and ids[0] == "ont_1_university" and ids[-1] == "ont_19_film"
    university = load_ontology("ont_1_university")
    schema = university.schema()
    assert schema.get("academicStaffSize").tail == ["number"]
    assert schema.get("director").iri == "http://dbpedia.org/ontology/director"
    sentences = load_sentences("ont_1_university", 20, 5)
    assert len(sentences) == 5 and sentences[0].id == "ont_1_university_test_21" and sentences[0].triples


def test_the_train_pool_holds_the_ontologys_relations_and_no_scored_fact():
    try:
        university = load_ontology("ont_1_university")
    except DataNotFoundError as exc:
        pytest.skip(f"Text2KGBench data absent: {exc}")
    scored = load_sentences("ont_1_university", 0, 25)
    try:
        pool, overlapping = train_pool(university, scored)
    except DataNotFoundError as exc:
        pytest.skip(f"WebNLG train (CasRel) absent: {exc}")
    relations = {r["label"] for r in university.relations}
    assert len(pool) > 100 and overlapping > 0, "WebNLG writes one set of facts in several sentences"
    keys = {"".join(t).replace("_", "").replace(" ", "").casefold() for s in scored for t in s.triples}
    for sample in pool:
        assert {r for _, r, _ in sample["triples"]} <= relations
        assert not keys & {"".join(t).replace(" ", "").casefold() for t in sample["triples"]}
        assert all(h in sample["text"] and t in sample["text"] for h, _, t in sample["triples"])


def test_the_unscored_sentences_pool_states_no_scored_fact():
    try:
        pool, overlapping = unscored_pool("ont_13_food", 25)
    except DataNotFoundError as exc:
        pytest.skip(f"Text2KGBench data absent: {exc}")
    scored = load_sentences("ont_13_food", 0, 25)
    keys = {"".join(t).replace("_", "").replace(" ", "").casefold() for s in scored for t in s.triples}
    assert pool and overlapping > 0 and len(pool) + overlapping == len(load_sentences("ont_13_food")) - 25
    assert not {s["text"] for s in pool} & {s.text for s in scored}
    for sample in pool:
        assert not keys & {"".join(t).replace(" ", "").casefold() for t in sample["triples"]}
        assert not any("_" in part for t in sample["triples"] for part in t), "names written as in text"


def test_casrel_text_is_written_as_people_write():
    assert (
        detokenised("Peter Stöger 's club ( 1 . FC Köln ) is in Cologne , Germany .")
        == "Peter Stöger's club (1. FC Köln) is in Cologne, Germany."
    )


def test_two_runs_compare_on_the_sentences_both_scored(tmp_path, monkeypatch):
    import json

    from graphwright.bench import text2kg

    monkeypatch.setattr(text2kg, "LEDGER", tmp_path)

    def ledger(name, f1s):
        rows = [
            {
                "id": f"ont_{o}_test_{i}",
                "status": "ok",
                "counts": {"f1": f1},
                "usage": {"prompt_tokens": 90, "completion_tokens": 10},
            }
            for (o, i), f1 in f1s.items()
        ]
        (tmp_path / f"text2kg--{name}.json").write_text(json.dumps({"documents": rows}))

    ledger("a", {("1", 1): 1.0, ("1", 2): 0.5, ("2", 1): 0.0, ("2", 2): 0.2})
    ledger("b", {("1", 1): 0.5, ("1", 2): 0.5, ("2", 1): 0.0})  # the second ontology's last sentence not yet run
    report = text2kg.compare("a", "b")
    assert report.startswith("3 sentences scored in both (4 and 3 in the ledgers)")
    # a: ontology 1 mean 0.75, ontology 2 mean 0.0 -> average 0.375; over sentences 0.5
    assert "a: F1 0.5000 over sentences, 0.3750 averaged over 2 ontologies; 100 tokens a sentence" in report
    assert "a minus b: +0.167" in report
