"""PDF, Word and HTML files in as text: pages kept for provenance, scans and passwords refused with what
to do, a folder's documents found beside its texts."""

from __future__ import annotations

import pytest

from graphwright.converters import convert, page_of
from graphwright.errors import InputDocumentError
from graphwright.inputs import InputFailure, iter_inputs
from tests.support import documents

PAGES = [[f"Page {n} says: Harbour {n} was built in {1900 + n}."] for n in range(1, 11)]


def test_a_pdf_reads_page_by_page_and_each_offset_knows_its_page():
    converted = convert(documents.pdf(PAGES), "report.pdf")
    assert converted.metadata["pages"] == "10"
    for n in (1, 4, 10):
        at = converted.text.index(f"Harbour {n} was built")
        assert page_of(converted.metadata, at) == n
    assert converted.text.index("Page 2") > converted.text.index("Page 1")
    assert page_of({}, 5) is None, "a text file has no pages"


def test_a_scan_and_a_broken_file_are_refused_with_what_to_do():
    with pytest.raises(InputDocumentError, match="no text layer.*OCR"):
        convert(documents.scanned_pdf(), "scan.pdf")
    with pytest.raises(InputDocumentError, match="could not be read as a PDF"):
        convert(b"%PDF-1.4 this is not a pdf", "broken.pdf")
    with pytest.raises(InputDocumentError, match="could not be read as a Word"):
        convert(b"PK not a docx", "broken.docx")


def test_word_keeps_paragraphs_and_table_cells_in_order():
    data = documents.docx(["Idris Penhallow founded Kestrel Ferries.", "Its flagship is the MV Corra Lynn."],
                          [["ship", "yard"], ["MV Corra Lynn", "Arnvik Verft"]])
    text = convert(data, "fleet.docx").text
    assert text.splitlines() == ["Idris Penhallow founded Kestrel Ferries.", "Its flagship is the MV Corra Lynn.",
                                 "ship | yard", "MV Corra Lynn | Arnvik Verft"]


def test_html_keeps_the_article_and_drops_the_menu_and_footer():
    article = ["Saltmarsh Robotics was bought by Kettlewick Marine in 2023, the harbour office said on Monday.",
               "Kettlewick Marine is run by Duncan Farrier and ships fish from Aberdeen to Bergen every week."]
    text = convert(documents.html(article), "news.html").text
    assert all(sentence in text for sentence in article)
    assert "Cookie settings" not in text and "Subscribe now" not in text


def test_a_folder_gives_its_documents_beside_its_texts(tmp_path):
    (tmp_path / "a.txt").write_text("Ada Quist founded Brightmoor Analytics.", encoding="utf-8")
    (tmp_path / "b.pdf").write_bytes(documents.pdf(PAGES[:2]))
    (tmp_path / "c.pdf").write_bytes(documents.scanned_pdf())
    found = list(iter_inputs([str(tmp_path)]))
    assert [type(f).__name__ for f in found] == ["Document", "Document", "InputFailure"]
    assert found[1].metadata["format"] == "pdf" and "Harbour 2" in found[1].text
    assert isinstance(found[2], InputFailure) and "OCR" in found[2].reason
    assert list(iter_inputs([str(tmp_path / "b.pdf")], max_chars=20))[0].reason.endswith("raise --max-chars")
