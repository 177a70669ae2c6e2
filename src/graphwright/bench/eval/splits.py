"""The fixed dev and test splits of the benchmarks (issue 44).

Each benchmark dataset's items are numbered from 1 in the order its loader gives them. Settings are
chosen on the dev items only; a test-split run is recorded once per configuration, with its commit in
the ledger, and only test-split numbers are claimed. The dev items are the ones earlier work read
while designing (rebel-sample 1-20, the first 100 test sentences of each sentence dataset); the test
items are the next ones, which no setting was chosen on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from graphwright.bench.eval.datasets import EvalDataset, load_dataset
from graphwright.errors import UserError

SPLIT_NAMES = ("dev", "test")


@dataclass(frozen=True)
class Items:
    first: int  # 1-based, inclusive
    last: int

    def __str__(self) -> str:
        return f"{self.first}-{self.last}"

    @property
    def count(self) -> int:
        return self.last - self.first + 1


_SENTENCES = {"dev": Items(1, 100), "test": Items(101, 200)}
SPLITS: dict[str, dict[str, Items]] = {
    "rebel-sample": {"dev": Items(1, 20), "test": Items(21, 100)},
    **{
        name: _SENTENCES
        for name in (
            "conll04",
            "scierc",
            "crossner-ai",
            "crossner-music",
            "crossner-politics",
            "conll2003",
            "nyt",
            "wikievents",
        )
    },
}


def split_suffix(split: str) -> str:
    """What a run's folder, ledger and table marker add for the split: dev runs keep the names they had."""
    return "" if split == "dev" else f"-{split}"


def items_title(dataset: str, split: str, done: int) -> str:
    """``the first 40 (of 100)`` of the dev split, ``test items 101-140 (of 101-200)`` of the test split."""
    items = split_items(dataset, split)
    if split == "dev":
        return f"the first {done} " if done == items.count else f"the first {done} (of {items.count} planned) "
    scored = Items(items.first, items.first + done - 1)
    return f"{split}-split items {scored} " + ("" if done == items.count else f"(of {items}) ") + "of the "


def split_items(dataset: str, split: str) -> Items:
    if split not in SPLIT_NAMES:
        raise UserError(f"unknown split {split!r}: choose dev or test")
    if dataset not in SPLITS:
        raise UserError(f"{dataset} has no fixed split; the datasets with one: {', '.join(SPLITS)}")
    return SPLITS[dataset][split]


def load_split(dataset: str, split: str, upto: int | None = None) -> EvalDataset:
    """The split's items of a dataset, in order; ``upto``: only its first ``upto`` items (a run in rounds)."""
    items = split_items(dataset, split)
    if upto is not None and upto > items.count:
        raise UserError(f"the {split} split of {dataset} has {items.count} items (items {items}); asked for {upto}")
    last = items.last if upto is None else items.first + upto - 1
    data = load_dataset(dataset, last)
    if len(data.documents) < last:
        raise UserError(f"{dataset} has {len(data.documents)} items; its {split} split is items {items}")
    return replace(data, documents=data.documents[items.first - 1 : last])
