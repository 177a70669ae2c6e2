"""Text retrieval shared by the systems: labelled-sample search, memory recall, local text search."""

from graphwright.retrieval.indices import RETRIEVERS, RetrieverKind, TextIndex, make_index

__all__ = ["RETRIEVERS", "RetrieverKind", "TextIndex", "make_index"]
