"""Structure metrics of a graph and of its change: what `graph stats` prints per episode and what the
environment reward of Agentic-KGR is made of (paper 004, Eqs. 9-11 and A.5).

A topology is the undirected simple graph of entity-to-entity edges (literal objects and self-loops
are left out); isolated nodes count as nodes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from graphwright.growth.state import GrowthState

#: Above this many nodes the von Neumann entropy (an eigendecomposition) is not computed.
SPECTRAL_LIMIT = 1500


@dataclass(frozen=True)
class Topology:
    nodes: frozenset[str]
    edges: frozenset[frozenset[str]]  # each a pair of node IRIs

    @classmethod
    def of(cls, state: GrowthState) -> Topology:
        pairs = {
            frozenset((e.subject, e.object.value))
            for e in state.promoted()
            if e.object.kind == "iri" and e.object.value != e.subject
        }
        return cls(frozenset(state.nodes), frozenset(pairs))

    @classmethod
    def from_pairs(cls, pairs, nodes=()) -> Topology:
        edges = frozenset(frozenset(p) for p in pairs if len(set(p)) == 2)
        return cls(frozenset(nodes) | frozenset(n for e in edges for n in e), edges)

    def degrees(self) -> dict[str, int]:
        degree = dict.fromkeys(self.nodes, 0)
        for edge in self.edges:
            for n in edge:
                degree[n] = degree.get(n, 0) + 1
        return degree


def degree_entropy(g: Topology) -> float:
    """Shannon entropy of the degree distribution, p_v = deg(v) / sum(deg) (A.5's diversity proxy)."""
    degrees = [d for d in g.degrees().values() if d > 0]
    total = sum(degrees)
    return -sum(d / total * math.log(d / total) for d in degrees) if total else 0.0


def coverage(g: Topology, kappa: float = 0.5) -> float:
    """Cov_kappa(G) = sum_v [1 - (1 - kappa)^|N(v)|] with one-hop neighbourhoods (Eq. 9, h = 1)."""
    return sum(1 - (1 - kappa) ** d for d in g.degrees().values())


def von_neumann_entropy(g: Topology, mu: float = 1e-3) -> float | None:
    """-tr(rho log rho) with rho = (L + mu I) / tr(L + mu I), L = D - A (Eq. 10); None when too large."""
    n = len(g.nodes)
    if n == 0:
        return 0.0
    if n > SPECTRAL_LIMIT:
        return None
    index = {node: i for i, node in enumerate(sorted(g.nodes))}
    laplacian = np.zeros((n, n))
    for edge in g.edges:
        a, b = (index[x] for x in edge)
        laplacian[a, b] = laplacian[b, a] = -1.0
        laplacian[a, a] += 1.0
        laplacian[b, b] += 1.0
    rho = laplacian + mu * np.eye(n)
    eigenvalues = np.linalg.eigvalsh(rho / np.trace(rho))
    eigenvalues = eigenvalues[eigenvalues > 1e-15]
    return float(-(eigenvalues * np.log(eigenvalues)).sum())


def normalized_laplacian(g: Topology) -> dict[tuple[str, str], float]:
    """The non-zero entries of L = I - D^-1/2 A D^-1/2 (an isolated node's diagonal is 0, Chung's convention)."""
    degree = g.degrees()
    entries: dict[tuple[str, str], float] = {(n, n): 1.0 for n, d in degree.items() if d > 0}
    for edge in g.edges:
        a, b = sorted(edge)
        value = -1.0 / math.sqrt(degree[a] * degree[b])
        entries[(a, b)] = entries[(b, a)] = value
    return entries


def laplacian_change(before: Topology, after: Topology) -> float:
    """||L_after - L_before||_F over the union of both node sets (a node absent from one has zero rows)."""
    a, b = normalized_laplacian(before), normalized_laplacian(after)
    return math.sqrt(sum((b.get(k, 0.0) - a.get(k, 0.0)) ** 2 for k in a.keys() | b.keys()))


def growth(before: int, after: int) -> float:
    """(after - before) / max(1, before): A.5's coverage gain for entity and relation counts."""
    return (after - before) / max(1, before)


def episode_metrics(before: Topology, after: Topology, edges_before: int, edges_after: int) -> dict[str, float]:
    """What one episode did to the graph's structure."""
    out = {
        "entity_coverage_gain": growth(len(before.nodes), len(after.nodes)),
        "relation_coverage_gain": growth(edges_before, edges_after),
        "coverage": coverage(after),
        "coverage_gain": coverage(after) - coverage(before),
        "degree_entropy": degree_entropy(after),
        "entropy_gain": degree_entropy(after) - degree_entropy(before),
        "laplacian_change": laplacian_change(before, after),
    }
    entropy = von_neumann_entropy(after)
    if entropy is not None:
        out["von_neumann_entropy"] = entropy
    return out
