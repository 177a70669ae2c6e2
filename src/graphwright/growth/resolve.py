"""Entity resolution across documents and runs: one node per entity.

In order: the same IRI (after earlier merges), then an alias (the same name once case, punctuation, a
leading "the" and a company's legal form are set aside), then embedding similarity of the names above a
threshold. Only entities the KB lacks are merged by name: two KB entities are different by definition, and
an entity the linker kept apart from the KB must not be pulled onto a KB look-alike by its name. Two
candidates with the same alias, or names of incompatible types, are not merged: a missing merge costs a
duplicate node, a wrong one asserts every fact of one entity about another.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import numpy as np

from graphwright.growth.state import GrowthState, Merge, Node
from graphwright.text import words

LEGAL_FORMS = frozenset(
    {
        "inc",
        "incorporated",
        "corp",
        "corporation",
        "co",
        "company",
        "ltd",
        "limited",
        "llc",
        "plc",
        "gmbh",
        "ag",
        "sa",
        "se",
        "nv",
        "bv",
        "ab",
        "as",
        "asa",
        "oy",
        "oyj",
        "spa",
        "srl",
        "sarl",
        "sas",
        "kg",
        "kk",
        "group",
        "holding",
        "holdings",
    }
)


def name_key(name: str) -> str:
    """The name with case, punctuation, a leading "the" and trailing legal forms ("B.V.", "group") set aside."""
    found = words(unicodedata.normalize("NFKC", name).casefold().replace(".", ""))
    if len(found) > 1 and found[0] == "the":
        found = found[1:]
    while len(found) > 1 and found[-1] in LEGAL_FORMS:
        found = found[:-1]
    return " ".join(found)


def compatible(a: set[str], b: set[str]) -> bool:
    """Untyped names fit anything; typed ones must share a type."""
    return not a or not b or bool(a & b)


@dataclass
class Resolution:
    iri: str
    merge: Merge | None = None
    new: bool = False


class Resolver:
    """Resolves entity IRIs against ``state``; ``embed`` (names -> unit vectors) enables similarity merges."""

    def __init__(self, state: GrowthState, threshold: float, embed=None) -> None:
        self.state = state
        self.threshold = threshold
        self.embed = embed
        self._aliases: dict[str, set[str]] = {}
        self._vectors: dict[str, np.ndarray] = {}
        for node in state.nodes.values():
            self.index(node)

    def index(self, node: Node) -> None:
        if node.linked:
            return
        for name in {node.label, *node.aliases}:
            key = name_key(name)
            if key:
                self._aliases.setdefault(key, set()).add(node.iri)

    def resolve(self, iri: str, label: str, types: set[str], linked: bool) -> Resolution:
        """The node ``iri`` belongs to; ``new`` when there is none yet (the caller adds it)."""
        canonical = self.state.canonical(iri)
        if canonical in self.state.nodes:
            return Resolution(canonical)
        if linked:
            return Resolution(canonical, new=True)
        found = self._by_alias(label, types)
        if found is not None:
            return Resolution(
                found,
                Merge(
                    source=iri,
                    target=found,
                    method="alias",
                    score=1.0,
                    label=label,
                    document_id="",
                    episode=0,
                    recorded_at="",
                ),
            )
        found, score = self._by_embedding(label, types)
        if found is not None:
            return Resolution(
                found,
                Merge(
                    source=iri,
                    target=found,
                    method="embedding",
                    score=score,
                    label=label,
                    document_id="",
                    episode=0,
                    recorded_at="",
                ),
            )
        return Resolution(canonical, new=True)

    def _by_alias(self, label: str, types: set[str]) -> str | None:
        candidates = [
            i
            for i in self._aliases.get(name_key(label), ())
            if i in self.state.nodes and compatible(types, self.state.nodes[i].types)
        ]
        return candidates[0] if len(candidates) == 1 else None

    def _by_embedding(self, label: str, types: set[str]) -> tuple[str | None, float]:
        if self.embed is None:
            return None, 0.0
        candidates = [n for n in self.state.nodes.values() if not n.linked and compatible(types, n.types)]
        if not candidates:
            return None, 0.0
        missing = [n.label for n in candidates if n.label not in self._vectors]
        if missing:
            self._vectors.update(zip(missing, self.embed(missing)))
        query = self.embed([label])[0]
        scores = np.array([float(self._vectors[n.label] @ query) for n in candidates])
        best = int(scores.argmax())
        # a near tie between two nodes is as ambiguous as two equal aliases
        ties = int((scores >= scores[best] - 0.01).sum())
        if scores[best] >= self.threshold and ties == 1:
            return candidates[best].iri, float(scores[best])
        return None, float(scores[best])


def short_names(names: dict[str, tuple[str, set[str]]]) -> dict[str, str]:
    """Within one document: IRI of a one-word name -> IRI of the one longer name ending in it ("Kuchta" for
    "Mirela Kuchta"), for names of compatible types. A text that names two Brandises leaves "Brandis" alone.
    Only the last word: a first word is as often a place the name begins with ("Porto" in "Porto Meridiano
    Coffee", a company of Leeds) as the company's short name. ``names``: IRI -> (name, types)."""
    out = {}
    for iri, (name, types) in names.items():
        key = name_key(name)
        if not key or " " in key:
            continue
        longer = [
            other
            for other, (text, kinds) in names.items()
            if other != iri and compatible(types, kinds) and " " in name_key(text) and key == name_key(text).split()[-1]
        ]
        if len(longer) == 1:
            out[iri] = longer[0]
    return out


def embedder_function(name: str | None):
    """Unit vectors of names from a named embedding model, or None for no similarity merges."""
    if not name:
        return None
    from graphwright.kb.embeddings import get_embedder

    model = get_embedder(name)

    def embed(texts: list[str]) -> np.ndarray:
        vectors = np.asarray(model.embed(texts), dtype=np.float32)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)

    return embed
