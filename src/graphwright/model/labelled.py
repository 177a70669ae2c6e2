"""Labelled sentences, the user's and the benchmarks' alike: relation samples (a text and its
(head, relation, tail) triples) and NER samples (tokens with IOB2 tags).

A user's labelled examples are read here (``pool_file=examples.jsonl``, the format agentre and ``facts``
read); the benchmarks' loaders (graphwright.bench.data) build the same types from their datasets.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, Field

from graphwright.errors import DataNotFoundError, UserError
from graphwright.jsonl import read_json
from graphwright.model.schema import RelationSchema
from graphwright.model.tags import Chunk, chunks


class RETriple(NamedTuple):
    head: str
    relation: str
    tail: str


class RESample(BaseModel):
    id: str
    text: str
    triples: list[RETriple] = Field(default_factory=list)
    entities: list[tuple[str, str]] = Field(default_factory=list)  # (name, type) where the data types them


def read_samples(path: Path, schema: RelationSchema | None = None) -> list[RESample]:
    """Labelled samples from JSONL: ``{"text": ..., "triples": [[head, relation, tail], ...]}`` (or triples
    as ``{"head", "relation", "tail"}`` objects), optionally with ``"entities": [[name, type], ...]`` (the
    checks' worked examples). Relations outside ``schema`` are an error naming the line."""
    if not path.is_file():
        raise DataNotFoundError(f"sample file {path} not found")
    samples = []
    for number, row in enumerate(read_json(path) if path.name.endswith((".jsonl", ".jsonl.gz")) else [], 1):
        try:
            triples = [
                RETriple(t["head"], t["relation"], t["tail"]) if isinstance(t, dict) else RETriple(*t)
                for t in row.get("triples", [])
            ]
            sample = RESample(
                id=str(row.get("id", f"{path.stem}-{number}")),
                text=row["text"],
                triples=triples,
                entities=[tuple(e) for e in row.get("entities", [])],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(
                f"{path}:{number}: not a labelled sample ({type(exc).__name__}: {exc}); "
                'expected {"text": ..., "triples": [[head, relation, tail], ...]}'
            ) from exc
        unknown = sorted({t.relation for t in triples} - set(schema.names)) if schema else []
        if unknown:
            assert schema is not None  # unknown is only non-empty when there is a schema
            raise UserError(f"{path}:{number}: relations not in schema {schema.name!r}: {', '.join(unknown)}")
        samples.append(sample)
    if not samples:
        raise UserError(f"{path}: no labelled samples (a .jsonl file with one sample per line is expected)")
    return samples


Key = tuple[str, str, str]  # a triple compared by its normalized words


def normalize_argument(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def triple_key(head: str, relation: str, tail: str) -> Key:
    return normalize_argument(head), relation, normalize_argument(tail)


class NERSample(BaseModel):
    id: str
    tokens: list[str]
    tags: list[str]  # IOB2
    separator: str = " "

    @property
    def text(self) -> str:
        return self.separator.join(self.tokens)

    @property
    def entities(self) -> list[Chunk]:
        return chunks(self.tags)

    def char_spans(self) -> list[tuple[int, int, str]]:
        offsets = token_offsets(self.tokens, self.separator)
        return [(offsets[c.start][0], offsets[c.end - 1][1], c.type) for c in self.entities]


def token_offsets(tokens: list[str], separator: str = " ") -> list[tuple[int, int]]:
    """Character offsets of each token in ``separator.join(tokens)``."""
    offsets, at = [], 0
    for token in tokens:
        offsets.append((at, at + len(token)))
        at += len(token) + len(separator)
    return offsets
