"""The fixed dev and test splits: which items each holds, and that a run cannot step outside its split."""

from __future__ import annotations

import pytest

from graphwright.bench.data.gold import GoldDocument
from graphwright.bench.eval import splits
from graphwright.bench.eval.datasets import EvalDataset
from graphwright.errors import UserError


@pytest.fixture
def numbered(monkeypatch):
    """A dataset of 300 items whose ids are their numbers from 1."""

    def load(name, limit=None):
        docs = [GoldDocument(id=str(i), text=f"Item {i}.") for i in range(1, 301)]
        return EvalDataset(name, docs[:limit] if limit else docs)

    monkeypatch.setattr(splits, "load_dataset", load)


def test_test_items_follow_the_dev_items_and_never_overlap(numbered):
    dev = [d.id for d in splits.load_split("conll04", "dev").documents]
    test = [d.id for d in splits.load_split("conll04", "test").documents]
    assert dev == [str(i) for i in range(1, 101)] and test == [str(i) for i in range(101, 201)]
    assert [d.id for d in splits.load_split("rebel-sample", "test", upto=3).documents] == ["21", "22", "23"]


def test_a_run_cannot_reach_past_its_split(numbered):
    with pytest.raises(UserError, match="has 100 items"):
        splits.load_split("conll04", "dev", upto=150)
    with pytest.raises(UserError, match="no fixed split"):
        splits.load_split("made-up", "dev")
    with pytest.raises(UserError, match="dev or test"):
        splits.load_split("conll04", "train")


def test_titles_and_names_say_the_split():
    assert splits.split_suffix("dev") == "" and splits.split_suffix("test") == "-test"
    assert splits.items_title("conll04", "dev", 100) == "the first 100 "
    assert splits.items_title("conll04", "dev", 40) == "the first 40 (of 100 planned) "
    assert splits.items_title("conll04", "test", 20) == "test-split items 101-120 (of 101-200) of the "
