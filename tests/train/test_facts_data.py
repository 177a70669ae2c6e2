"""The `facts` adapter's training examples: Re-DocRED's facts as `facts` writes them (relations that map back
to their property, one direction of inverse pairs, names the text holds), and the written texts checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphwright.bench.data.facts_training import (
    INVERSES,
    Counts,
    check_written,
    docred_examples,
    docred_phrase,
    written_examples,
)
from graphwright.errors import UserError
from graphwright.systems.facts.relations import Mapping, relation_table, table_entry

WRITTEN = Path(__file__).resolve().parents[2] / "data" / "training"
LABELS = {
    "P30": "continent",
    "P131": "located in the administrative territorial entity",
    "P17": "country",
    "P569": "date of birth",
    "P40": "child",
    "P26": "spouse",
}


def test_a_relation_is_written_as_the_table_maps_it_back():
    assert docred_phrase("P569", "date", LABELS) == "born on"  # "born in" maps a date too, but is for places
    assert docred_phrase("P19", "item", LABELS) == "born in"
    assert docred_phrase("P571", "date", LABELS) == "founded on"
    assert docred_phrase("P30", "item", LABELS) == "continent"  # no table phrase: the property's label
    for relation in relation_table().values():
        for kind, mapping in relation.properties.items():
            if mapping.swapped:
                continue
            phrase = docred_phrase(mapping.property, kind, LABELS | {mapping.property: "label"})
            assert table_entry(phrase, kind).properties[kind] == Mapping(mapping.property), (phrase, kind)


def mention(name: str, sent: int, start: int, end: int, kind: str = "LOC") -> dict:
    return {"name": name, "sent_id": sent, "pos": [start, end], "type": kind}


def test_a_document_becomes_its_text_and_every_fact_once():
    doc = {
        "sents": [
            ["Bergen", "is", "a", "city", "in", "Vestland", ",", "Norway", "."],
            ["Its", "mayor", "Ida", "Holm", "married", "Carl", "Dahl", "in", "1990", "."],
        ],
        "vertexSet": [
            [mention("Bergen", 0, 0, 1)],
            [mention("Vestland", 0, 5, 6)],
            [mention("Norway", 0, 7, 8)],
            [mention("Ida Holm", 1, 2, 4, "PER")],
            [mention("Carl Dahl", 1, 5, 7, "PER")],
        ],
        "labels": [
            {"h": 1, "t": 0, "r": "P150", "evidence": [0]},  # Vestland contains Bergen: turned round
            {"h": 0, "t": 2, "r": "P17", "evidence": [0]},
            {"h": 3, "t": 4, "r": "P26", "evidence": [1]},
            {"h": 4, "t": 3, "r": "P26", "evidence": [1]},
        ],
    }
    counts = Counts()
    [example] = docred_examples(doc, "re-docred:dev-0", LABELS, counts)
    assert example.text == "Bergen is a city in Vestland, Norway. Its mayor Ida Holm married Carl Dahl in 1990."
    assert example.triples == [
        ("Bergen", "located in", "Vestland"),
        ("Bergen", "country", "Norway"),
        ("Ida Holm", "spouse", "Carl Dahl"),
    ]  # a symmetric fact once
    answer = json.loads(example.messages()[-1]["content"])
    assert answer == {"triples": [list(t) for t in example.triples]}
    assert "Bergen is a city" in example.messages()[1]["content"]
    assert INVERSES["P150"] == "P131"


def test_a_long_document_is_cut_into_windows_with_the_facts_inside_each():
    filler = ["word"] * 120 + ["."]
    doc = {
        "sents": [
            ["Ida", "Holm", "lives", "in", "Oslo", "."] + filler,
            filler,
            ["Carl", "Dahl", "lives", "in", "Bergen", "."] + filler,
        ],
        "vertexSet": [
            [mention("Ida Holm", 0, 0, 2, "PER")],
            [mention("Oslo", 0, 4, 5)],
            [mention("Carl Dahl", 2, 0, 2, "PER")],
            [mention("Bergen", 2, 4, 5)],
        ],
        "labels": [
            {"h": 0, "t": 1, "r": "P551", "evidence": [0]},
            {"h": 2, "t": 3, "r": "P551", "evidence": [2]},
            {"h": 0, "t": 3, "r": "P551", "evidence": [0, 2]},
        ],
    }  # evidence across windows: in none
    counts = Counts()
    examples = docred_examples(doc, "re-docred:dev-1", LABELS | {"P551": "residence"}, counts)
    assert [e.source for e in examples] == ["re-docred:dev-1:0-0", "re-docred:dev-1:1-1", "re-docred:dev-1:2-2"]
    assert [e.triples for e in examples] == [
        [("Ida Holm", "lives in", "Oslo")],
        [],  # a window that states nothing
        [("Carl Dahl", "lives in", "Bergen")],
    ]
    assert sum(counts.left_out.values()) == 1


def test_a_written_text_names_only_what_it_holds():
    good = {"id": "x", "text": "Ida Holm works for Holm Data.", "triples": [["Ida Holm", "works for", "Holm Data"]]}
    assert check_written(good) == []
    assert check_written({**good, "triples": [["Ida Holm", "works for", "Holm Data AS"]]}) == [
        "'Holm Data AS' is not in the text"
    ]
    assert check_written({**good, "triples": [["Ida Holm", "Works For", "Holm Data"]] * 2}) == [
        "relation 'Works For' is not in lower case",
        "relation 'Works For' is not in lower case",
        "a fact is listed twice",
    ]


def test_the_committed_written_texts_pass_their_check():
    examples = written_examples(WRITTEN)
    assert len(examples) >= 80
    assert len({e.source for e in examples}) == len(examples)


def test_a_broken_written_text_is_an_error_naming_its_line(tmp_path):
    (tmp_path / "bad.jsonl").write_text(json.dumps({"id": "b-1", "text": "Ida Holm.", "triples": [["Ida", "x"]]}))
    with pytest.raises(UserError, match="bad.jsonl line 1 \\(b-1\\)"):
        written_examples(tmp_path)


def test_re_docreds_redundancies_are_left_out_as_a_user_would_not_write_them():
    doc = {
        "sents": [
            ["Saverne", "is", "a", "French", "town", "in", "France", "."],
            ["Ida", "Holm", "is", "an", "American", "writer", "from", "Milan", "."],
        ],
        "vertexSet": [
            [mention("Saverne", 0, 0, 1)],
            [mention("French", 0, 3, 4)],
            [mention("France", 0, 6, 7)],
            [mention("Ida Holm", 1, 0, 2, "PER")],
            [mention("American", 1, 4, 5)],
            [mention("Milan", 1, 7, 8)],
        ],
        "labels": [
            {"h": 0, "t": 2, "r": "P17", "evidence": [0]},
            {"h": 0, "t": 2, "r": "P131", "evidence": [0]},  # beside country: out
            {"h": 0, "t": 1, "r": "P17", "evidence": [0]},  # the adjective beside the country's name: out
            {"h": 0, "t": 1, "r": "P131", "evidence": [0]},  # the adjective as a place: out
            {"h": 1, "t": 2, "r": "P17", "evidence": [0]},  # the adjective as a subject: out
            {"h": 2, "t": 1, "r": "P37", "evidence": [0]},  # a language: kept
            {"h": 3, "t": 4, "r": "P27", "evidence": [1]},  # the only word the text gives: kept
            {"h": 3, "t": 5, "r": "P19", "evidence": [1]},  # Milan is a place the KB knows, no adjective
        ],
    }
    counts = Counts()
    [example] = docred_examples(
        doc, "re-docred:dev-2", LABELS | {"P37": "official language"}, counts, {"Milan"}.__contains__
    )
    assert example.triples == [
        ("Saverne", "country", "France"),
        ("France", "official language", "French"),
        ("Ida Holm", "citizen of", "American"),
        ("Ida Holm", "born in", "Milan"),
    ]
    assert sum(counts.left_out.values()) == 4
    assert counts.left_out["located in a country beside country"] == 1
