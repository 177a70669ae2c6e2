"""Bootstrap intervals for micro F1: how far a score measured on a few sentences could move.

Documents are resampled with replacement and the micro F1 of the summed counts recomputed each time;
the interval is the middle 95% of those scores (percentile bootstrap). Comparing two systems, both are
scored on the same resampled documents each time (paired), so sentence difficulty, which both share,
does not widen the interval of their difference.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from graphwright.bench.eval.metrics import Counts

RESAMPLES = 2000


def f1_interval(
    per_document: Sequence[Counts], *, level: float = 0.95, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """The percentile interval of micro F1 over documents resampled with replacement."""
    samples = [_micro_f1(per_document, idx) for idx in _resampled_indices(len(per_document), resamples, seed)]
    return _percentiles(samples, level)


def difference_interval(
    a: Sequence[Counts], b: Sequence[Counts], *, level: float = 0.95, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """The interval of micro F1 of ``a`` minus that of ``b``, where ``a[i]`` and ``b[i]`` score the same document."""
    if len(a) != len(b):
        raise ValueError(f"a paired comparison needs the same documents: {len(a)} against {len(b)}")
    samples = [_micro_f1(a, idx) - _micro_f1(b, idx) for idx in _resampled_indices(len(a), resamples, seed)]
    return _percentiles(samples, level)


def mean_interval(
    values: Sequence[float], *, level: float = 0.95, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """The percentile interval of a per-item mean (exact match, token F1) over items resampled with replacement."""
    samples = [sum(values[i] for i in idx) / len(idx) for idx in _resampled_indices(len(values), resamples, seed)]
    return _percentiles(samples, level)


def mean_difference_interval(
    a: Sequence[float], b: Sequence[float], *, level: float = 0.95, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """The interval of the mean of ``a`` minus that of ``b``, where ``a[i]`` and ``b[i]`` score the same item."""
    if len(a) != len(b):
        raise ValueError(f"a paired comparison needs the same items: {len(a)} against {len(b)}")
    return mean_interval([x - y for x, y in zip(a, b)], level=level, resamples=resamples, seed=seed)


def _resampled_indices(n: int, resamples: int, seed: int) -> list[list[int]]:
    if n == 0:
        raise ValueError("no documents to resample")
    rng = random.Random(seed)  # fixed, so a table rewritten from the same counts shows the same interval
    return [rng.choices(range(n), k=n) for _ in range(resamples)]


def _micro_f1(per_document: Sequence[Counts], indices: list[int]) -> float:
    return sum((per_document[i] for i in indices), Counts()).f1


def _percentiles(samples: list[float], level: float) -> tuple[float, float]:
    ordered = sorted(samples)
    tail = (1 - level) / 2
    return ordered[round(tail * (len(ordered) - 1))], ordered[round((1 - tail) * (len(ordered) - 1))]
