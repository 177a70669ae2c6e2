"""The stored graph over HTTP: the browser's filtered views, read-only SPARQL, exports and questions."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import asdict
from typing import Any, Literal

from fastapi import APIRouter, Body, HTTPException, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from graphwright.errors import GraphwrightError, StoreError
from graphwright.qa.conversation import CONVERSATION_ID, Turn, contains_answer, rewrite, topic_of, unsupported_answer
from graphwright.store import serialize_graph
from graphwright.store.bounded_query import QueryTimeout
from graphwright.store.export import resolve_format
from graphwright.web.api_jobs import server
from graphwright.web.graph_view import Filters

router = APIRouter(tags=["graph"])
# an update's first keyword after its prologue (PREFIX/BASE lines): refused before the query parser sees it
_UPDATE = re.compile(
    r"^\s*(?:(?:PREFIX\s+\S*\s*<[^>]*>|BASE\s*<[^>]*>)\s*)*"
    r"(INSERT|DELETE|LOAD|CLEAR|DROP|CREATE|ADD|MOVE|COPY|WITH)\b",
    re.IGNORECASE,
)
_MEDIA = {
    "turtle": "text/turtle",
    "ntriples": "application/n-triples",
    "jsonld": "application/ld+json",
    "nquads": "application/n-quads",
    "trig": "application/trig",
    "graphml": "application/graphml+xml",
    "neo4j": "application/zip",
}
_SUFFIX = {
    "turtle": "ttl",
    "ntriples": "nt",
    "jsonld": "jsonld",
    "nquads": "nq",
    "trig": "trig",
    "graphml": "graphml",
    "neo4j": "zip",
}


def _filters(
    document: str | None, system: str | None, type: str | None, min_confidence: float | None, q: str | None
) -> Filters:
    return Filters(document or None, system or None, type or None, min_confidence, (q or "").strip() or None)


@router.get("/api/graph")
def graph(
    request: Request,
    document: str | None = None,
    system: str | None = None,
    type: str | None = None,
    min_confidence: float | None = Query(None, ge=0, le=1),
    q: str | None = None,
    limit: int = Query(300, ge=1, le=5000),
) -> dict[str, Any]:
    """The best-supported edges that pass the filters (``total`` says how many passed), and the store's
    ``version`` they were read at (the page compares it with the event stream's)."""
    state = server(request)
    version = state.runner.store_version
    return {
        **state.graph.select(version, _filters(document, system, type, min_confidence, q), limit),
        "version": version,
    }


@router.get("/api/graph/facets")
def facets(request: Request) -> dict[str, Any]:
    """The documents, systems and node types to filter by, and the graph's size."""
    state = server(request)
    return state.graph.facets(state.runner.store_version)


@router.get("/api/graph/nodes/{node_id}/neighbours")
def neighbours(
    request: Request,
    node_id: str,
    document: str | None = None,
    system: str | None = None,
    min_confidence: float | None = Query(None, ge=0, le=1),
    limit: int = Query(200, ge=1, le=5000),
):
    state = server(request)
    try:
        number = int(node_id.removeprefix("n"))
        return state.graph.neighbourhood(
            state.runner.store_version, number, _filters(document, system, None, min_confidence, None), limit
        )
    except (KeyError, ValueError):
        raise HTTPException(404, f"no node {node_id!r} (the graph may have changed: reload it)") from None


class SparqlRequest(BaseModel):
    query: str = Field(..., max_length=100_000)
    grown: bool = False


def _read_only(query: str) -> str:
    if _UPDATE.match(query):
        raise HTTPException(403, "SPARQL updates are refused: this endpoint is read-only")
    return query


@router.post("/api/sparql")
def sparql(request: Request, body: SparqlRequest) -> dict[str, Any]:
    """A read-only query; rows map variable names to values. The default graph is every document's KG
    merged (a fact two documents state is one row); ``GRAPH ?g`` reaches each run's own graphs.
    At most 10,000 rows come back (``truncated`` says when more matched)."""
    state = server(request)
    if body.grown and not state.store.has_grown_graph():
        raise HTTPException(
            409,
            "this store has no grown graph yet: run `graphwright graph merge --store <store>` "
            "to grow one from its documents, or query every document's graph instead",
        )
    try:
        found = state.queries.rows(_read_only(body.query), version=state.runner.store_version, grown=body.grown)
    except StoreError as exc:
        raise _query_error(exc) from exc
    return {"columns": list(found.rows[0]) if found.rows else [], "rows": found.rows, "truncated": found.truncated}


@router.get("/sparql")
def sparql_protocol_get(request: Request, query: str | None = None) -> Response:
    """A SPARQL 1.1 protocol endpoint for other tools (read-only), answering in the format the Accept
    header asks for: SELECT/ASK as SPARQL JSON (the default), XML, CSV or TSV results; CONSTRUCT/DESCRIBE
    as N-Triples (the default), Turtle or RDF/XML. The default graph is every document's KG merged, each
    triple once."""
    return _protocol_answer(request, query)


@router.post("/sparql")
async def sparql_protocol_post(request: Request, query: str | None = None) -> Response:
    """The same, with the query as a form field or an ``application/sparql-query`` body."""
    if query is None:
        kind = request.headers.get("content-type", "").split(";")[0].strip()
        if kind == "application/sparql-query":
            query = (await request.body()).decode("utf-8", errors="replace")
        elif kind == "application/x-www-form-urlencoded":
            field = (await request.form()).get("query")
            if field is not None and not isinstance(field, str):
                raise HTTPException(400, "give the query form field as text, not as a file")
            query = field
    return await asyncio.to_thread(_protocol_answer, request, query)


def _protocol_answer(request: Request, query: str | None) -> Response:
    if not query:
        raise HTTPException(400, "give the query as ?query=..., a form field, or an application/sparql-query body")
    state = server(request)
    try:
        answer = state.queries.serialized(
            _read_only(query), version=state.runner.store_version, accept=request.headers.get("accept", "")
        )
    except StoreError as exc:
        raise _query_error(exc) from exc
    return Response(answer.body, media_type=answer.media_type)


def _query_error(exc: StoreError) -> HTTPException:
    """503 for a query stopped at the time limit, as SPARQL servers answer; 400 for the others."""
    return HTTPException(503 if isinstance(exc, QueryTimeout) else 400, str(exc))


@router.get("/api/export")
def export(
    request: Request,
    format: str = "turtle",
    document: str | None = None,
    system: str | None = None,
    provenance: bool = False,
    grown: bool = False,
) -> Response:
    """The graph as a file: turtle, ntriples, jsonld, nquads, trig, graphml or neo4j (CSV files, zipped)."""
    try:
        name = resolve_format(format)
        data = serialize_graph(
            server(request).store,
            name,
            document_id=document or None,
            system=system or None,
            include_provenance=provenance,
            grown=grown,
        )
    except GraphwrightError as exc:
        raise HTTPException(400, str(exc)) from exc
    return Response(
        data,
        media_type=_MEDIA[name],
        headers={"Content-Disposition": f'attachment; filename="graphwright.{_SUFFIX[name]}"'},
    )


class AskRequest(BaseModel):
    question: str = Field(..., min_length=1, max_length=2000)
    mode: str = Field("local", pattern="^(local|passages|global)$")
    guess: bool = Field(False, description="Let the model answer when nothing retrieved mentions what is asked about.")
    model: str | None = None
    kb: str | None = None
    documents: list[str] | None = None
    grown: bool = False
    reader: Literal["short", "notes"] = Field(
        "short", description="notes: the model notes the facts the answer needs, then answers (graphwright.qa.answer)"
    )


def _answered(state, result) -> dict[str, Any]:
    """The result with the file name of each document its sources come from (``document_names``), as
    `graphwright ask` prints them."""
    out = result.to_dict()
    out["document_names"] = state.store.sources({d for s in result.sources for d in s.documents})
    return out


@router.post("/api/ask")
async def ask(request: Request, body: AskRequest = Body(...)) -> dict[str, Any]:
    """An answer from the graph with the facts and passages it cites (``graphwright ask`` over HTTP)."""
    state = server(request)
    try:
        qa = state.graph_qa(body.model, body.kb, body.grown)
        result = await qa.ask(
            body.question, mode=body.mode, documents=body.documents or None, guess=body.guess, reader=body.reader
        )
    except GraphwrightError as exc:
        raise HTTPException(400, str(exc)) from exc
    return await asyncio.to_thread(_answered, state, result)


class ChatRequest(AskRequest):
    conversation: str | None = Field(
        None,
        pattern=CONVERSATION_ID.pattern,
        description="the conversation this question goes on; none: a new one, whose id the result carries",
    )


@router.get("/api/chat/{conversation}")
def chat_history(request: Request, conversation: str) -> dict[str, Any]:
    """A conversation's turns, for a page that reopens it."""
    if not CONVERSATION_ID.match(conversation):
        raise HTTPException(404, "no such conversation")
    return {
        "conversation": conversation,
        "turns": [asdict(t) for t in server(request).conversations.turns(conversation)],
    }


def shown(result, out: dict[str, Any]) -> str:
    """The answer as the chat page shows it, for a page that reopens the conversation."""
    return out["answer"] or (
        f"The graph holds nothing about {result.nothing}."
        if result.nothing
        else f"no answer: {result.error}"
        if result.error
        else ""
    )


@router.post("/api/chat")
async def chat(request: Request, body: ChatRequest = Body(...)) -> StreamingResponse:
    """The answer as server-sent events: ``answer`` events with the answer so far while the model writes
    it, then one ``result`` event with the whole result (or ``error``). The question goes on the
    conversation's earlier turns: "When was it founded?" is asked about the last turn's topic, and the
    answer is supported only where a cited fact or passage holds it (graphwright.qa.conversation)."""
    state = server(request)
    try:
        qa = state.graph_qa(body.model, body.kb, body.grown)  # a bad model or KB: 400 before streaming
    except GraphwrightError as exc:
        raise HTTPException(400, str(exc)) from exc
    conversations = state.conversations
    conversation = body.conversation or conversations.new_id()
    turns = await asyncio.to_thread(conversations.turns, conversation)
    asked = rewrite(body.question, turns)
    queue: asyncio.Queue = asyncio.Queue()

    async def answer() -> None:
        try:
            result = await qa.ask(
                asked,
                mode=body.mode,
                documents=body.documents or None,
                guess=body.guess,
                reader=body.reader,
                on_answer=lambda text: queue.put_nowait(("answer", {"text": text})),
            )
            out = await asyncio.to_thread(_answered, state, result)
            topic = topic_of(asked, result)
            about = topic if topic and topic.casefold() in asked.casefold() else None
            supported = bool(result.answer) and contains_answer(result.answer, result, about)
            if result.answer and not supported:
                out["model_answer"], out["answer"] = result.answer, unsupported_answer(about, result)
            out.update(supported=supported, conversation=conversation, asked=asked)
            await asyncio.to_thread(
                conversations.add,
                conversation,
                Turn(body.question, asked, shown(result, out), supported, topic, out["citations"]),
            )
            queue.put_nowait(("result", out))
        except GraphwrightError as exc:
            queue.put_nowait(("error", {"detail": str(exc)}))

    async def events():
        task = asyncio.create_task(answer())
        try:
            while True:
                kind, data = await queue.get()
                yield f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
                if kind != "answer":
                    return
        finally:
            task.cancel()

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})
