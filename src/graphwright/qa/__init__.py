"""Question answering over the built graph (GraphRAG), and the baselines it is measured against:
plain passage retrieval and no retrieval (issue 26)."""

from graphwright.qa.answer import Source
from graphwright.qa.engine import ClosedBookQA, GraphQA, PassageQA, QAResult

__all__ = ["ClosedBookQA", "GraphQA", "PassageQA", "QAResult", "Source"]
