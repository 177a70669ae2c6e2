"""Search for the researcher agent, pluggable (paper 002 used the Tavily web API).

``LocalSearch`` (the offline default) ranks local passages with BM25: the grounding KB as
"phrase: types" lines, the domain's type definitions, and any text files the user points to.
``WebSearch`` calls a Tavily-style HTTP JSON API (POST ``{"query", "include_answer"}`` ->
``{"answer", "results": [{"title", "content"}]}``) that a user configures; tests never need it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import httpx

from graphwright.errors import DataNotFoundError, GraphwrightError
from graphwright.retrieval.indices import BM25Index
from graphwright.text import search_terms

PASSAGE_CHARS = 400


class SearchUnavailableError(GraphwrightError):
    """The web search backend did not answer; the researcher reports it and the chat goes on."""


class Search(Protocol):
    async def search(self, query: str, k: int = 3) -> list[str]: ...


class LocalSearch:
    def __init__(self, passages: list[str]):
        self.passages = [p for p in dict.fromkeys(p.strip() for p in passages) if p]
        self.index = BM25Index()
        self.index.add(self.passages)

    @classmethod
    def from_files(cls, paths: Sequence[Path | str], extra: Sequence[str] = ()) -> LocalSearch:
        """Paragraphs of the given text files (folders: their .txt and .md files), plus ``extra``."""
        passages = list(extra)
        for path in map(Path, paths):
            files = sorted([*path.rglob("*.txt"), *path.rglob("*.md")]) if path.is_dir() else [path]
            for file in files:
                if not file.is_file():
                    raise DataNotFoundError(f"search corpus {file} not found")
                text = file.read_text(encoding="utf-8", errors="replace")
                passages += [p[:PASSAGE_CHARS] for p in text.split("\n\n")]
        return cls(passages)

    async def search(self, query: str, k: int = 3) -> list[str]:
        """The ``k`` best passages sharing a word with the query; none when nothing matches (an unrelated
        passage would read to the researcher as an answer)."""
        if not self.passages:
            return []
        scores = self.index.scores(Counter(search_terms(query)))
        return [self.passages[i] for i in self.index.top(query, k) if scores[i] > 0]


class WebSearch:
    def __init__(self, url: str, api_key: str | None = None, timeout: float = 20.0):
        self.url, self.api_key, self.timeout = url, api_key, timeout

    async def search(self, query: str, k: int = 3) -> list[str]:
        payload = {"query": query, "include_answer": True, "max_results": k}
        if self.api_key:
            payload["api_key"] = self.api_key
        try:
            async with httpx.AsyncClient(timeout=self.timeout) as client:  # never blocks the other documents
                response = await client.post(self.url, json=payload)
            response.raise_for_status()
            data = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise SearchUnavailableError(f"web search at {self.url} failed: {exc}") from exc
        out = [data["answer"]] if data.get("answer") else []
        out += [f"{r.get('title', '')}: {r.get('content', '')}"[:PASSAGE_CHARS] for r in data.get("results", [])]
        return out[:k]
