"""The ``cie`` entry point: importing this registers CIExMAS's six architectures (cie.baseline, cie.network,
cie.react, cie.single, cie.ssa, cie.sssa), each from its own package."""

from __future__ import annotations

from graphwright.papers.cie import baseline, network, react, single, ssa, sssa

__all__ = ["baseline", "network", "react", "single", "ssa", "sssa"]
