"""bench-facts scoring: properties with their inverses, names folded, a KB id where the KB has the entity,
values by value, wrong links counted, minted relations kept apart; and the gold files themselves."""

from __future__ import annotations

import pytest

from graphwright.bench.eval.facts_data import load_fact_texts, read_fact_text
from graphwright.bench.eval.facts_metrics import score_fact_text
from graphwright.errors import UserError
from graphwright.kb.namespaces import WD, WDT
from graphwright.linking.literals import XSD
from graphwright.model import ExtractionResult, Provenance, Term, Triple
from graphwright.model.schema import minted_relation_iri, name_entity_iri

GOLD = """id: company-2
kind: company
split: dev
text: |
  Havbris Sensorteknikk was founded in Bergen in 2014 by Ingrid Lauvås. Her daughter Ana Lauvås
  sells its sensors in Ålesund; it employs 4.2 thousand people.
entities:
  havbris: {name: Havbris Sensorteknikk, aliases: [Havbris]}
  ingrid: {name: Ingrid Lauvås}
  ana: {name: Ana Lauvås}
  bergen: {name: Bergen, kb: Q26793}
  alesund: {name: Ålesund}
facts:
  - [havbris, P112, ingrid]
  - [havbris, P740, bergen]
  - [havbris, P571, {date: "2014"}]
  - [ingrid, P40, ana]
  - [havbris, P1128, {quantity: "4.2", unit: thousand people}]
optional:
  - [ingrid, P31, {kb: Q5}]
unmappable:
  - [ana, sells sensors in, alesund]
"""


@pytest.fixture
def gold(tmp_path):
    path = tmp_path / "company-2.yaml"
    path.write_text(GOLD, encoding="utf-8")
    return read_fact_text(path)


def name(words: str) -> Term:
    return Term.iri(name_entity_iri(words), surface=words, label=words)


def result(*triples: tuple[Term, str, Term]) -> ExtractionResult:
    def predicate(p: str) -> Term:
        return Term.iri(WDT + p) if p.startswith("P") else Term.iri(minted_relation_iri("facts", p), label=p)

    return ExtractionResult(
        document_id="company-2",
        system="test",
        triples=[
            Triple(subject=s, predicate=predicate(p), object=o, provenance=Provenance(system="test"))
            for s, p, o in triples
        ],
    )


def test_right_wrong_and_missed_facts(gold):
    counts = score_fact_text(
        gold,
        result(
            (name("havbris sensorteknikk"), "P112", name("Ingrid Lauvås")),  # folded name
            (name("Ana Lauvås"), "P22", name("Ingrid Lauvås")),  # the inverse of P40, swapped: right
            (name("Havbris Sensorteknikk"), "P571", Term.literal("2014", datatype=XSD + "gYear")),
            (name("Havbris Sensorteknikk"), "P1128", Term.literal("4200", datatype=XSD + "decimal")),
            (name("Ingrid Lauvås"), "P31", Term.iri(WD + "Q5")),  # optional: right, not required
            (name("Havbris Sensorteknikk"), "P159", Term.iri(WD + "Q26793", surface="Bergen")),  # not stated: wrong
        ),
    )
    assert (counts.predicted, counts.right, counts.gold, counts.found) == (6, 5, 5, 4)
    assert counts.missed == ["[Havbris Sensorteknikk | P740 | Bergen]"]
    assert counts.wrong == ["[Havbris Sensorteknikk | P159 | Bergen (Q26793)]"]
    assert counts.precision == pytest.approx(5 / 6) and counts.recall == pytest.approx(4 / 5)


def test_links_right_missed_and_wrong(gold):
    right = score_fact_text(gold, result((name("Havbris"), "P740", Term.iri(WD + "Q26793", surface="Bergen"))))
    assert (right.found, right.links, right.wrong_links, right.missed_links) == (1, 1, 0, 0)
    missed = score_fact_text(gold, result((name("Havbris"), "P740", name("Bergen"))))
    assert (missed.found, missed.missed_links) == (1, 1)  # the fact is kept, its KB entity was not found
    wrong = score_fact_text(gold, result((name("Havbris"), "P112", Term.iri(WD + "Q7186", surface="Ingrid Lauvås"))))
    assert (wrong.found, wrong.links, wrong.wrong_links) == (0, 1, 1)  # a made-up person pinned on a real one


def test_minted_relations_are_counted_apart(gold):
    counts = score_fact_text(
        gold,
        result(
            (name("Ana Lauvås"), "sells sensors in", name("Ålesund")), (name("Havbris"), "founded in", name("Bergen"))
        ),
    )
    assert (counts.predicted, counts.minted, counts.minted_stated, counts.found) == (0, 2, 2, 0)


def test_a_bad_gold_file_names_its_problem(tmp_path):
    path = tmp_path / "company-5.yaml"
    path.write_text(GOLD.replace("company-2", "company-5"), encoding="utf-8")
    with pytest.raises(UserError, match="test split"):
        read_fact_text(path)
    path = tmp_path / "company-13.yaml"
    path.write_text(GOLD.replace("company-2", "company-13"), encoding="utf-8")
    with pytest.raises(UserError, match="no split"):
        read_fact_text(path)
    path.write_text(GOLD.replace("[havbris, P112, ingrid]", "[havbris, founded by, ingrid]"), encoding="utf-8")
    with pytest.raises(UserError, match="not a property id"):
        read_fact_text(path)


def test_the_shipped_texts_load_with_fixed_splits():
    texts = load_fact_texts()
    per_split = {split: sum(t.split == split for t in texts) for split in ("dev", "test", "dev2")}
    assert per_split == {"dev": 20, "test": 20, "dev2": 20} and len(texts) == 60
    assert all(t.facts and "\n" not in t.text for t in texts)
