"""Each running document's stages reach whoever shows them (issue 62): its parts, linking, storing; two
documents run at once do not mix their stages; the web app's job book shows them and says how a job ended."""

from __future__ import annotations

import asyncio

from graphwright.linking.system import OpenWorldLinking
from graphwright.model import Document, ExtractionResult
from graphwright.pipeline import extract_batch
from graphwright.store import GraphStore
from graphwright.web.jobs import JobBook, JobSpec


class _Nothing:
    """A system that finds nothing, slowly enough for two documents to overlap."""

    name = "nothing"

    async def run(self, document):
        await asyncio.sleep(0.01)
        return ExtractionResult(document_id=document.id, system=self.name)


def stages_of(system, documents, **kw) -> dict[str, list[str]]:
    heard: dict[str, list[str]] = {}
    asyncio.run(
        extract_batch(
            documents,
            system,
            GraphStore.in_memory(),
            on_stage=lambda d, stage: heard.setdefault(d.id, []).append(stage),
            **kw,
        )
    )
    return heard


def test_a_long_document_reports_each_part_then_storing():
    long = Document(id="long", text="Ada Quist founded Brightmoor. " * 40)
    assert stages_of(_Nothing(), [long], chunk_chars=500) == {
        "long": ["extracting part 1 of 3", "extracting part 2 of 3", "extracting part 3 of 3", "storing"]
    }


def test_linking_is_a_stage_and_concurrent_documents_keep_their_own(default_kb):
    documents = [Document(id=f"d{n}", text=f"Document {n} names Oslo.") for n in range(4)]
    heard = stages_of(OpenWorldLinking(_Nothing(), default_kb), documents, concurrency=4)
    assert heard == {d.id: ["extracting", "linking", "storing"] for d in documents}


def test_the_job_book_shows_a_stage_until_the_document_ends_and_a_job_with_failures_says_so(tmp_path):
    book = JobBook(tmp_path)
    texts = [Document(id="a", text="A."), Document(id="b", text="B."), Document(id="c", text="C.")]
    job = book.create(JobSpec("facts", "scripted", "none", {}, 1), texts, [])
    book.set_state(job, "running")
    a, b, c = (d["document_id"] for d in book.get(job)["documents"])
    book.set_stage(job, a, "extracting part 2 of 5")
    assert [d["stage"] for d in book.get(job)["documents"]] == ["extracting part 2 of 5", None, None]
    assert book.get(job)["label"] == "running, 0 of 3 finished"
    book.set_document(job, a, "ok", triples=2)
    book.set_document(job, b, "failed", "the model answered nothing")
    book.set_document(job, c, "ok")
    book.set_state(job, "done")
    assert book.get(job)["documents"][0]["stage"] is None and book.get(job)["label"] == "done, 1 of 3 failed"
    only = book.create(JobSpec("facts", "scripted", "none", {}, 1), [], [("photo.png", "not a document")])
    book.set_state(only, "done")
    assert book.get(only)["label"] == "done, 1 of 1 failed"
