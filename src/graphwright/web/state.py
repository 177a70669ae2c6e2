"""What one running server holds: its settings, the open store, the job book and runner, and the models
and KBs it has loaded (each loaded once, on first use, and shared by jobs and questions)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphwright.chunking import MAX_CHARS
from graphwright.curation import finish_pending
from graphwright.errors import UserError
from graphwright.qa.conversation import Conversations
from graphwright.store import GraphStore
from graphwright.store.bounded_query import BoundedQueries
from graphwright.web.graph_view import GraphIndex
from graphwright.web.jobs import JobBook
from graphwright.web.runner import JobRunner


@dataclass
class ServeConfig:
    store: Path
    data: Path  # the job table, the uploaded texts, results.jsonl per job, the LLM trace
    models: list[str] = field(default_factory=lambda: ["embedded"])  # the first is the default
    base_url: str | None = None
    api_key: str | None = None
    kbs: dict[str, str] = field(default_factory=lambda: {"default": "default", "none": "none"})  # name -> KB spec
    token: str | None = None
    loopback_only: bool = True
    private_urls: bool | None = None  # may a job's web addresses name local and private hosts; None: on loopback only
    max_upload_bytes: int = 20 * 1024 * 1024
    max_chars: int = MAX_CHARS
    cache: bool = True
    sparql_seconds: float = 30.0  # a typed SPARQL query is stopped after this long
    sparql_max_bytes: int = 50 * 1024 * 1024  # and the protocol endpoint's answer refused past this size

    @property
    def fetches_private_urls(self) -> bool:
        return self.loopback_only if self.private_urls is None else self.private_urls


class ServerState:
    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.store = GraphStore.open(config.store)
        finish_pending(self.store)  # a deletion a stopped server left half done
        self.queries = BoundedQueries(config.store, seconds=config.sparql_seconds, max_bytes=config.sparql_max_bytes)
        self.book = JobBook(config.data)
        self.conversations = Conversations(config.data / "chats")  # the chat page's turns, per conversation
        self._llms: dict[str, Any] = {}
        self._kbs: dict[str, Any] = {}
        self._qa: dict[tuple, tuple[int, Any]] = {}  # (model, kb, grown) -> (store version, GraphQA)
        self.runner = JobRunner(self.book, self.store, llm_for=self.llm, kb_for=self.kb, max_chars=config.max_chars)
        self.graph = GraphIndex(self.store, self.runner.stored_runs)
        self._task: asyncio.Task | None = None
        self._warm: asyncio.Task | None = None

    def start(self) -> list[str]:
        """Start the job queue; returns the interrupted jobs it took up again."""
        resumed = self.runner.resume_unfinished()
        self._task = asyncio.create_task(self.runner.run_forever())
        # the graph browser's first read of the store (seconds at 10,000 edges) starts now, not at the first page
        self._warm = asyncio.create_task(asyncio.to_thread(self.graph.data, self.runner.store_version))
        return resumed

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()  # a running job stays "running" in the book and resumes on the next start
            await asyncio.gather(self._task, return_exceptions=True)
        if self._warm:
            await asyncio.gather(self._warm, return_exceptions=True)  # its thread reads the store: wait, then close
        for llm in self._llms.values():
            await llm.aclose()
        self.book.close()
        self.queries.close()
        self.store.close()

    def check_model(self, model: str | None) -> str:
        model = model or self.config.models[0]
        if model not in self.config.models:
            raise UserError(f"model {model!r} is not served here; choose one of: {', '.join(self.config.models)}")
        return model

    def check_kb(self, kb: str | None) -> str:
        kb = kb or next(iter(self.config.kbs))
        if kb not in self.config.kbs:
            raise UserError(f"KB {kb!r} is not served here; choose one of: {', '.join(self.config.kbs)}")
        return kb

    def llm(self, model: str):
        """The served model (a job queued before a restart may name one this server no longer serves)."""
        from graphwright.llm import make_llm

        model = self.check_model(model)
        if model not in self._llms:
            c = self.config
            self._llms[model] = make_llm(
                model, base_url=c.base_url, api_key=c.api_key, cache=c.cache, trace_path=c.data / "llm-trace.jsonl"
            )
        return self._llms[model]

    def graph_qa(self, model: str | None, kb: str | None, grown: bool):
        """One GraphQA per choice, kept while the store is unchanged: its question linker indexes every
        name of the graph, which is worth doing once, not per question."""
        from graphwright.qa import GraphQA

        model, kb = self.check_model(model), self.check_kb(kb)
        version = self.runner.store_version
        kept = self._qa.get((model, kb, grown))
        if kept is None or kept[0] != version:
            qa = GraphQA(self.store, self.llm(model), None if kb == "none" else self.kb(kb), grown=grown)
            self._qa[(model, kb, grown)] = kept = (version, qa)
        return kept[1]

    def kb(self, name: str):
        from graphwright.kb import open_kb

        name = self.check_kb(name)
        if name not in self._kbs:
            self._kbs[name] = open_kb(self.config.kbs[name])
        return self._kbs[name]
