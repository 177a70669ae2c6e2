"""Real PDF, Word and HTML files for tests, written here: a PDF with a text layer per page (Helvetica,
one text object a line), a PDF of an image only (a scan), a .docx with a table (python-docx), an HTML page
with a menu and a footer around its article."""

from __future__ import annotations

import io


def _pdf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf(pages: list[list[str]]) -> bytes:
    """A PDF whose page i shows the lines ``pages[i]``."""
    objects: list[bytes] = []
    kids = []
    font_id = 3 + 2 * len(pages)
    for i, lines in enumerate(pages):
        page_id, content_id = 3 + 2 * i, 4 + 2 * i
        kids.append(page_id)
        body = "BT /F1 12 Tf 14 TL 72 720 Td " + " ".join(f"({_pdf_escape(line)}) Tj T*" for line in lines) + " ET"
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {content_id} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        data = body.encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
    head = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode(),
    ]
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    return _assemble(head + objects + [font])


def scanned_pdf() -> bytes:
    """One page holding a 2x2 grey image and no text: what a scanner gives."""
    image = (
        b"<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 "
        b"/Length 4 >>\nstream\n\x80\x80\x80\x80\nendstream"
    )
    content = b"q 200 0 0 200 100 400 cm /Im1 Do Q"
    return _assemble(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /XObject << /Im1 5 0 R >> >> >>",
            b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
            image,
        ]
    )


def _assemble(objects: list[bytes]) -> bytes:
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def docx(paragraphs: list[str], table: list[list[str]], heading: str | None = None) -> bytes:
    """A Word file: ``heading`` in the Heading 1 style, the paragraphs, then ``table``."""
    import docx as python_docx

    document = python_docx.Document()
    if heading:
        document.add_heading(heading, level=1)
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    grid = document.add_table(rows=len(table), cols=len(table[0]))
    for r, row in enumerate(table):
        for c, cell in enumerate(row):
            grid.cell(r, c).text = cell
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def html(article: list[str]) -> bytes:
    paragraphs = "".join(f"<p>{p}</p>" for p in article)
    return (
        f"<!doctype html><html><head><title>News</title></head><body>"
        f"<nav><ul><li><a href='/'>Home</a></li><li><a href='/shop'>Shop</a></li><li>Subscribe now</li></ul></nav>"
        f"<article><h1>Harbour news</h1>{paragraphs}</article>"
        f"<footer>Copyright 2026 Example Media. Cookie settings. Privacy policy.</footer></body></html>"
    ).encode()
