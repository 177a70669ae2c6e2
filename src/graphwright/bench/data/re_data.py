"""Relation-extraction datasets: sentences with (head, relation, tail) triples over a fixed schema.

conll04, scierc, nyt, webnlg and duie2 are read from the data directory. Each gives a test split to
score on, a labelled pool (its train split) for sample retrieval and memory warm-up, and a
:class:`RelationSchema` with guidelines. Token datasets are shown as their tokens joined by spaces,
so every gold argument is a substring of the text and exact match is fair.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from graphwright.bench.data.files import data_file, read_json
from graphwright.bench.data.gold import GoldDocument, GoldTerm, GoldTriple
from graphwright.model.labelled import RESample, RETriple
from graphwright.model.schema import RelationSchema, RelationType, load_schema
from graphwright.registry import Registry


@dataclass
class REDataset:
    name: str
    schema: RelationSchema
    test: list[RESample]
    pool: list[RESample]  # labelled samples for retrieval and memory; never the test split
    note: str = ""


RE_DATASETS: Registry[Callable[[], REDataset]] = Registry("relation extraction dataset")


@lru_cache(maxsize=8)
def load_re_dataset(name: str) -> REDataset:
    """A registered RE dataset, read once per process (agentre and the eval both need it)."""
    return RE_DATASETS.get(name)()


def gold_documents(dataset: REDataset, limit: int | None = None) -> list[GoldDocument]:
    """Test samples as gold documents: arguments matched by text, relations by their schema IRI."""
    docs = []
    for sample in dataset.test[:limit] if limit else dataset.test:
        triples = [
            GoldTriple(
                subject=GoldTerm(surface=t.head),
                predicate=GoldTerm(iri=dataset.schema.relation_iri(t.relation), surface=t.relation),
                object=GoldTerm(surface=t.tail),
            )
            for t in sample.triples
        ]
        docs.append(GoldDocument(id=sample.id, text=sample.text, triples=triples))
    return docs


def _register(name: str):
    """Register a loader (graphwright.bench.eval.datasets makes each an eval dataset scored by the RE metrics)."""
    return RE_DATASETS.register(name)


def _distinct(triples) -> list[RETriple]:
    return list(dict.fromkeys(RETriple(*t) for t in triples))


# ---- conll04 and scierc (PFN/SpERT JSON: tokens, entities, relations) -------------------------------------


def _token_samples(folder: str, split: str) -> list[RESample]:
    samples = []
    for index, row in enumerate(read_json(data_file(folder, f"{split}.json"))):
        tokens, entities = row["tokens"], row["entities"]

        def span(i: int) -> str:
            return " ".join(tokens[entities[i]["start"] : entities[i]["end"]])  # noqa: B023 - used in this iteration

        triples = _distinct((span(r["head"]), r["type"], span(r["tail"])) for r in row["relations"])
        typed = list(dict.fromkeys((span(i), e["type"]) for i, e in enumerate(entities)))
        samples.append(RESample(id=f"{split}-{index}", text=" ".join(tokens), triples=triples, entities=typed))
    return samples


def _guideline_schema(name: str) -> RelationSchema:
    path = resources.files("graphwright.bench.data").joinpath("guidelines", f"{name}.yaml")
    with resources.as_file(path) as file:
        return load_schema(file)


@_register("conll04")
def conll04() -> REDataset:
    """CoNLL04: news sentences, 5 relations between people, organisations and places (288 test sentences)."""
    return REDataset(
        "conll04",
        _guideline_schema("conll04"),
        _token_samples("conll04", "test"),
        _token_samples("conll04", "train"),
        note="CoNLL04 (PFN split, MIT); pool: train (922)",
    )


@_register("scierc")
def scierc() -> REDataset:
    """SciERC: sentences of AI abstracts, 7 relations between scientific terms (551 test sentences)."""
    return REDataset(
        "scierc",
        _guideline_schema("scierc"),
        _token_samples("scierc", "test"),
        _token_samples("scierc", "train"),
        note="SciERC (PFN split, research use); pool: train (1,861)",
    )


# ---- nyt and webnlg (CasRel JSON: text, triple_list) --------------------------------------------------------


def _list_samples(*parts: str, split: str) -> list[RESample]:
    rows = read_json(data_file(*parts))
    return [
        RESample(id=f"{split}-{i}", text=row["text"], triples=_distinct(row["triple_list"]))
        for i, row in enumerate(rows)
    ]


def _derived_schema(
    name: str, relations: list[str], describe: Callable[[str], RelationType], note: str
) -> RelationSchema:
    return RelationSchema(name=name, relations=[describe(r) for r in relations], note=note)


def _freebase_relation(path: str) -> RelationType:
    """``/people/person/place_of_birth`` -> head type person, "place of birth of the head person"."""
    parts = [p for p in path.split("/") if p]
    head_type, prop = parts[-2].replace("_", " "), parts[-1].replace("_", " ")
    return RelationType(
        name=path, head=[head_type], description=f"the tail is the {prop} of the head {head_type} (Freebase {path})"
    )


@_register("nyt")
def nyt() -> REDataset:
    """NYT (exact-match NYT24): New York Times sentences, 24 Freebase relations, distant supervision (5,000 test)."""
    relations = sorted(read_json(data_file("nyt", "NYT", "rel2id.json"))[0].values())
    schema = _derived_schema(
        "nyt", relations, _freebase_relation, note="Arguments are full entity names as written in the sentence."
    )
    return REDataset(
        "nyt",
        schema,
        _list_samples("nyt", "NYT", "test.json.gz", split="test"),
        _list_samples("nyt", "NYT", "dev.json.gz", split="dev"),
        note="NYT24 (CasRel/OneRel version); the data has no train split, so the pool is dev (5,000)",
    )


def _dbpedia_relation(name: str) -> RelationType:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").lower()
    return RelationType(name=name, description=f"the tail is the {words} of the head (DBpedia property {name})")


@_register("webnlg")
def webnlg() -> REDataset:
    """WebNLG (exact-match CasRel version): DBpedia facts verbalised as text, 216 relations (703 test)."""
    relations = sorted(read_json(data_file("webnlg", "casrel_exact", "rel2id.json"))[0].values())
    schema = _derived_schema(
        "webnlg",
        relations,
        _dbpedia_relation,
        note="Arguments are copied from the text; values (numbers, dates) are arguments too.",
    )
    return REDataset(
        "webnlg",
        schema,
        _list_samples("webnlg", "casrel_exact", "test.json", split="test"),
        _list_samples("webnlg", "casrel_exact", "train.json.gz", split="train"),
        note="WebNLG (CC BY-NC-SA 4.0, CasRel exact version); pool: train (5,019)",
    )


# ---- duie2 (Chinese) ---------------------------------------------------------------------------------------


def _duie_samples(file: str, split: str) -> list[RESample]:
    # Complex objects (award with a date, role in a film...) are scored on their main value, as the
    # usual triple-level DuIE evaluation does; the extra slots are dropped.
    return [
        RESample(
            id=f"{split}-{i}",
            text=row["text"],
            triples=_distinct((spo["subject"], spo["predicate"], spo["object"]["@value"]) for spo in row["spo_list"]),
        )
        for i, row in enumerate(read_json(data_file("duie2", file)))
    ]


@_register("duie2")
def duie2() -> REDataset:
    """DuIE 2.0 (Chinese): Baidu sentences, 48 relations; the first 2,000 dev sentences are the test set."""
    rows = read_json(data_file("duie2", "duie_schema.jsonl"))
    types: dict[str, tuple[set, set]] = defaultdict(lambda: (set(), set()))
    for row in rows:
        types[row["predicate"]][0].add(row["subject_type"])
        types[row["predicate"]][1].add(row["object_type"]["@value"])
    relations = [
        RelationType(
            name=p,
            head=sorted(h),
            tail=sorted(t),
            description=f"头实体（{'/'.join(sorted(h))}）的{p}是尾实体（{'/'.join(sorted(t))}）",
        )
        for p, (h, t) in sorted(types.items())
    ]
    schema = RelationSchema(
        name="duie2", relations=relations, language="zh", note="头实体和尾实体必须与原文中的写法完全一致。"
    )
    return REDataset(
        "duie2",
        schema,
        _duie_samples("duie_dev_first2000.jsonl.gz", "dev"),
        _duie_samples("duie_train_4000.jsonl.gz", "train"),
        note="DuIE 2.0 (Baidu, research use): dev first 2,000 as test; pool: train subset (4,000)",
    )
