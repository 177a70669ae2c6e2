"""The CIExMAS metrics: the paper's worked example (Tables 5.2 and 5.3), soft matches both ways,
macro versus micro averages, failed documents, literals and name-matched gold."""

from __future__ import annotations

import pytest

from graphwright.bench.data.gold import GoldDocument, literal_key
from graphwright.bench.eval.metrics import (
    Counts,
    PropertyHierarchy,
    Scorer,
    gold_facts,
    macro,
    micro,
    predicted_facts,
)
from graphwright.model import ExtractionResult, Provenance, Term, Triple

# Ids of Table 5.2: Angela Merkel, politician, CDU, tennis, Berlin; profession, member of,
# member of political party (a sub-property of "member of"), hobby, residence.
MERKEL, POLITICIAN, CDU, TENNIS, BERLIN = "Q567", "Q82955", "Q49762", "Q847", "Q64"
PROFESSION, MEMBER_OF, PARTY, HOBBY, LIVES_IN = "P106", "P463", "P102", "P1576", "P551"
HIERARCHY = PropertyHierarchy.from_dict({PARTY: [MEMBER_OF]})


def gold_doc(*triples: tuple[str, str, str], doc_id: str = "d") -> GoldDocument:
    return GoldDocument.model_validate(
        {
            "id": doc_id,
            "text": "...",
            "triples": [{"subject": {"iri": s}, "predicate": {"iri": p}, "object": {"iri": o}} for s, p, o in triples],
        }
    )


def result(*triples: tuple[str, str, str], status: str = "ok") -> ExtractionResult:
    prov = Provenance(system="test")
    return ExtractionResult(
        document_id="d",
        system="test",
        status=status,
        triples=[
            Triple(
                subject=Term.iri(f"http://www.wikidata.org/entity/{s}"),
                predicate=Term.iri(f"http://www.wikidata.org/prop/direct/{p}"),
                object=Term.iri(f"http://www.wikidata.org/entity/{o}"),
                provenance=prov,
            )
            for s, p, o in triples
        ],
    )


def score(pred: ExtractionResult, gold: GoldDocument, hierarchy=HIERARCHY) -> dict[str, Counts]:
    return Scorer(hierarchy).score(predicted_facts(pred), gold_facts(gold))


def test_table_5_3_from_the_table_5_2_example():
    predicted = result((MERKEL, PROFESSION, POLITICIAN), (MERKEL, MEMBER_OF, CDU), (MERKEL, HOBBY, TENNIS))
    gold = gold_doc((MERKEL, PROFESSION, POLITICIAN), (MERKEL, PARTY, CDU), (MERKEL, LIVES_IN, BERLIN))
    counts = score(predicted, gold)
    # category: (TP, FP, FN, precision, recall, F1) exactly as printed in Table 5.3
    table_5_3 = {
        "triples": (1, 2, 2, 0.33, 0.33, 0.33),
        "triples_parental": (2, 1, 1, 0.67, 0.67, 0.67),
        "triples_related": (2, 1, 1, 0.67, 0.67, 0.67),
        "subjects": (1, 0, 0, 1.00, 1.00, 1.00),
        "properties": (1, 2, 2, 0.33, 0.33, 0.33),
        "properties_parental": (2, 1, 1, 0.67, 0.67, 0.67),
        "properties_related": (2, 1, 1, 0.67, 0.67, 0.67),
        "objects": (2, 1, 1, 0.67, 0.67, 0.67),
        "entities": (3, 1, 1, 0.75, 0.75, 0.75),
    }
    for category, (tp, fp, fn, p, r, f1) in table_5_3.items():
        c = counts[category]
        assert (c.tp, c.fp, c.fn) == (tp, fp, fn), category
        assert (round(c.precision, 2), round(c.recall, 2), round(c.f1, 2)) == (p, r, f1), category


def test_parental_accepts_only_a_direct_super_property_of_the_gold_one():
    hierarchy = PropertyHierarchy.from_dict({"P3": ["P2"], "P2": ["P1"]})
    gold = gold_doc(("Q1", "P3", "Q2"))
    assert score(result(("Q1", "P2", "Q2")), gold, hierarchy)["triples_parental"].tp == 1
    assert score(result(("Q1", "P1", "Q2")), gold, hierarchy)["triples_parental"].tp == 0  # grandparent
    assert score(result(("Q1", "P1", "Q2")), gold, hierarchy)["triples_related"].tp == 1
    # a sub-property of the gold one is related, not parental
    sub = score(result(("Q1", "P3", "Q2")), gold_doc(("Q1", "P2", "Q2")), hierarchy)
    assert (sub["triples_parental"].tp, sub["triples_related"].tp, sub["triples"].tp) == (0, 1, 0)


def test_soft_matches_are_counted_from_both_sides_so_scores_stay_within_one():
    # Two predictions (the exact property and its parent) match the one gold triple: both are right
    # predictions, but the gold triple is found once.
    gold = gold_doc((MERKEL, PARTY, CDU))
    counts = score(result((MERKEL, PARTY, CDU), (MERKEL, MEMBER_OF, CDU)), gold)["triples_parental"]
    assert (counts.matched_pred, counts.predicted, counts.matched_gold, counts.gold) == (2, 2, 1, 1)
    assert counts.precision == 1.0 and counts.recall == 1.0
    # One prediction matching two gold triples (gold has the sub-property and the parent)
    gold = gold_doc((MERKEL, PARTY, CDU), (MERKEL, MEMBER_OF, CDU))
    counts = score(result((MERKEL, MEMBER_OF, CDU)), gold)
    assert (counts["triples_related"].matched_pred, counts["triples_related"].matched_gold) == (1, 2)
    assert counts["triples"].recall == 0.5 and counts["triples_related"].recall == 1.0


def test_hierarchy_cycles_end():
    hierarchy = PropertyHierarchy.from_dict({"P1": ["P2"], "P2": ["P1"]})
    assert hierarchy.ancestors("P1") == {"P1", "P2"}


def test_macro_weighs_documents_equally_and_micro_weighs_triples():
    big = gold_doc(*[("Q1", "P1", f"Q{i}") for i in range(10, 19)], ("Q1", "P1", "Q99"))
    small = gold_doc(("Q5", "P5", "Q6"))
    per_doc = [
        score(result(*[("Q1", "P1", f"Q{i}") for i in range(10, 19)], ("Q1", "P1", "Q98")), big),  # 9 of 10
        score(result(("Q5", "P5", "Q7")), small),  # 0 of 1
    ]
    assert macro(per_doc)["triples"].precision == pytest.approx((0.9 + 0.0) / 2)
    assert micro(per_doc)["triples"].precision == pytest.approx(9 / 11)
    assert macro(per_doc)["triples"].f1 == pytest.approx(0.45)


def test_a_failed_document_scores_zero():
    gold = gold_doc(("Q1", "P1", "Q2"))
    failed = result(("Q1", "P1", "Q2"), status="failed")
    counts = score(failed, gold)
    assert counts["triples"].predicted == 0 and counts["triples"].recall == 0.0
    empty_gold = gold_doc()
    assert macro([score(failed, empty_gold)], failed=[True])["triples"].f1 == 0.0
    assert macro([score(result(), empty_gold)], failed=[False])["triples"].f1 == 1.0


def test_name_matched_gold_and_literals():
    gold = GoldDocument.model_validate(
        {
            "id": "d",
            "text": "...",
            "triples": [
                {
                    "subject": {"surface": "Loud Tour", "names": ["the Loud Tour"]},
                    "predicate": {"iri": "P175"},
                    "object": {"surface": "Rihanna"},
                },
                {
                    "subject": {"iri": "Q1"},
                    "predicate": {"iri": "P569"},
                    "object": {"literal": "1913-01-01T00:00:00Z^^http://www.w3.org/2001/XMLSchema#dateTime"},
                },
            ],
        }
    )
    prov = Provenance(system="t")
    pred = ExtractionResult(
        document_id="d",
        system="t",
        triples=[
            Triple(
                subject=Term.iri("http://www.wikidata.org/entity/Q777", surface="The Loud tour"),
                predicate=Term.iri("http://www.wikidata.org/prop/direct/P175"),
                object=Term.iri("http://www.wikidata.org/entity/Q36844", label="Rihanna"),
                provenance=prov,
            ),
            Triple(
                subject=Term.iri("http://www.wikidata.org/entity/Q1"),
                predicate=Term.iri("wdt:P569"),
                object=Term.literal("1913", datatype="http://www.w3.org/2001/XMLSchema#gYear"),
                provenance=prov,
            ),
        ],
    )
    counts = Scorer().score(predicted_facts(pred), gold_facts(gold))
    assert counts["triples"].matched_gold == 2


def test_literal_keys():
    assert literal_key("1913-01-01T00:00:00Z^^http://www.w3.org/2001/XMLSchema#dateTime") == literal_key("1913")
    assert literal_key('"1951-10-08"^^xsd:date') == literal_key("1951-10-08T00:00:00Z")
    assert literal_key("+42") == literal_key("42")


def test_unlinked_entities_match_gold_entities_the_kb_lacks_by_name():
    """Open-world scoring: Vogel (not in the KB) kept unlinked is right; Vogel forced onto a real
    person with the same surface is wrong; Hamburg (in the KB) must be linked."""
    gold = GoldDocument.model_validate(
        {
            "id": "d",
            "text": "...",
            "triples": [
                {
                    "subject": {"iri": "Q900001", "surface": "Katrin Vogel"},
                    "predicate": {"iri": "P19"},
                    "object": {"iri": "Q1055", "surface": "Hamburg"},
                }
            ],
        }
    )
    prov = Provenance(system="test")
    vogel = Term.iri("https://graphwright.dev/entity/Katrin%20Vogel", surface="Katrin Vogel", label="Katrin Vogel")
    forced = Term.iri("http://www.wikidata.org/entity/Q467464", surface="Katrin Vogel")
    hamburg = Term.iri("http://www.wikidata.org/entity/Q1055", surface="Hamburg")
    unlinked_hamburg = Term.iri("https://graphwright.dev/entity/Hamburg", surface="Hamburg")
    born = Term.iri("http://www.wikidata.org/prop/direct/P19")
    scorer = Scorer(kb_has=lambda qid: qid == "Q1055")

    def triples_f1(s: Term, o: Term) -> float:
        pred = ExtractionResult(
            document_id="d", system="t", triples=[Triple(subject=s, predicate=born, object=o, provenance=prov)]
        )
        return scorer.score(predicted_facts(pred), gold_facts(gold))["triples"].f1

    assert triples_f1(vogel, hamburg) == 1.0
    assert triples_f1(forced, hamburg) == 0.0
    assert triples_f1(vogel, unlinked_hamburg) == 0.0
    assert (
        Scorer()
        .score(
            predicted_facts(
                ExtractionResult(
                    document_id="d",
                    system="t",
                    triples=[Triple(subject=vogel, predicate=born, object=hamburg, provenance=prov)],
                )
            ),
            gold_facts(gold),
        )["triples"]
        .f1
        == 0.0
    )
