"""NER datasets: sentences as tokens with IOB2 tags, and the entity domain that describes their types.

crossner (five domains), conll2003, astro-ner, music-reco-ner, genia-ner (JNLPBA, flat) and weibo-ner
(Chinese, one character a token) are read from the data directory. Each gives a test split and a
labelled split for few-shot examples and the grounding knowledge base (its train split; genia-ner has
only dev here). Text is the tokens joined by a space (no separator for Chinese), so gold entities have
exact character offsets.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from graphwright.bench.data.files import data_file, open_text, read_json
from graphwright.bench.data.gold import GoldDocument, GoldEntity
from graphwright.model.domain import EntityDomain, load_domain
from graphwright.model.labelled import NERSample, token_offsets
from graphwright.model.tags import Chunk, chunks, to_iob2
from graphwright.registry import Registry


@dataclass
class NERDataset:
    name: str
    domain: EntityDomain
    test: list[NERSample]
    train: list[NERSample]  # few-shot examples and the grounding KB; never the test split
    note: str = ""


NER_DATASETS: Registry[Callable[[], NERDataset]] = Registry("NER dataset")


@lru_cache(maxsize=16)
def load_ner_dataset(name: str) -> NERDataset:
    return NER_DATASETS.get(name)()


def gold_documents(dataset: NERDataset, limit: int | None = None) -> list[GoldDocument]:
    docs = []
    for sample in dataset.test[:limit] if limit else dataset.test:
        text = sample.text
        docs.append(
            GoldDocument(
                id=sample.id,
                text=text,
                tokens=token_offsets(sample.tokens, sample.separator),
                entities=[GoldEntity(start=s, end=e, type=t, surface=text[s:e]) for s, e, t in sample.char_spans()],
            )
        )
    return docs


def _register(name: str, loader: Callable[[], NERDataset], doc: str) -> None:
    """Register a loader (graphwright.bench.eval.datasets makes each an eval dataset scored by the NER metrics)."""
    loader.__doc__ = doc
    NER_DATASETS.register(name)(loader)


def _domain(name: str) -> EntityDomain:
    with resources.as_file(resources.files("graphwright.bench.data").joinpath("ner_domains", f"{name}.yaml")) as path:
        return load_domain(path)


# ---- readers ---------------------------------------------------------------------------------------------


def read_columns(
    *parts: str, split: str, separator: str = " ", token: Callable[[str], str] = lambda t: t
) -> list[NERSample]:
    """Token-per-line ``token<TAB>tag`` files, blank line between sentences; ``-DOCSTART-`` lines are
    skipped and BIO tags are repaired into IOB2 (an ``I-`` that starts an entity becomes ``B-``)."""
    samples: list[NERSample] = []
    tokens: list[str] = []
    tags: list[str] = []

    def flush() -> None:
        if tokens:
            samples.append(
                NERSample(
                    id=f"{split}-{len(samples)}",
                    tokens=list(tokens),
                    tags=to_iob2(chunks(tags), len(tags)),
                    separator=separator,
                )
            )
        tokens.clear()
        tags.clear()

    with open_text(data_file(*parts)) as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line.strip():
                flush()
                continue
            word, _, tag = line.rpartition("\t") if "\t" in line else line.rpartition(" ")
            if word == "-DOCSTART-":
                continue
            tokens.append(token(word))
            tags.append(tag.strip() or "O")
    flush()
    return samples


def _astro(split: str) -> list[NERSample]:
    """Paper titles with character offsets: split into words and punctuation, tags from the offsets."""
    samples = []
    for row in read_json(data_file("astro-ner", f"{split}.json")):
        title = row["title"]
        words = [(m.start(), m.end()) for m in re.finditer(r"\w+|[^\w\s]", title)]
        spans = []
        for a in row["annotations"]:
            inside = [i for i, (s, e) in enumerate(words) if s < a["end"] and e > a["start"]]
            if inside:
                spans.append(Chunk(inside[0], inside[-1] + 1, a["label"]))
        samples.append(
            NERSample(id=f"{split}-{row['id']}", tokens=[title[s:e] for s, e in words], tags=to_iob2(spans, len(words)))
        )
    return samples


# ---- the datasets ----------------------------------------------------------------------------------------

CROSSNER_DOMAINS = ("ai", "literature", "music", "politics", "science")


def _crossner(d: str) -> Callable[[], NERDataset]:
    return lambda: NERDataset(
        f"crossner-{d}",
        _domain(f"crossner-{d}"),
        read_columns("crossner", d, "test.txt", split="test"),
        read_columns("crossner", d, "train.txt", split="train"),
        note="CrossNER (Liu et al. 2021)",
    )


for _d in CROSSNER_DOMAINS:
    _register(
        f"crossner-{_d}",
        _crossner(_d),
        f"CrossNER {_d}: Wikipedia sentences with domain-specific entity types.",
    )

_register(
    "conll2003",
    lambda: NERDataset(
        "conll2003",
        _domain("conll2003"),
        read_columns("conll2003", "test.txt", split="test"),
        read_columns("conll2003", "train.txt.gz", split="train"),
        note="CoNLL-2003 English (research use)",
    ),
    "CoNLL-2003: Reuters news, person / location / organisation / misc (3,453 test sentences).",
)

_register(
    "astro-ner",
    lambda: NERDataset(
        "astro-ner", _domain("astro-ner"), _astro("test"), _astro("train"), note="Astro-NER (2024), 12 types"
    ),
    "Astro-NER: astronomy paper titles, 12 entity types.",
)

_register(
    "music-reco-ner",
    lambda: NERDataset(
        "music-reco-ner",
        _domain("music-reco-ner"),
        read_columns("music-reco-ner", "test.bio", split="test"),
        read_columns("music-reco-ner", "train.bio", split="train"),
        note="MusicRecoNER (2023)",
    ),
    "MusicRecoNER: Reddit music recommendation queries, Artist and WoA (601 test queries).",
)

_register(
    "genia-ner",
    lambda: NERDataset(
        "genia-ner",
        _domain("genia-ner"),
        read_columns("genia-ner", "jnlpba", "test.tsv.gz", split="test"),
        read_columns("genia-ner", "jnlpba", "devel.tsv.gz", split="dev"),
        note="JNLPBA (GENIA, flat): the data has no train split here, so examples and the KB come from dev",
    ),
    "genia-ner (JNLPBA): biomedical abstracts, protein / DNA / RNA / cell type / cell line.",
)

_register(
    "weibo-ner",
    lambda: NERDataset(
        "weibo-ner",
        _domain("weibo-ner"),
        read_columns("weibo-ner", "weiboNER_2nd_conll.test", split="test", separator="", token=lambda t: t[:-1] or t),
        read_columns("weibo-ner", "weiboNER_2nd_conll.train", split="train", separator="", token=lambda t: t[:-1] or t),
        note="Weibo NER (Peng & Dredze 2015), Chinese, one character a token",
    ),
    "weibo-ner: Chinese Weibo posts, person / organisation / location / GPE, names and nominals.",
)
