"""A system's result that no graph can hold fails its own document with the reason; the batch goes on."""

from __future__ import annotations

import asyncio
import json

from graphwright.model import Document, ExtractionResult, Provenance, Term, Triple
from graphwright.pipeline import extract_batch
from graphwright.store import GraphStore


class _LiteralSubject:
    """A buggy system: on the document about a number it writes the number as a literal subject."""

    name = "buggy"

    async def run(self, document):
        subject = (
            Term.literal("311") if "311" in document.text else Term.iri("https://example.org/Omaha", label="Omaha")
        )
        triple = Triple(
            subject=subject,
            predicate=Term.iri("https://example.org/p"),
            object=Term.iri("https://example.org/o"),
            provenance=Provenance(system=self.name),
        )
        return ExtractionResult(document_id=document.id, system=self.name, triples=[triple])


def test_an_unstorable_result_fails_its_document_and_the_batch_goes_on(tmp_path):
    store = GraphStore.in_memory()
    documents = [Document(id="band", text="311 is a band."), Document(id="city", text="Omaha is a city.")]
    results = tmp_path / "results.jsonl"
    summary = asyncio.run(extract_batch(documents, _LiteralSubject(), store, results_path=results))
    assert summary.done == 1 and [source for source, _ in summary.failed] == ["band"]
    assert "cannot be stored" in summary.failed[0][1] and "must be IRIs" in summary.failed[0][1]
    assert store.document_status("band", "buggy") == "failed" and store.document_status("city", "buggy") == "ok"
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert [(r["document_id"], r["status"]) for r in rows] == [("band", "failed"), ("city", "ok")]
