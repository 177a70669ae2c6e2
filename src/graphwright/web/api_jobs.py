"""Jobs over HTTP: submit texts (uploads or pasted), list and follow jobs, the stored documents."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from graphwright.assembly import build_system
from graphwright.errors import DataNotFoundError, GraphwrightError
from graphwright.inputs import WEB_PAGE, document_from_bytes, read_url
from graphwright.model import Document
from graphwright.remote import is_url
from graphwright.store.export import ALL_FORMATS
from graphwright.systems.base import DEFAULT_SYSTEM, system_names
from graphwright.web.jobs import JobSpec
from graphwright.web.state import ServeConfig

router = APIRouter(prefix="/api", tags=["jobs"])
KEEPALIVE_SECONDS = 15.0


def server(request: Request):
    return request.app.state.server


@router.get("/info")
def info(request: Request) -> dict[str, Any]:
    """What a client may choose: systems, models and KBs (the first of each is the default), and limits."""
    c = server(request).config
    return {
        "systems": system_names(),
        "default_system": DEFAULT_SYSTEM,
        "models": c.models,
        "kbs": list(c.kbs),
        "export_formats": ALL_FORMATS,
        "max_upload_bytes": c.max_upload_bytes,
        "max_chars": c.max_chars,
    }


@router.post("/jobs", status_code=202)
async def submit(
    request: Request,
    files: list[UploadFile] = File(default=[], description="Text files (UTF-8), PDF, HTML or Word (.docx) files."),
    text: str = Form("", description="A text pasted into the page."),
    name: str = Form("pasted text", description="The pasted text's name."),
    urls: str = Form(
        "",
        description="Web addresses (http or https), one per line: the server fetches each "
        "web page, PDF or Word file, and the URL names the document.",
    ),
    system: str = Form(DEFAULT_SYSTEM),
    model: str = Form(""),
    kb: str = Form(""),
    settings: str = Form("{}", description='System settings as a JSON object, e.g. {"max_steps": 6}.'),
    concurrency: int = Form(
        1, ge=1, le=32, description="Documents at once (for a model server; the embedded model gains nothing)."
    ),
) -> dict[str, Any]:
    """A new job over the uploaded files, the pasted text and the web addresses. A file or address that
    cannot be read as text is recorded as a failed document with the reason; the others run."""
    state = server(request)
    texts: list[tuple[str, str] | Document] = []
    refused: list[tuple[str, str]] = []
    for upload in files:
        data = await upload.read()
        try:
            # a PDF, HTML or Word file, or text; a refusal's advice in the page's terms
            document = document_from_bytes(data, upload.filename or "upload", advice=WEB_PAGE)
            _checked(document.text, state.config.max_chars)
            texts.append(document)
        except GraphwrightError as exc:
            refused.append((upload.filename or "upload", str(exc)))
    if text.strip():
        try:
            texts.append((name, _checked(text, state.config.max_chars)))
        except GraphwrightError as exc:
            refused.append((name, str(exc)))
    if not texts and not refused and not urls.strip():
        raise HTTPException(400, "nothing to extract: upload files, paste a text or give web addresses")
    try:
        spec = JobSpec(
            system, state.check_model(model or None), state.check_kb(kb or None), _settings(settings), concurrency
        )
        built = build_system(
            spec.system, state.llm(spec.model), state.kb(spec.kb), spec.settings
        )  # wrong settings fail now
    except GraphwrightError as exc:
        raise HTTPException(400, str(exc)) from exc
    for url, fetched in await _fetched(urls, state.config):  # after the checks: a refused job fetches nothing
        if isinstance(fetched, Document):
            texts.append(fetched)
        else:
            refused.append((url, fetched))
    job_id = state.book.create(spec, texts, refused)
    state.runner.submit(job_id, built)
    return state.book.get(job_id)


async def _fetched(urls: str, config: ServeConfig) -> list[tuple[str, Document | str]]:
    """Each address in ``urls`` (one per line) with its document, or the reason it was not read. Fetched
    at once, each in a thread: the event loop keeps serving while a slow site answers."""

    def read(url: str) -> Document | str:
        if not is_url(url):
            return f"{url!r} is not a web address: give one that starts with http:// or https://"
        try:
            document = read_url(
                url, max_chars=config.max_chars, public_only=not config.fetches_private_urls, advice=WEB_PAGE
            )
            _checked(document.text, config.max_chars)
            return document
        except GraphwrightError as exc:
            return str(exc)

    wanted = list(dict.fromkeys(line.strip() for line in urls.splitlines() if line.strip()))
    return list(zip(wanted, await asyncio.gather(*(asyncio.to_thread(read, url) for url in wanted))))


def _checked(text: str, max_chars: int) -> str:
    from graphwright.errors import InputDocumentError

    if not text.strip():
        raise InputDocumentError("the text is empty")
    if len(text) > max_chars:
        raise InputDocumentError(f"the text has {len(text):,} characters, above this server's limit of {max_chars:,}")
    return text


def _settings(raw: str) -> dict[str, Any]:
    from graphwright.errors import UserError

    try:
        value = json.loads(raw or "{}")
    except json.JSONDecodeError as exc:
        raise UserError(f"settings must be a JSON object: {exc}") from exc
    if not isinstance(value, dict):
        raise UserError('settings must be a JSON object, e.g. {"max_steps": 6}')
    return value


@router.get("/jobs")
def jobs(request: Request) -> list[dict[str, Any]]:
    return server(request).book.list()


@router.get("/jobs/{job_id}")
def job(request: Request, job_id: str) -> dict[str, Any]:
    try:
        return server(request).book.get(job_id)
    except KeyError:
        raise HTTPException(404, f"no job {job_id!r}") from None


@router.post("/jobs/{job_id}/cancel")
async def cancel(request: Request, job_id: str) -> dict[str, Any]:
    """Stop a queued or running job: what it stored stays; its other documents are recorded as failed.
    (In the event loop, where the job runs: a task is cancelled from its own loop only.)"""
    state = server(request)
    try:
        if not state.runner.cancel(job_id):
            raise HTTPException(409, f"job {job_id!r} has already ended")
    except KeyError:
        raise HTTPException(404, f"no job {job_id!r}") from None
    return state.book.get(job_id)


@router.get("/events")
async def events(request: Request) -> StreamingResponse:
    """Server-sent events: a ``jobs`` event with every job's summary at each change (and a comment line
    every 15 s, so proxies keep the stream open)."""
    state = server(request)

    async def stream():
        seen = -1
        while not await request.is_disconnected():
            if state.runner.changes.version != seen:
                seen = state.runner.changes.version
                payload = {
                    "jobs": await asyncio.to_thread(state.book.list),
                    "store_version": state.runner.store_version,
                }
                yield f"event: jobs\ndata: {json.dumps(payload)}\n\n"
            else:
                yield ": keep-alive\n\n"
            await state.runner.changes.wait(seen, KEEPALIVE_SECONDS)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


@router.get("/documents")
def documents(request: Request) -> list[dict[str, Any]]:
    """One row per stored run: document, system, status, reason, counts and usage."""
    return server(request).store.documents()


class ReextractRequest(BaseModel):
    system: str = DEFAULT_SYSTEM
    model: str = ""
    kb: str = ""
    settings: dict[str, Any] = Field(default_factory=dict)


@router.post("/documents/{document_id}/extract", status_code=202)
def reextract(request: Request, document_id: str, body: ReextractRequest) -> dict[str, Any]:
    """A job that extracts a stored document again, from the text the store keeps, with ``system`` and
    ``settings``; that system's earlier result for it is replaced."""
    from graphwright.curation import stored_documents

    state = server(request)
    try:
        documents = stored_documents(state.store, [document_id])
        spec = JobSpec(
            body.system,
            state.check_model(body.model or None),
            state.check_kb(body.kb or None),
            body.settings,
            redo=True,
        )
        system = build_system(
            spec.system, state.llm(spec.model), state.kb(spec.kb), spec.settings
        )  # wrong settings fail now
    except DataNotFoundError as exc:
        raise HTTPException(404, str(exc)) from exc
    except GraphwrightError as exc:
        raise HTTPException(400, str(exc)) from exc
    job_id = state.book.create(spec, documents)
    state.runner.submit(job_id, system)
    return state.book.get(job_id)


@router.delete("/documents/{document_id}")
async def delete_document(request: Request, document_id: str) -> dict[str, Any]:
    """Delete a document and everything derived from it: every system's facts and provenance, its text,
    and its part of the grown graph. 404 when the store holds nothing of it."""
    try:
        deleted = server(request).runner.delete_document(document_id)
    except DataNotFoundError as exc:
        raise HTTPException(404, str(exc)) from exc
    return {
        "document_id": deleted.document_id,
        "runs": deleted.runs,
        "grown": {"edges": deleted.grown.edges, "votes": deleted.grown.votes, "nodes": deleted.grown.nodes},
    }
