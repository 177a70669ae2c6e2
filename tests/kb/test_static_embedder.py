"""minilm-static: semantics of the real distilled table (built once per machine in the user cache,
like the default KB), and the cache mechanics on a cheap fake teacher in a temporary cache."""

from __future__ import annotations

import numpy as np
import pytest

from graphwright.kb import LocalKB, build_kb, get_embedder
from graphwright.kb.embeddings import Embedder
from graphwright.kb.static_embedder import StaticEmbedder
from tests.kb.fakes import write_properties_dir


def fake_teacher(calls: list[int]):
    """Deterministic random token vectors; records how many tokens it was asked for."""

    def vectors(ids: np.ndarray) -> np.ndarray:
        calls.append(len(ids))
        return np.random.default_rng(ids[0]).standard_normal((len(ids), 8)).astype(np.float32)

    return vectors


def test_static_vectors_are_unit_length_and_order_preserving():
    emb = get_embedder("minilm-static")
    assert isinstance(emb, Embedder) and emb.name.startswith("minilm-static") and emb.dim == 256
    texts = ["place of birth", "a much longer sentence about where somebody was born and raised", "", "employer"]
    vecs = emb.embed(texts)
    assert vecs.shape == (4, 256) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    assert np.allclose(emb.embed(["employer", "place of birth"]), vecs[[3, 0]], atol=1e-6)
    assert emb.embed([]).shape == (0, 256)
    assert np.isfinite(emb.embed(["word " * 5000])).all()


def test_static_similar_texts_score_higher_than_unrelated():
    emb = get_embedder("minilm-static")
    sim = lambda a, b: float(emb.embed([a])[0] @ emb.embed([b])[0])  # noqa: E731
    assert sim("place of birth", "born in") > sim("place of birth", "record label")
    assert sim("member of political party", "she belongs to the Social Democrats") > sim(
        "member of political party", "the river flows into the sea"
    )
    labels = emb.embed(["member of political party", "place of birth", "employer"])
    for sentence, want in (
        ("Angela Merkel belongs to the CDU party.", 0),
        ("She was born in Hamburg.", 1),
        ("He works for Siemens as an engineer.", 2),
    ):
        assert int(np.argmax(labels @ emb.embed([sentence])[0])) == want, sentence


def test_static_table_is_built_once_then_loaded_from_the_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GRAPHWRIGHT_CACHE_DIR", str(tmp_path / "cache"))
    calls: list[int] = []
    first = StaticEmbedder(token_vectors=fake_teacher(calls))
    assert sum(calls) == 30522 and first.build_seconds is not None and first.dim == 8
    assert "distilling" in capsys.readouterr().err
    assert first.cache_file.parent == tmp_path / "cache" / "embedders" and first.cache_file.is_file()
    assert list(first.cache_file.parent.iterdir()) == [first.cache_file]  # no temp file left behind

    def must_not_run(ids):
        raise AssertionError("the cached table must be reused")

    second = StaticEmbedder(token_vectors=must_not_run)
    assert second.build_seconds is None and "distilling" not in capsys.readouterr().err
    assert np.array_equal(second.table, first.table)
    assert np.allclose(second.embed(["born in"]), first.embed(["born in"]))


def test_local_kb_builds_its_own_indices_for_the_static_embedder(tmp_path):
    kb_dir = build_kb(tmp_path / "kb", properties_dir=write_properties_dir(tmp_path / "data"), arnold_dir=False)
    with LocalKB(kb_dir, embedder="minilm-static") as kb:
        hits = kb.search("where was she born", kind="property", mode="description", k=4)
        assert hits and {h.record.id for h in hits} <= {"P19", "P102", "P463"}
        assert kb.search("birthplace", kind="property", mode="label", k=1)[0].record.id == "P19"
        folder = kb_dir / "embeddings" / get_embedder("minilm-static").name
        built = sorted(p.name for p in folder.glob("*.npy"))
        assert built == ["property_description_rel.npy", "property_label_rel.npy"]


@pytest.mark.parametrize("text", ["", "   "])
def test_static_empty_text_is_a_unit_vector(text):
    vec = get_embedder("minilm-static").embed([text])
    assert vec.shape == (1, 256) and np.isclose(np.linalg.norm(vec), 1.0, atol=1e-4)
