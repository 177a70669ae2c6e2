"""Text retrieval shared by the systems: labelled-sample search, memory recall, local text search."""

from graphwright.retrieval.indices import RETRIEVERS, RetrieverKind, TextIndex, has_cjk, make_index, terms

__all__ = ["RETRIEVERS", "RetrieverKind", "TextIndex", "has_cjk", "make_index", "terms"]
