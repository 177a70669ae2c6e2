"""Counting what linking did to a text's entities, and the made-up-text check."""

from __future__ import annotations

from graphwright.bench.data.gold import GoldDocument
from graphwright.bench.eval.open_world import MadeUpText, check_facts, entity_outcomes, made_up_texts
from graphwright.model import ExtractionResult, Provenance, Term, Triple

WD, WDT, GWE = (
    "http://www.wikidata.org/entity/",
    "http://www.wikidata.org/prop/direct/",
    "https://graphwright.dev/entity/",
)


def result(*triples: tuple[Term, str, Term]) -> ExtractionResult:
    return ExtractionResult(
        document_id="d",
        system="t",
        triples=[
            Triple(subject=s, predicate=Term.iri(WDT + p), object=o, provenance=Provenance(system="t"))
            for s, p, o in triples
        ],
    )


GOLD = GoldDocument.model_validate(
    {
        "id": "d",
        "text": "...",
        "triples": [
            {
                "subject": {"iri": "Q900001", "surface": "Katrin Vogel"},
                "predicate": {"iri": "P19"},
                "object": {"iri": "Q1055", "surface": "Hamburg"},
            },
            {
                "subject": {"iri": "Q900001", "surface": "Katrin Vogel"},
                "predicate": {"iri": "P26"},
                "object": {"iri": "Q900002", "surface": "Jonas Berg"},
            },
        ],
    }
)


def test_entity_outcomes_separate_wrong_links_from_unlinked_and_missed():
    pred = result(
        (Term.iri(WD + "Q467464", surface="Katrin Vogel"), "P19", Term.iri(WD + "Q1055", surface="Hamburg")),
        (Term.iri(WD + "Q467464", surface="Katrin Vogel"), "P26", Term.iri(GWE + "x", surface="Jonas Berg")),
    )
    counts = entity_outcomes(pred, GOLD, kb_has=lambda qid: qid == "Q1055")
    assert counts == {(False, "wrong"): 1, (True, "right"): 1, (False, "unlinked"): 1}
    assert entity_outcomes(result(), GOLD, kb_has=lambda qid: False) == {(False, "missed"): 3}


def test_check_facts_flags_made_up_names_on_kb_entities_and_years_as_items():
    text = MadeUpText(id="t", text="...", made_up=["Katrin Vogel", "Nordwind Logistics"], not_in_kb=["Pierre Curie"])
    check = check_facts(
        result(
            (
                Term.iri(GWE + "Nordwind", surface="Nordwind Logistics"),
                "P112",
                Term.iri(WD + "Q467464", surface="Vogel"),
            ),
            (Term.iri(GWE + "Nordwind", surface="Nordwind Logistics"), "P571", Term.iri(WD + "Q2075", surface="2009")),
            (Term.iri(WD + "Q7186", surface="Marie Curie"), "P26", Term.iri(WD + "Q40747", surface="Pierre Curie")),
            (Term.iri(WD + "Q7186", surface="Marie Curie"), "P19", Term.literal("1867")),
        ),
        text,
    )
    assert check.facts == 4 and check.on_made_up == 2
    assert [s.split(" ->")[0] for s in check.on_real_entity] == ["'Vogel'", "'Pierre Curie'"]
    assert check.values_as_items == ["'2009' -> Q2075 (?)"]


def test_the_made_up_texts_name_their_made_up_entities():
    texts = made_up_texts()
    assert len(texts) >= 5 and all(t.made_up or t.not_in_kb for t in texts)
    assert all(name in t.text for t in texts for name in t.made_up + t.not_in_kb)
