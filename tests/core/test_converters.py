"""PDF, Word and HTML files in as text: pages kept for provenance, scans and passwords refused with what
to do, a folder's documents found beside its texts."""

from __future__ import annotations

import pytest

from graphwright.converters import convert, page_of
from graphwright.errors import InputDocumentError
from graphwright.inputs import InputFailure, iter_inputs
from graphwright.linking.names import full_name
from graphwright.model import Document
from graphwright.text import sentence_spans
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
    data = documents.docx(
        ["Idris Penhallow founded Kestrel Ferries.", "Its flagship is the MV Corra Lynn."],
        [["ship", "yard"], ["MV Corra Lynn", "Arnvik Verft"]],
    )
    text = convert(data, "fleet.docx").text
    assert text.split("\n\n") == [
        "Idris Penhallow founded Kestrel Ferries.",
        "Its flagship is the MV Corra Lynn.",
        "ship | yard",
        "MV Corra Lynn | Arnvik Verft",
    ]


def test_html_keeps_the_article_and_drops_the_menu_and_footer():
    article = [
        "Saltmarsh Robotics was bought by Kettlewick Marine in 2023, the harbour office said on Monday.",
        "Kettlewick Marine is run by Duncan Farrier and ships fish from Aberdeen to Bergen every week.",
    ]
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


# issue 62: text as the document lays it out
REPORT = [
    [
        "Harbour Lantern Press",
        "",
        "Iselin Varhaug founded the press in Tromso in 2011. She",
        "studied physics at the University of Bergen and later",
        "worked for Equinor before she started it.",
        "",
        "Its first book was a collection of hand-",
        "written songs from Finnmark.",
        "",
        "Annual report 2024, page 1",
    ],
    [
        "Annual report 2024 - continued",
        "",
        "The press employs forty people in Tromso.",
        "",
        "Annual report 2024, page 2",
    ],
    ["Annual report 2024 - continued", "", "Its chairman is Olav Brekke.", "", "Annual report 2024, page 3"],
]


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


def test_a_pdf_paragraph_broken_over_lines_is_one_block_of_whole_sentences():
    converted = convert(documents.pdf(REPORT), "report.pdf")
    text = converted.text
    assert text.split("\n\n")[:3] == [
        "Harbour Lantern Press",  # the title is a block of its own, not the start of the paragraph
        "Iselin Varhaug founded the press in Tromso in 2011. She studied physics at the University of Bergen and "
        "later worked for Equinor before she started it.",
        "Its first book was a collection of handwritten songs from Finnmark.",
    ]  # hyphenated at the line end
    document = Document(text=text)
    evidence = document.sentence_around(document.find("University of Bergen"))
    assert (
        evidence.text
        == "She studied physics at the University of Bergen and later worked for Equinor before she started it."
    )
    assert (
        "Harbour Lantern Press" in sentences(text)
        and full_name("Harbour Lantern Press", text) == "Harbour Lantern Press"
    )
    assert page_of(converted.metadata, text.index("Olav Brekke")) == 3


def test_a_pdf_header_and_footer_repeated_on_every_page_are_dropped():
    text = convert(documents.pdf(REPORT), "report.pdf").text
    assert "Annual report" not in text and "page 2" not in text
    assert "The press employs forty people in Tromso." in text.split("\n\n")


def test_a_word_heading_is_not_part_of_the_name_or_sentence_after_it():
    data = documents.docx(
        ["Iselin Varhaug founded the press in 2011.", "She studied physics in Bergen."],
        [["year", "books"]],
        heading="Harbour Lantern Press",
    )
    text = convert(data, "press.docx").text
    assert text.startswith("Harbour Lantern Press\n\nIselin Varhaug founded")
    assert sentences(text)[:2] == ["Harbour Lantern Press", "Iselin Varhaug founded the press in 2011."]
    assert full_name("Iselin Varhaug", text) == "Iselin Varhaug" and full_name("Press", text) == "Harbour Lantern Press"


def test_html_paragraphs_and_headings_are_blocks_with_their_lines_joined():
    article = [
        "Saltmarsh Robotics was bought by Kettlewick Marine\nin 2023, the harbour office said on Monday.",
        "Kettlewick Marine is run by Duncan Farrier.",
    ]
    text = convert(documents.html(article), "news.html").text
    blocks = text.split("\n\n")
    assert "Saltmarsh Robotics was bought by Kettlewick Marine in 2023, the harbour office said on Monday." in blocks
    assert "Kettlewick Marine is run by Duncan Farrier." in blocks
    assert not any("Harbour news" in s and "Saltmarsh" in s for s in sentences(text))  # the heading is apart
