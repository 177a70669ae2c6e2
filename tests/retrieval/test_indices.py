"""The four sample retrievers of AgentRE's Table 3."""

from __future__ import annotations

import pytest

from graphwright.retrieval import make_index
from graphwright.text import search_terms as terms

TEXTS = [
    "Mo Yan won the Nobel Prize in Literature in 2012 .",
    "The cat sat on the mat .",
    "Kazuo Ishiguro received the Nobel Prize in Literature .",
    "Stock prices fell sharply on Monday .",
]
QUERY = "Who was awarded the Nobel Prize in Literature ?"


def test_cjk_text_becomes_character_bigrams():
    assert terms("Mo Yan 生于高密") == ["mo", "yan", "生于", "于高", "高密"]
    assert terms("北") == ["北"]


@pytest.mark.parametrize("kind", ["bm25", "tfidf", "embedding"])
def test_similar_texts_rank_first(kind):
    index = make_index(kind, TEXTS)
    assert set(index.top(QUERY, 2)) == {0, 2}
    assert len(index.top(QUERY, 10)) == 4, "never more than the index holds"


@pytest.mark.parametrize("kind", ["bm25", "tfidf", "embedding", "random"])
def test_indices_grow(kind):
    index = make_index(kind, TEXTS[:2])
    index.add(TEXTS[2:])
    assert len(index) == 4
    if kind != "random":
        assert index.top("Stock prices on Monday", 1) == [3]


def test_rare_words_weigh_more_in_bm25():
    index = make_index("bm25", ["the the the prize", "the nobel", "the cat"])
    assert index.top("the nobel", 1) == [1]


def test_random_is_reproducible_per_seed_and_query():
    a, b = make_index("random", TEXTS, seed=1), make_index("random", TEXTS, seed=1)
    assert a.top(QUERY, 3) == b.top(QUERY, 3)
    assert len(set(a.top(QUERY, 4))) == 4


def test_unknown_retriever_is_an_error():
    with pytest.raises(ValueError, match="choose one of embedding, bm25, tfidf, random"):
        make_index("simcse", TEXTS)


def test_large_embedding_batches_are_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path))
    texts = [f"sentence number {i} about topic {i % 7}" for i in range(120)] + TEXTS
    first = make_index("embedding", texts)
    cached = list((tmp_path / "text-embeddings").glob("*.npy"))
    assert len(cached) == 1
    second = make_index("embedding", texts)
    assert second.top(QUERY, 2) == first.top(QUERY, 2) and set(first.top(QUERY, 2)) == {120, 122}
