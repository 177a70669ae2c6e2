"""`eval run` scores the pipeline `extract` runs: a long document reaches a system in the same pieces."""

from __future__ import annotations

import asyncio

from graphwright.bench.data.gold import GoldDocument
from graphwright.bench.eval.datasets import EvalDataset
from graphwright.bench.eval.runner import RunInfo, run_eval
from graphwright.model import Document, ExtractionResult
from graphwright.pipeline import extract_batch
from graphwright.store import GraphStore

LONG = " ".join(f"Sentence {i} tells of Halvard Brekke and the Tindra Shipping company." for i in range(90))


class RecordsPieces:
    name = "recorder"

    def __init__(self):
        self.pieces: list[str] = []

    async def run(self, piece: Document) -> ExtractionResult:
        self.pieces.append(piece.text)
        return ExtractionResult(document_id=piece.id, system=self.name)


class NoKB:
    def super_properties(self, pid):
        return []


def test_eval_and_extract_give_a_system_the_same_pieces(tmp_path):
    extracted, evaluated = RecordsPieces(), RecordsPieces()
    asyncio.run(extract_batch([Document(id="long", text=LONG)], extracted, GraphStore.in_memory()))
    data = EvalDataset("one", [GoldDocument(id="long", text=LONG)])
    asyncio.run(
        run_eval(evaluated, data, NoKB(), RunInfo(system="recorder", dataset="one", model="m", kb="none"), tmp_path)
    )
    assert len(LONG) > 4000 and len(extracted.pieces) > 1, "the text is long enough to be cut"
    assert evaluated.pieces == extracted.pieces
