"""NER data and metrics: conlleval chunking, IOB2 round trips, micro entity scores, the datasets."""

from __future__ import annotations

import pytest

from graphwright.bench.data.gold import GoldDocument, GoldEntity
from graphwright.bench.data.ner_data import NER_DATASETS, load_ner_dataset
from graphwright.bench.eval.datasets import load_dataset
from graphwright.bench.eval.metrics import set_counts
from graphwright.bench.eval.ner_metrics import NERScorer, per_type
from graphwright.errors import UserError
from graphwright.model import Entity, ExtractionResult, Mention, Span
from graphwright.model.domain import load_domain
from graphwright.model.tags import Chunk, chunks, to_iob2
from graphwright.paths import data_dir


def test_chunks_follow_conlleval():
    tags = ["B-PER", "I-PER", "O", "I-LOC", "I-LOC", "B-LOC", "I-ORG", "O", "B-MISC"]
    assert chunks(tags) == [
        Chunk(0, 2, "PER"),
        Chunk(3, 5, "LOC"),
        Chunk(5, 6, "LOC"),
        Chunk(6, 7, "ORG"),
        Chunk(8, 9, "MISC"),
    ]
    assert chunks(["O", "O"]) == [] and chunks([]) == []


def test_iob2_round_trip_and_overlaps():
    spans = [Chunk(0, 2, "A"), Chunk(3, 4, "B")]
    assert to_iob2(spans, 5) == ["B-A", "I-A", "O", "B-B", "O"]
    assert chunks(to_iob2(spans, 5)) == spans
    nested = [Chunk(0, 3, "DNA"), Chunk(0, 1, "DNA")]  # the outer span keeps its tokens
    assert to_iob2(nested, 3) == ["B-DNA", "I-DNA", "I-DNA"]


def test_micro_counts_need_exact_span_and_type():
    gold = [Chunk(0, 2, "PER"), Chunk(4, 5, "LOC")]
    predicted = [Chunk(0, 2, "PER"), Chunk(4, 5, "ORG"), Chunk(6, 8, "LOC")]
    counts = set_counts(predicted, gold)
    assert (counts.matched_pred, counts.predicted, counts.gold) == (1, 3, 2)
    assert counts.precision == pytest.approx(1 / 3) and counts.recall == pytest.approx(1 / 2)
    assert per_type(predicted, gold)["PER"].f1 == 1.0 and per_type(predicted, gold)["LOC"].recall == 0.0


def test_scorer_reads_mentions_and_type_iris():
    doc = GoldDocument(
        id="d",
        text="Ann met Bob",
        entities=[GoldEntity(start=0, end=3, type="person"), GoldEntity(start=8, end=11, type="person")],
    )
    result = ExtractionResult(
        document_id="d",
        system="s",
        entities=[
            Entity(
                iri="x:ann",
                types=["https://graphwright.dev/schema/news/person"],
                mentions=[Mention(surface="Ann", span=Span(start=0, end=3))],
            ),
            Entity(iri="x:bob", types=["location"], mentions=[Mention(surface="Bob", span=Span(start=8, end=11))]),
        ],
    )
    counts = NERScorer().score_document(result, doc)["mentions"]
    assert (counts.matched_pred, counts.predicted, counts.gold) == (1, 2, 2)


def test_scorer_reads_predictions_as_iob2_tags_on_the_gold_tokens():
    # "Dr. Smith of New York": a span inside a word snaps to the word; nested spans keep the outer one
    doc = GoldDocument(
        id="d",
        text="Dr. Smith of New York",
        tokens=[(0, 3), (4, 9), (10, 12), (13, 16), (17, 21)],
        entities=[GoldEntity(start=4, end=9, type="person"), GoldEntity(start=13, end=21, type="location")],
    )
    result = ExtractionResult(
        document_id="d",
        system="s",
        entities=[
            Entity(iri="x:smith", types=["person"], mentions=[Mention(surface="Smit", span=Span(start=4, end=8))]),
            Entity(iri="x:ny", types=["location"], mentions=[Mention(surface="New York", span=Span(start=13, end=21))]),
            Entity(iri="x:york", types=["location"], mentions=[Mention(surface="York", span=Span(start=17, end=21))]),
        ],
    )
    counts = NERScorer().score_document(result, doc)["mentions"]
    assert (counts.matched_pred, counts.predicted, counts.gold) == (2, 2, 2)
    untokenized = NERScorer().score_document(result, doc.model_copy(update={"tokens": None}))["mentions"]
    assert (untokenized.matched_pred, untokenized.predicted) == (1, 3)


def test_domain_files_are_checked(tmp_path):
    good = tmp_path / "d.yaml"
    good.write_text("domain: news\ntypes: {person: people}\n")
    assert load_domain(good).name == "d"
    bad = tmp_path / "bad.yaml"
    bad.write_text("domain: news\ntypes: {'work of art': titles}\n")
    with pytest.raises(UserError, match="become XML tags"):
        load_domain(bad)


needs_data = pytest.mark.skipif(
    not (data_dir() / "conll2003").is_dir(), reason=f"NER data not found under {data_dir()}"
)


@needs_data
@pytest.mark.parametrize("name", sorted(NER_DATASETS.names()))
def test_datasets_load_and_their_domains_cover_every_type(name):
    data = load_ner_dataset(name)
    assert data.test and data.train
    types = {c.type for s in data.test + data.train for c in s.entities}
    assert types and types <= set(data.domain.types)
    for sample in data.test[:50]:  # offsets point at the entity's tokens
        text = sample.text
        for (s, e, _), chunk in zip(sample.char_spans(), sample.entities):
            assert text[s:e] == sample.separator.join(sample.tokens[chunk.start : chunk.end])


@needs_data
def test_ner_dataset_runs_as_an_eval_dataset():
    data = load_dataset("conll2003", limit=2)
    assert data.task == "ner" and data.system_settings == {"dataset": "conll2003"}
    first = data.documents[0]
    assert [(e.surface, e.type) for e in first.entities] == [("JAPAN", "location"), ("CHINA", "person")]
