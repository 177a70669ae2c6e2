from graphwright.chunking import chunk_document, chunk_spans
from graphwright.model import Document


def test_chunking_cuts_at_sentence_ends_and_covers_the_text():
    text = " ".join(f"Sentence number {i} is here." for i in range(200))
    spans = chunk_spans(text, 300)
    assert all(e - s <= 300 for s, e in spans)
    assert all(text[s:e].rstrip().endswith(".") for s, e in spans)
    covered = "".join(text[s:e] for s, e in spans)
    assert covered.replace(" ", "") == text.replace(" ", "")


def test_chunking_overlong_sentence_is_cut_hard():
    text = "x" * 1000
    assert chunk_spans(text, 300) == [(0, 300), (300, 600), (600, 900), (900, 1000)]


def test_chunking_short_document_is_one_piece():
    doc = Document(text="Short.")
    assert chunk_document(doc, 100) == [(0, doc)]


def test_chunking_pieces_keep_offsets():
    doc = Document(text="A b c. " * 100)
    for offset, piece in chunk_document(doc, 50):
        assert doc.text[offset : offset + len(piece.text)] == piece.text


def test_a_long_document_keeps_its_entities_at_document_offsets():
    import asyncio

    from graphwright.model import Entity, ExtractionResult, Mention
    from graphwright.pipeline import run_document

    class MentionsParis:
        name = "finder"

        async def run(self, piece):
            at = piece.text.find("Paris")
            mentions = [Mention(surface="Paris", span=piece.span(at, at + 5))] if at >= 0 else []
            return ExtractionResult(
                document_id=piece.id,
                system=self.name,
                entities=[Entity(iri="urn:paris", label="Paris", types=["urn:City"], mentions=mentions)],
            )

    text = "Paris is large. " + "Filler words here. " * 20 + "Paris again."
    result = asyncio.run(run_document(MentionsParis(), Document(id="d", text=text), chunk_chars=120, max_chars=10_000))
    assert len(result.entities) == 1, "one entity per (IRI, types) over the pieces"
    starts = [m.span.start for m in result.entities[0].mentions]
    assert starts == [0, text.rfind("Paris")]
    assert all(text[m.span.start : m.span.end] == "Paris" for m in result.entities[0].mentions)
