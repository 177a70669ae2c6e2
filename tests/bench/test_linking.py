"""The linking benchmark without models or shared data: recall@k on a scripted KB, query extraction
from tiny rebel- and fewrel-format files, the Markdown table, and the missing-data error."""

from __future__ import annotations

import gzip
import json
from types import SimpleNamespace

import pytest

from graphwright.bench.eval.linking import (
    LinkingQuery,
    between_mentions,
    fewrel_property_queries,
    linking_table,
    rebel_entity_queries,
    rebel_property_queries,
    run_linking,
    sentence_spans,
)
from graphwright.errors import DataNotFoundError


class ScriptedKB:
    """search() answers from a table {(mode, text): [ids]}; records every call."""

    def __init__(self, answers: dict[tuple[str, str], list[str]], known: set[str] | None = None):
        self.answers, self.known, self.calls = answers, known, []

    def search(self, text, *, kind=None, mode="fused", k=5):
        self.calls.append((text, kind, mode, k))
        return [SimpleNamespace(record=SimpleNamespace(id=i)) for i in self.answers.get((mode, text), [])[:k]]

    def contains(self, rid):
        return self.known is None or rid in self.known


def q(text: str, gold: str, query: str = "sentence") -> LinkingQuery:
    return LinkingQuery(text, gold, "toy", query)


def test_recall_at_k_counts_the_gold_rank_per_mode():
    ranked = [f"P{i}" for i in range(100, 112)]  # 12 distractors to place the gold among
    answers = {
        ("label", "a"): ["P1", *ranked],  # rank 1
        ("label", "b"): [*ranked[:3], "P2", *ranked],  # rank 4
        ("label", "c"): [*ranked[:7], "P3"],  # rank 8
        ("label", "d"): ranked,  # beyond 10 (the 11th would be too late: k = 10)
        ("description", "a"): [*ranked[:10], "P1"],
    }
    kb = ScriptedKB(answers, known={"P1", "P2", "P3"})
    queries = [q("a", "P1"), q("b", "P2"), q("c", "P3"), q("d", "P4")]
    rows = run_linking(kb, queries, kind="property", modes=["label", "description"], embedder="fake")
    label, desc = rows
    assert (label.mode, label.n, label.recall) == ("label", 4, (0.25, 0.5, 0.75))
    assert desc.recall == (0.0, 0.0, 0.0) and label.missing_gold == 1
    assert label.embedder == "fake" and label.dataset == "toy" and label.target == "property"
    assert label.ms_per_query >= 0
    # One warm-up search per mode comes before the timed ones, all with the search depth k.
    assert [c[0] for c in kb.calls[:5]] == ["warm up identifier", "a", "b", "c", "d"]
    assert {c[3] for c in kb.calls} == {10} and {c[1] for c in kb.calls} == {"property"}


def test_run_linking_groups_queries_and_skips_example_mode_for_entities():
    kb = ScriptedKB({("fused", "Berlin"): ["Q64"]})
    queries = [q("Berlin", "Q64", "surface"), LinkingQuery("Paris", "Q90", "other", "surface")]
    rows = run_linking(kb, queries, kind="entity", modes=["example", "fused"], k=5)
    assert [(r.dataset, r.mode, r.n, r.recall) for r in rows] == [
        ("toy", "fused", 1, (1.0, 1.0, None)),
        ("other", "fused", 1, (0.0, 0.0, None)),
    ]
    table = linking_table(rows)
    assert table.splitlines()[0] == "| dataset | target | query | embedder | mode | n | R@1 | R@5 | R@10 | ms/query |"
    assert "| toy | entity | surface | - | fused | 1 | 1.000 | 1.000 | – |" in table


@pytest.fixture()
def data_root(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_DATA_DIR", str(tmp_path))
    return tmp_path


def write_rebel(root, docs: list[dict]) -> None:
    (root / "rebel-sample").mkdir()
    lines = "".join(json.dumps(d) + "\n" for d in docs)
    (root / "rebel-sample" / "sample.jsonl.gz").write_bytes(gzip.compress(lines.encode()))


def ent(uri: str, text: str, surface: str) -> dict:
    start = text.index(surface)
    return {"uri": uri, "boundaries": [start, start + len(surface)], "surfaceform": surface, "annotator": "Me"}


TEXT_B = "Ada Lovelace was born in London. She worked with Charles Babbage at St. Mary's in London."
TEXT_A = "Berlin is the capital of Germany. It lies on the Spree."


def triple(text: str, subj: tuple[str, str], pid: str, obj: tuple[str, str], aligner: str) -> dict:
    return {
        "subject": ent(subj[0], text, subj[1]),
        "predicate": {"uri": pid, "surfaceform": pid},
        "object": ent(obj[0], text, obj[1]),
        "sentence_id": 0,
        "annotator": aligner,
    }


def rebel_docs() -> list[dict]:
    ada, london, babbage = ("Q7259", "Ada Lovelace"), ("Q84", "London"), ("Q46633", "Charles Babbage")
    london_again = {**ent(london[0], TEXT_B, london[1]), "boundaries": [TEXT_B.rindex("London"), len(TEXT_B) - 1]}
    literal = {"uri": "1815", "boundaries": None, "surfaceform": "1815", "annotator": "Me"}
    # The second triple has an implicit subject (the article's topic) and "St." inside its sentence;
    # the third is a duplicate.
    doc_b = {
        "docid": "100",
        "title": "Ada Lovelace",
        "uri": "Q7259",
        "text": TEXT_B,
        "entities": [ent(uri, TEXT_B, name) for uri, name in (london, ada, babbage)] + [london_again, literal],
        "triples": [
            triple(TEXT_B, ada, "P19", london, "Simple-Aligner"),
            triple(TEXT_B, ada, "P1327", babbage, "NoSubject-Triple-aligner"),
            triple(TEXT_B, ada, "P1327", babbage, "NoSubject-Triple-aligner"),
        ],
    }
    doc_a = {
        "docid": "20",
        "title": "Berlin",
        "uri": "Q64",
        "text": TEXT_A,
        "entities": [ent("Q183", TEXT_A, "Germany"), ent("Q64", TEXT_A, "Berlin"), ent("Q1938", TEXT_A, "Spree")],
        "triples": [triple(TEXT_A, ("Q64", "Berlin"), "P206", ("Q1938", "Spree"), "NoSubject-Triple-aligner")],
    }
    return [doc_b, doc_a]  # file order is not docid order


def test_rebel_entity_queries_sorted_by_docid_in_text_order_without_duplicates(data_root):
    write_rebel(data_root, rebel_docs())
    got = [(x.text, x.gold) for x in rebel_entity_queries()]
    assert got == [
        ("Berlin", "Q64"),
        ("Germany", "Q183"),
        ("Spree", "Q1938"),  # docid 20 before 100
        ("Ada Lovelace", "Q7259"),
        ("London", "Q84"),
        ("Charles Babbage", "Q46633"),
    ]  # no literal
    assert [x.text for x in rebel_entity_queries(limit=2)] == ["Berlin", "Germany"]
    assert {(x.dataset, x.query) for x in rebel_entity_queries()} == {("rebel-sample", "surface")}


def test_rebel_property_queries_use_the_sentence_holding_the_triple(data_root):
    write_rebel(data_root, rebel_docs())
    got = [(x.text, x.gold) for x in rebel_property_queries()]
    assert got == [
        ("It lies on the Spree.", "P206"),
        ("Ada Lovelace was born in London.", "P19"),
        ("She worked with Charles Babbage at St. Mary's in London.", "P1327"),
    ]
    assert len(rebel_property_queries(limit=1)) == 1


def test_sentence_spans_keep_initials_and_abbreviations_inside_a_sentence():
    text = 'Named by John O. Smith of the U.S. Navy. It lies near St. Louis! "Yes." Then more.'
    assert [text[a:b].strip() for a, b in sentence_spans(text)] == [
        "Named by John O. Smith of the U.S. Navy.",
        "It lies near St. Louis!",
        '"Yes."',
        "Then more.",
    ]


def write_fewrel(root) -> None:
    def inst(tokens: str, h: list[int], t: list[int]) -> dict:
        return {"tokens": tokens.split(), "h": ["h", "Q1", [h]], "t": ["t", "Q2", [t]]}

    data = {
        "P26": [
            inst("Anna married Bob in 1990 .", [0], [2]),
            inst("Bob and Anna", [0], [2]),
            inst("Carl , husband of Dora , died .", [0], [4]),
        ],
        "P17": [inst("Paris is a city in France .", [0], [5]), inst("Lyon ( France )", [0], [2])],
    }
    (root / "fewrel").mkdir()
    (root / "fewrel" / "val_wiki.json.gz").write_bytes(gzip.compress(json.dumps(data).encode()))


def test_fewrel_queries_round_robin_with_sentence_and_phrase_variants(data_root):
    write_fewrel(data_root)
    got = [(x.query, x.text, x.gold) for x in fewrel_property_queries(per_relation=2)]
    assert got == [
        ("sentence", "Paris is a city in France.", "P17"),
        ("sentence", "Anna married Bob in 1990.", "P26"),
        ("sentence", "Lyon (France)", "P17"),
        ("sentence", "Bob and Anna", "P26"),
        ("phrase", "is a city in", "P17"),
        ("phrase", "married", "P26"),
        ("phrase", "and", "P26"),
    ]  # "Lyon ( France" has only a bracket between its mentions
    assert [x.text for x in fewrel_property_queries(limit=1, variants=["phrase"])] == ["is a city in"]
    assert len(fewrel_property_queries(per_relation=None, variants=["sentence"])) == 5


def test_between_mentions_takes_the_closest_pair_in_either_order():
    tokens = "A x B y z A w".split()
    assert between_mentions(tokens, [[0], [5]], [[2]]) == ["x"]
    assert between_mentions(tokens, [[5]], [[2]]) == ["y", "z"]
    assert between_mentions(tokens, [[2]], [[2, 3]]) == []  # overlapping mentions


@pytest.mark.parametrize(
    "load, name",
    [
        (rebel_entity_queries, "rebel-sample"),
        (rebel_property_queries, "rebel-sample"),
        (fewrel_property_queries, "fewrel"),
    ],
)
def test_missing_data_names_the_file_and_the_variable(data_root, load, name):
    with pytest.raises(DataNotFoundError) as info:
        load()
    message = str(info.value)
    assert str(data_root / name) in message and "GRAPHWRIGHT_DATA_DIR" in message
