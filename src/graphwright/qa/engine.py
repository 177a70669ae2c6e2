"""Ask questions of a graph, of passages, or of the model alone, with one answer call each.

* ``GraphQA`` (mode ``local``): the question's seed nodes, their ranked k-hop facts with the evidence
  sentences that state them, an answer citing facts. Mode ``passages``: the facts closest to the
  question seed a walk over names and passages, and the reader gets the passages it settles on with
  the facts that led there (graphwright.qa.passages). Mode ``global``: the community summaries closest
  to the question instead, for questions about the whole corpus.
* ``PassageQA``: the top k passages by BM25 or embeddings (the plain-retrieval baseline).
* ``ClosedBookQA``: no retrieval (the model's own knowledge).

Every ``ask`` gives a ``QAResult``: the answer, the sources it cites, all sources retrieved, and the
usage of its calls.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from graphwright.kb.protocol import KnowledgeBase
from graphwright.llm.base import LLM
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model.result import Usage
from graphwright.qa.answer import Reader, Source, answer
from graphwright.qa.facts import GraphFacts, GrownFacts
from graphwright.qa.passages import GraphPassages
from graphwright.qa.seeds import QuestionLinker, Seed, names
from graphwright.qa.subgraph import RankedFact, Relevance, retrieve
from graphwright.retrieval.indices import RetrieverKind, make_index
from graphwright.store import GraphStore

if TYPE_CHECKING:
    from graphwright.qa.communities import Community

GraphMode = Literal["local", "global", "passages"]
EVIDENCE_CHARS = 400  # an evidence sentence longer than this is cut: a table row or a whole paragraph


def retrieved_documents(sources: list[Source]) -> list[str]:
    """The passages retrieved, in rank order: the passage sources where there are any, else the
    documents behind the retrieved facts."""
    passages = [s for s in sources if s.id.startswith("P")]
    return list(dict.fromkeys(d for s in passages or sources for d in s.documents))


@dataclass
class QAResult:
    question: str
    mode: str
    answer: str
    citations: list[Source]
    sources: list[Source]
    usage: Usage
    seeds: list[Seed] = field(default_factory=list)
    error: str | None = None
    nothing: str | None = None  # what the graph holds nothing about, when the model was not asked to guess
    notes: str = ""  # what the notes reader wrote before it answered

    @property
    def supported(self) -> bool:
        """The answer cites what was retrieved (an uncited answer is the model's guess)."""
        return bool(self.citations)

    @property
    def documents(self) -> list[str]:
        return retrieved_documents(self.sources)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "mode": self.mode,
            "answer": self.answer,
            "supported": self.supported,
            "citations": [{"id": s.id, "text": s.text, "documents": s.documents} for s in self.citations],
            "sources": [
                {"id": s.id, "text": s.text, "documents": s.documents, "score": round(s.score, 4)} for s in self.sources
            ],
            "seeds": [
                {"node": s.node, "label": s.label, "phrase": s.phrase, "how": s.how, "score": round(s.score, 3)}
                for s in self.seeds
            ],
            "usage": self.usage.model_dump(),
            "error": self.error,
            "nothing": self.nothing,
            "notes": self.notes,
        }


async def _answer(
    llm: LLM,
    question: str,
    mode: str,
    sources: list[Source] | None,
    started: float,
    seeds: list[Seed] | None = None,
    reader: Reader = "short",
    spent: Usage | None = None,
    on_answer: Callable[[str], None] | None = None,
) -> QAResult:
    """The answer call; ``reader``: graphwright.qa.answer's; ``spent``: what retrieval already cost (the
    global mode's summaries); ``on_answer``: told the answer so far as the model writes it."""
    meter = MeteredLLM(llm)
    reply = await answer(meter, question, sources, reader=reader, on_answer=on_answer)
    usage = (meter.usage + (spent or Usage())).model_copy(update={"seconds": time.perf_counter() - started})
    return QAResult(
        question, mode, reply.answer, reply.citations, sources or [], usage, seeds or [], reply.error, notes=reply.notes
    )


def unmentioned(question: str, sources: list[Source]) -> list[str]:
    """The names in the question (graphwright.qa.seeds.names) that no retrieved source mentions: what the
    graph holds nothing about. A question without names gives none (nothing to check it by)."""
    said = " ".join(s.text for s in sources).casefold()
    return [name for name in names(question) if name.casefold() not in said]


def fact_sources(ranked: list[RankedFact]) -> list[Source]:
    """Facts as numbered lines with their evidence; a sentence already shown is referred to, not repeated."""
    shown: dict[str, str] = {}
    out = []
    for i, item in enumerate(ranked, 1):
        fact, sid = item.fact, f"F{i}"
        line = f"{fact.subject_label} | {fact.predicate_label} | {fact.object_label}"
        evidence = next(iter(fact.evidence.values()), None)
        if evidence:
            evidence = " ".join(evidence.split())[:EVIDENCE_CHARS]
            line += f" (as {shown[evidence]})" if evidence in shown else f' - "{evidence}"'
            shown.setdefault(evidence, sid)
        out.append(
            Source(
                sid,
                line,
                [d for d in fact.evidence if d],
                item.score,
                {"subject": fact.subject, "predicate": fact.predicate, "object": fact.object, "hop": item.hop},
            )
        )
    return out


class GraphQA:
    """Questions over a store's graph. ``systems`` keeps the graphs of those systems only (None: all);
    ``grown`` reads the graph grown over the documents instead (`graph merge`: entities resolved across them)."""

    def __init__(
        self,
        store: GraphStore,
        llm: LLM,
        kb: KnowledgeBase | None = None,
        *,
        systems: Iterable[str] | None = None,
        grown: bool = False,
        embedder: str = "minilm",
        hops: int = 3,
        max_facts: int = 15,
        expand: int = 10,
        communities: int = 5,
        on_summary: Callable[[str], None] | None = None,
        reader: Reader = "short",
    ):
        self.store, self.llm, self.kb, self.embedder, self.grown = store, llm, kb, embedder, grown
        self.reader = reader
        self.on_summary = on_summary  # told of each community summarised (the global mode's first question)
        self.systems = set(systems) if systems else None
        self.hops, self.max_facts, self.expand, self.top_communities = hops, max_facts, expand, communities
        self.relevance = Relevance(embedder)
        self._linker: QuestionLinker | None = None  # over the whole graph, built on first use
        self._passages: GraphPassages | None = None  # likewise
        self._communities: list[Community] | None = None
        self._summarising = asyncio.Lock()  # two first global questions at once summarise once

    def facts(self, documents: Iterable[str] | None = None) -> GraphFacts | GrownFacts:
        wanted = set(documents) if documents is not None else None
        return GrownFacts(self.store, wanted) if self.grown else GraphFacts(self.store, self.systems, wanted)

    def linker(self, graph: GraphFacts | GrownFacts) -> QuestionLinker:
        if graph.documents is not None:  # a pool of documents: its own, small linker
            return QuestionLinker(graph.names(), self.kb, embedder=self.embedder)
        if self._linker is None:
            self._linker = QuestionLinker(graph.names(), self.kb, embedder=self.embedder)
        return self._linker

    def subgraph(self, question: str, documents: Iterable[str] | None = None) -> tuple[list[Seed], list[Source]]:
        """The seeds and the ranked facts (as sources) the local mode answers from; no model call."""
        graph = self.facts(documents)
        linker = self.linker(graph)
        seeds = linker.link(question)
        ranked = retrieve(
            graph,
            seeds,
            question,
            self.relevance,
            hops=self.hops,
            max_facts=self.max_facts,
            expand=self.expand,
            namesakes=linker.namesakes,
        )
        return seeds, fact_sources(ranked)

    def passages(self, documents: Iterable[str] | None = None) -> GraphPassages:
        """The walk over the graph's facts and its documents' stored texts; a document stored before
        texts were kept reads as the sentences that state its facts."""
        if documents is None and self._passages is not None:
            return self._passages
        facts = self.facts(documents).all()
        texts = self.store.document_texts(documents)
        sentences: dict[str, list[str]] = {}
        for fact in facts:
            for document, sentence in fact.evidence.items():
                if document and document not in texts:
                    sentences.setdefault(document, []).append(sentence)
        texts.update({document: " ".join(dict.fromkeys(said)) for document, said in sentences.items()})
        built = GraphPassages(facts, texts, self.relevance)
        if documents is None:
            self._passages = built
        return built

    async def ask(
        self,
        question: str,
        *,
        mode: GraphMode = "local",
        documents: Iterable[str] | None = None,
        guess: bool = True,
        on_answer: Callable[[str], None] | None = None,
        reader: Reader | None = None,
    ) -> QAResult:
        """``guess=False``: when nothing retrieved mentions a name the question asks about (or nothing is
        retrieved at all), say so instead of asking the model, which would guess. ``reader``: this question's,
        instead of the one the engine was made with. ``on_answer`` is told
        the answer so far while the model writes it."""
        started = time.perf_counter()
        reader = reader or self.reader
        if mode == "passages":  # no model call before the answer: store reads and embeddings, off the loop
            sources = await asyncio.to_thread(lambda: self.passages(documents).sources(question))
            if not guess and (missing := self._nothing_about(question, sources)):
                return QAResult(question, "passages", "", [], sources, Usage(), nothing=missing)
            return await _answer(self.llm, question, "passages", sources, started, reader=reader, on_answer=on_answer)
        if mode == "global":
            meter = MeteredLLM(self.llm)
            sources = await self.community_sources(question, meter)
            return await _answer(
                self.llm, question, "global", sources, started, reader=reader, spent=meter.usage, on_answer=on_answer
            )
        # no model call, but store reads and embeddings: off the event loop, which may be serving others
        seeds, sources = await asyncio.to_thread(self.subgraph, question, documents)
        if not guess and (missing := self._nothing_about(question, sources)):
            return QAResult(question, "local", "", [], sources, Usage(), seeds, nothing=missing)
        return await _answer(self.llm, question, "local", sources, started, seeds, reader=reader, on_answer=on_answer)

    @staticmethod
    def _nothing_about(question: str, sources: list[Source]) -> str | None:
        missing = (names(question) or ["the question"]) if not sources else unmentioned(question, sources)
        return ", ".join(missing) if missing else None

    async def community_sources(self, question: str, llm: LLM | None = None) -> list[Source]:
        """The community summaries closest to the question; the first call has ``llm`` summarise them."""
        from graphwright.qa.communities import summarise

        async with self._summarising:
            if self._communities is None:
                facts = await asyncio.to_thread(lambda: self.facts().all())  # store reads: off the event loop
                self._communities = await summarise(llm or self.llm, facts, on_progress=self.on_summary)
        texts = [f"{c.title}: {c.summary}" if c.title else c.summary for c in self._communities]
        scores = await asyncio.to_thread(self.relevance.scores, question, texts)
        best = sorted(zip(self._communities, texts, scores), key=lambda x: -x[2])[: self.top_communities]
        return [
            Source(
                f"C{i}", text, community.documents, score, {"community": community.id, "nodes": len(community.nodes)}
            )
            for i, (community, text, score) in enumerate(best, 1)
        ]


class PassageQA:
    """Plain retrieval: the ``k`` best passages by ``retriever`` (bm25 or embedding) in one answer call.
    ``passages``: (id, title, text) each."""

    def __init__(
        self,
        llm: LLM,
        passages: list[tuple[str, str, str]],
        retriever: RetrieverKind = "bm25",
        k: int = 5,
        embedder: str = "minilm",
        reader: Reader = "short",
    ):
        self.llm, self.k, self.retriever, self.embedder, self.reader = llm, k, retriever, embedder, reader
        self.passages = passages
        self.position = {pid: i for i, (pid, _, _) in enumerate(passages)}
        self.index = self._index(range(len(passages)))

    def _index(self, positions: Iterable[int]):
        return make_index(
            self.retriever, [f"{self.passages[i][1]}\n{self.passages[i][2]}" for i in positions], embedder=self.embedder
        )

    def retrieve(self, question: str, pool: Iterable[str] | None = None) -> list[Source]:
        if pool is None:
            chosen = self.index.top(question, self.k)
        else:  # rank only the question's own passages
            positions = [self.position[p] for p in pool]
            chosen = [positions[i] for i in self._index(positions).top(question, self.k)]
        out = []
        for rank, i in enumerate(chosen, 1):
            pid, title, text = self.passages[i]
            out.append(Source(f"P{rank}", f"{title}: {' '.join(text.split())}", [pid], 1.0 / rank, {"title": title}))
        return out

    async def ask(self, question: str, *, pool: Iterable[str] | None = None) -> QAResult:
        started = time.perf_counter()
        return await _answer(
            self.llm, question, self.retriever, self.retrieve(question, pool), started, reader=self.reader
        )


class ClosedBookQA:
    def __init__(self, llm: LLM):
        self.llm = llm

    async def ask(self, question: str) -> QAResult:
        return await _answer(self.llm, question, "none", None, time.perf_counter())
