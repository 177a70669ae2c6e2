"""Structure metrics against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from graphwright.growth.metrics import (
    Topology,
    coverage,
    degree_entropy,
    episode_metrics,
    laplacian_change,
    normalized_laplacian,
    von_neumann_entropy,
)

EDGE = Topology.from_pairs([("a", "b")])
PATH = Topology.from_pairs([("a", "b"), ("b", "c")])
EMPTY = Topology.from_pairs([])


def test_degree_entropy_of_a_path():
    # degrees 1, 2, 1: p = 1/4, 1/2, 1/4
    assert degree_entropy(PATH) == pytest.approx(-(2 * 0.25 * math.log(0.25) + 0.5 * math.log(0.5)))
    assert degree_entropy(EMPTY) == 0.0


def test_coverage_counts_neighbourhoods_submodularly():
    assert coverage(PATH, kappa=0.5) == pytest.approx(0.5 + 0.75 + 0.5)
    assert coverage(Topology.from_pairs([], nodes=["lonely"])) == 0.0


def test_normalized_laplacian_entries():
    entries = normalized_laplacian(PATH)
    assert entries[("a", "b")] == pytest.approx(-1 / math.sqrt(2)) and entries[("b", "b")] == 1.0
    assert ("a", "c") not in entries
    assert normalized_laplacian(Topology.from_pairs([], nodes=["x"])) == {}  # an isolated node adds nothing


def test_laplacian_change_between_graphs():
    assert laplacian_change(EMPTY, EDGE) == pytest.approx(2.0)  # 1 + 1 on the diagonal, 1 + 1 off it
    # a-b then a-b-c: c's diagonal (1), a-b's entries (1 - 1/sqrt 2 each), b-c's entries (1/sqrt 2 each)
    expected = math.sqrt(1 + 2 * (1 - 1 / math.sqrt(2)) ** 2 + 2 * 0.5)
    assert laplacian_change(EDGE, PATH) == pytest.approx(expected)
    assert laplacian_change(PATH, PATH) == 0.0


def test_von_neumann_entropy_of_one_edge():
    mu = 1e-3
    p = [mu / (2 + 2 * mu), (2 + mu) / (2 + 2 * mu)]  # eigenvalues 0 and 2 of L, shifted by mu, normalised
    assert von_neumann_entropy(EDGE, mu) == pytest.approx(-sum(x * math.log(x) for x in p))


def test_episode_metrics_name_the_growth():
    m = episode_metrics(EDGE, PATH, edges_before=1, edges_after=2)
    assert m["entity_coverage_gain"] == pytest.approx(0.5) and m["relation_coverage_gain"] == pytest.approx(1.0)
    assert m["entropy_gain"] == pytest.approx(degree_entropy(PATH) - degree_entropy(EDGE))
