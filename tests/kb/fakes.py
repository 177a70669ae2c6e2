"""Tiny source files in every supported layout, and a model-free embedder for build tests."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

import numpy as np

WD = "http://www.wikidata.org/entity/"


class HashEmbedder:
    """Deterministic character-trigram hashing (no model): similar strings get similar vectors."""

    name = "test-hash-trigrams"
    dim = 256

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            t = f"  {text.lower()} "
            for j in range(len(t) - 2):
                out[i, zlib.crc32(t[j : j + 3].encode()) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.clip(norms, 1e-12, None)


def _tsv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "\t".join(header) + "\n" + "".join("\t".join(r) + "\n" for r in rows)
    path.write_bytes(gzip.compress(text.encode("utf-8")))


def write_properties_dir(root: Path) -> Path:
    """wikidata-properties layout: GLiREL list (newer labels) + KGTK exports."""
    d = root / "wikidata-properties"
    d.mkdir(parents=True)
    glirel = [
        {
            "property": WD + "P102",
            "propertyLabel": "member of political party",
            "propertyDescription": "the political party of which a person is a member",
        },
        {
            "property": WD + "P463",
            "propertyLabel": "member of",
            "propertyDescription": "organization the subject belongs to",
        },
        {"property": WD + "P19", "propertyLabel": "place of birth"},  # no description: KGTK fills it
        {"property": WD + "P214", "propertyLabel": "VIAF ID", "propertyDescription": "identifier for the VIAF"},
    ]
    (d / "all_wikidata_properties.json.gz").write_bytes(gzip.compress(json.dumps(glirel).encode()))
    k = d / "kgtk"
    _tsv(
        k / "labels.property.en.tsv.gz",
        ["node1", "node2"],
        [
            ["P102", "'member of party'@en"],
            ["P463", "'member of'@en"],
            ["P19", "'place of birth'@en"],
            ["P214", "'VIAF ID'@en"],
        ],
    )
    _tsv(k / "aliases.property.en.tsv.gz", ["node1", "node2"], [["P102", "'party'@en"], ["P19", "'born in'@en"]])
    _tsv(
        k / "descriptions.property.en.tsv.gz",
        ["node1", "node2"],
        [["P19", '"\'most specific known birth location, see ""place"" (P276)\'@en"']],
    )
    _tsv(
        k / "metadata.property.datatypes.tsv.gz",
        ["id", "node1", "label", "node2"],
        [
            ["P102-datatype", "P102", "datatype", "wikibase-item"],
            ["P463-datatype", "P463", "datatype", "wikibase-item"],
            ["P19-datatype", "P19", "datatype", "wikibase-item"],
            ["P214-datatype", "P214", "datatype", "external-id"],
        ],
    )
    _tsv(
        k / "claims.properties.tsv.gz",
        ["id", "node1", "label", "node2", "rank", "node2;wikidatatype"],
        [
            ["c1", "P102", "P1647", "P463", "normal", "wikibase-property"],
            ["c2", "P102", "P1855", "Q83396", "normal", "wikibase-item"],
            ["c3", "P19", "P1855", "Q424242", "normal", "wikibase-item"],  # subject without a label anywhere
            # P2302 type constraints without their P2308 classes, as in the real dump; Q19474404 is single-value
            ["c4", "P102", "P2302", "Q21503250", "normal", "wikibase-item"],
            ["c5", "P102", "P2302", "Q21510865", "normal", "wikibase-item"],
            ["c6", "P102", "P2302", "Q19474404", "normal", "wikibase-item"],
            ["c4", "P102", "P2302", "Q21503250", "normal", "wikibase-item"],
        ],
    )
    return d


def write_arnold_dir(root: Path) -> Path:
    """wikidata-subgraph-arnold layout (KGTK node1/label/node2/id)."""
    d = root / "wikidata-subgraph-arnold"
    hdr = ["node1", "label", "node2", "id"]
    _tsv(
        d / "labels.en.tsv.gz",
        hdr,
        [
            ["Q2685", "label", "'Arnold Schwarzenegger'@en", "x"],
            ["Q5", "label", "'human'@en", "x"],
            ["Q215627", "label", "'person'@en", "x"],
            ["Q83396", "label", "'Eleanor Roosevelt'@en", "x"],
            ["Q23800370", "label", "'Aurelia Schwarzenegger'@en", "x"],
            ["P102", "label", "'member of political party'@en", "x"],
        ],
    )
    _tsv(d / "aliases.en.tsv.gz", hdr, [["Q2685", "alias", "'Arnie'@en", "x"], ["Q5", "alias", "'person'@en", "x"]])
    _tsv(
        d / "descriptions.en.tsv.gz",
        hdr,
        [
            ["Q2685", "description", "'Austrian-American actor and politician'@en", "x"],
            ["Q23800370", "description", "'Arnold Schwarzenegger\\'s mother'@en", "x"],
        ],
    )
    _tsv(
        d / "derived.P31.tsv.gz",
        ["id", "node1", "label", "node2"],
        [["a", "Q2685", "P31", "Q5"], ["b", "Q23800370", "P31", "Q5"], ["c", "Q83396", "P31", "Q5"]],
    )
    _tsv(d / "derived.P279.tsv.gz", ["id", "node1", "label", "node2"], [["d", "Q5", "P279", "Q215627"]])
    return d


def write_rebel(root: Path) -> Path:
    path = root / "rebel-sample" / "sample.jsonl.gz"
    path.parent.mkdir(parents=True)
    docs = [
        {
            "docid": "1",
            "title": "Arnold Schwarzenegger",
            "uri": "Q2685",
            "text": "...",
            "entities": [
                {"uri": "Q2685", "surfaceform": "Schwarzenegger"},
                {"uri": "Q2685", "surfaceform": "Schwarzenegger"},
                {"uri": "Q1", "surfaceform": "the Universe"},
                {"uri": "+2^^http://x", "surfaceform": "2"},
            ],
            "triples": [
                {
                    "subject": {"uri": "Q2685", "surfaceform": "Schwarzenegger"},
                    "predicate": {"uri": "P19"},
                    "object": {"uri": "2010-01-01T00:00:00Z^^http://x", "surfaceform": "2010"},
                }
            ],
        },
        {
            "docid": "2",
            "title": "Universe",
            "uri": "Q1",
            "text": "...",
            "entities": [{"uri": "Q1", "surfaceform": "Universe"}, {"uri": "Q1", "surfaceform": "Universe"}],
            "triples": [],
        },
    ]
    path.write_bytes(gzip.compress("".join(json.dumps(d) + "\n" for d in docs).encode()))
    return path


def write_entity_jsonl(root: Path) -> Path:
    path = root / "entities.jsonl"
    rows = [
        {"id": "Q42", "label": "Douglas Adams", "aliases": ["DNA"], "description": "English writer", "types": ["Q5"]},
        {"id": "Q2685", "label": "Arnold S.", "description": "user's own description"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path
