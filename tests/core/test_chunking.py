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
        assert doc.text[offset:offset + len(piece.text)] == piece.text
