import random

import pytest

from graphwright.bench.eval.bootstrap import difference_interval, f1_interval
from graphwright.bench.eval.metrics import Counts


def noisy_documents(n: int, seed: int) -> list[Counts]:
    rng = random.Random(seed)
    return [Counts(rng.randint(0, 3), 3, rng.randint(0, 3), 3) for _ in range(n)]


def micro_f1(docs: list[Counts]) -> float:
    return sum(docs, Counts()).f1


def test_identical_documents_leave_no_doubt():
    docs = [Counts(1, 2, 1, 4)] * 10
    low, high = f1_interval(docs)
    assert low == pytest.approx(micro_f1(docs)) and high == pytest.approx(micro_f1(docs))


def test_the_interval_holds_the_score_and_narrows_with_more_documents():
    few, many = noisy_documents(10, seed=1), noisy_documents(200, seed=1)
    for docs in (few, many):
        low, high = f1_interval(docs)
        assert 0.0 <= low <= micro_f1(docs) <= high <= 1.0
    assert f1_interval(many)[1] - f1_interval(many)[0] < f1_interval(few)[1] - f1_interval(few)[0]


def test_the_same_seed_gives_the_same_interval():
    docs = noisy_documents(30, seed=2)
    assert f1_interval(docs, seed=7) == f1_interval(docs, seed=7)


def test_a_system_against_itself_differs_by_nothing():
    docs = noisy_documents(30, seed=3)
    assert difference_interval(docs, docs) == (0.0, 0.0)


def test_a_system_better_on_every_document_has_a_positive_difference():
    worse = noisy_documents(30, seed=4)
    better = [Counts(c.predicted, c.predicted, c.gold, c.gold) for c in worse]  # everything right
    low, high = difference_interval(better, worse)
    assert 0.0 < low <= high


def test_pairing_is_what_narrows_the_difference():
    # b is a, one hit worse on every document: alone each interval is wide, their paired difference is not
    a = [Counts(k, 4, k, 4) for k in (1, 2, 3, 4) * 5]
    b = [Counts(c.matched_pred - 1, 4, c.matched_gold - 1, 4) for c in a]
    low, high = difference_interval(a, b)
    assert high - low < (f1_interval(a)[1] - f1_interval(a)[0]) / 2


def test_unpaired_or_empty_inputs_are_refused():
    with pytest.raises(ValueError, match="same documents"):
        difference_interval(noisy_documents(3, seed=5), noisy_documents(4, seed=5))
    with pytest.raises(ValueError, match="no documents"):
        f1_interval([])


def test_mean_intervals_hold_the_mean_and_pair_the_items():
    from graphwright.bench.eval.bootstrap import mean_difference_interval, mean_interval

    values = [1.0, 0.0] * 50
    low, high = mean_interval(values)
    assert low < 0.5 < high and high - low < 0.25
    assert mean_interval([1.0] * 10) == (1.0, 1.0)
    # b is a plus a constant 0.2 on every item: paired, the difference has no doubt at all
    b = [v + 0.2 for v in values]
    assert mean_difference_interval(b, values) == pytest.approx((0.2, 0.2))
