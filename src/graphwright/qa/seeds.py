"""Where a question enters the graph: the nodes its words name.

Three ways, strongest first: a phrase of the question is a node's label (case, punctuation and accents
aside); a name of the question is a KB entity (label, alias) that is a node or carries a node's label;
a name of the question is close to a node's label in embedding space. A shorter phrase inside a
longer one that matched is not a seed of its own ("Rush" inside "Rush Hour").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from graphwright.kb.protocol import KnowledgeBase
from graphwright.linking.names import normalize
from graphwright.text import marked_word_spans

MAX_WORDS = 8  # longest phrase looked up as a label
_POSSESSIVE = re.compile(r"['’]s?$")  # "Mara Quill's company" names Mara Quill
_QUOTED = re.compile(r"[\"“”«»]([^\"“”«»]{2,80})[\"“”«»]")
# question words that are capitalised only because they start the question
_LEADING = {
    "who",
    "what",
    "which",
    "when",
    "where",
    "why",
    "how",
    "is",
    "was",
    "are",
    "were",
    "do",
    "does",
    "did",
    "in",
    "the",
    "a",
    "an",
    "of",
    "for",
    "and",
    "or",
    "name",
    "whose",
    "whom",
    "at",
    "on",
    "to",
    "from",
    "by",
}


@dataclass(frozen=True)
class Seed:
    node: str
    label: str
    phrase: str  # the question's words
    score: float  # 1.0 for a label; the KB or embedding score otherwise
    how: str  # label, kb, embedding


def phrases(question: str) -> list[tuple[int, int, str]]:
    """Every run of 1 to MAX_WORDS words as (first word, last word + 1, text)."""
    words = marked_word_spans(question)
    out = []
    for i in range(len(words)):
        for j in range(i + 1, min(len(words), i + MAX_WORDS) + 1):
            out.append((i, j, _POSSESSIVE.sub("", question[words[i][0] : words[j - 1][1]].rstrip("."))))
    return out


def names(question: str) -> list[str]:
    """The question's names: quoted strings and runs of capitalised words (a lower-case "of", "the",
    "and" or "de" may join two). A possessive ends a run: "Brightwater's Sligo workshop" names Brightwater
    and Sligo, not "Brightwater's Sligo", which no text says."""
    found = [m.group(1).strip() for m in _QUOTED.finditer(question)]
    words = [question[a:b] for a, b in marked_word_spans(question)]
    run: list[str] = []
    for i, word in enumerate(words + [""]):
        capital = word[:1].isupper() or word[:1].isdigit()
        joins = (
            word in ("of", "the", "and", "de", "von", "van", "&")
            and run
            and i + 1 < len(words)
            and words[i + 1][:1].isupper()
        )
        if capital and not (not run and i == 0 and word.casefold() in _LEADING):
            run.append(word)
            if not _POSSESSIVE.search(word):
                continue
        elif joins:
            run.append(word)
            continue
        if run:  # the run ends here: at a lower-case word, the end, or a possessive
            found.append(_POSSESSIVE.sub("", " ".join(run).rstrip(".,")))
        run = []
    return list(dict.fromkeys(n for n in found if n))


class QuestionLinker:
    """Links questions to the nodes of one graph (``names``: node -> its labels)."""

    def __init__(
        self,
        node_names: dict[str, set[str]],
        kb: KnowledgeBase | None = None,
        *,
        embedder: str | None = "minilm",
        threshold: float = 0.82,
        max_seeds: int = 8,
    ):
        self.kb, self.threshold, self.max_seeds = kb, threshold, max_seeds
        self.by_name: dict[str, set[str]] = {}
        self.labels: list[tuple[str, str]] = []
        self.node_labels = node_names
        for node, labels in sorted(node_names.items()):
            for label in sorted(labels):
                self.by_name.setdefault(normalize(label), set()).add(node)
                self.labels.append((node, label))
        self._embedder_name = embedder
        self._matrix: np.ndarray | None = None

    def link(self, question: str) -> list[Seed]:
        seeds: dict[str, Seed] = {}

        def keep(seed: Seed) -> None:
            if seed.node not in seeds or seed.score > seeds[seed.node].score:
                seeds[seed.node] = seed

        covered: list[tuple[int, int]] = []
        for i, j, phrase in sorted(phrases(question), key=lambda p: p[0] - p[1]):  # longest first
            nodes = self.by_name.get(normalize(phrase))
            if not nodes or any(a <= i and j <= b for a, b in covered) or phrase.casefold() in _LEADING:
                continue
            covered.append((i, j))
            for node in sorted(nodes):
                keep(Seed(node, self._label(node), phrase, 1.0, "label"))
        question_names = [n for n in names(question) if normalize(n) not in self.by_name]
        for name in question_names:
            for seed in self._kb_seeds(name):
                keep(seed)
        for seed in self._embedding_seeds(question_names):
            keep(seed)
        return sorted(seeds.values(), key=lambda s: (-s.score, s.node))[: self.max_seeds]

    def namesakes(self, node: str) -> set[str]:
        """The other nodes carrying one of this node's names."""
        return {
            other for label in self.node_labels.get(node, ()) for other in self.by_name.get(normalize(label), ())
        } - {node}

    def _label(self, node: str) -> str:
        return min(self.node_labels[node])

    def _kb_seeds(self, name: str) -> list[Seed]:
        if self.kb is None:
            return []
        out = []
        for hit in self.kb.search(name, kind="entity", mode="label", k=3):
            record = hit.record
            if record.iri in self.node_labels:
                out.append(Seed(record.iri, self._label(record.iri), name, min(1.0, float(hit.score)), "kb"))
            for alias in [record.label, *record.aliases]:  # the KB knows the question's name as another
                for node in sorted(self.by_name.get(normalize(alias), ())):
                    out.append(Seed(node, self._label(node), name, 0.95, "kb"))
        return out

    def _embedding_seeds(self, question_names: list[str]) -> list[Seed]:
        if not question_names or not self.labels or self._embedder_name is None:
            return []
        from graphwright.retrieval.indices import EmbeddingIndex

        if self._matrix is None:
            index = EmbeddingIndex(self._embedder_name)
            index.add([label for _, label in self.labels])
            self._embedder, self._matrix = index.embedder, index.matrix
        out = []
        for name, vector in zip(question_names, self._embedder.embed(question_names)):
            scores = self._matrix @ vector
            for i in np.argsort(-scores, kind="stable")[:3]:
                if scores[i] >= self.threshold:
                    node, label = self.labels[int(i)]
                    out.append(Seed(node, label, name, float(scores[i]), "embedding"))
        return out
