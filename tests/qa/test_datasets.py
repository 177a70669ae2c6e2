"""The QA loaders on the data directory's files (skipped where the data is absent)."""

from __future__ import annotations

import pytest

from graphwright.bench.data.qa_data import load_qa_dataset
from graphwright.errors import DataNotFoundError, UnknownNameError


def load(name: str, questions: int | None = None):
    try:
        return load_qa_dataset(name, questions)
    except DataNotFoundError as exc:
        pytest.skip(f"QA data not available: {exc}")


def test_hipporag_corpus_is_shared_and_supports_resolve_to_passages():
    data = load("hotpotqa")
    assert len(data.questions) == 100 and len(data.passages) > 900
    assert len({p.id for p in data.passages}) == len(data.passages)
    for q in data.questions:
        assert q.pool is None and q.answers[0]
        assert q.supporting and all(pid in data.by_id for pid in q.supporting)


def test_migres_questions_keep_to_their_own_passages_and_only_those_are_indexed():
    data = load("migres-2wikimultihopqa", 5)
    assert "records without paragraphs left out" in data.note
    wanted = {pid for q in data.questions for pid in q.pool}
    assert {p.id for p in data.passages} == wanted
    assert all(set(q.supporting) <= set(q.pool) for q in data.questions)
    musique = load("migres-musique", 2)
    assert all(len(q.pool) == 20 and q.supporting for q in musique.questions)


def test_an_unknown_dataset_lists_the_known_ones():
    with pytest.raises(UnknownNameError, match="hotpotqa"):
        load_qa_dataset("squad")
