"""Text out of PDF, HTML and Word files, so a user's documents go in as they are.

* PDF: pypdf, page by page; the pages' start offsets are kept (``Document.metadata["page_starts"]``) so
  every fact's evidence can say its page. A PDF without a text layer (a scan) or with a password is
  refused with what to do.
* HTML: trafilatura's main text (the article without menus, footers and cookie banners).
* DOCX: python-docx's paragraphs and table cells, in document order.

The libraries are the ``documents`` extra; a missing one is a clear error naming the install. Chosen by
measuring them on real files (docs/decisions.md).
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field

from graphwright.errors import InputDocumentError

SUFFIXES = {".pdf": "pdf", ".html": "html", ".htm": "html", ".docx": "docx"}
PAGE_BREAK = "\n\n"  # between two pages' texts


@dataclass
class Converted:
    text: str
    metadata: dict[str, str] = field(default_factory=dict)


def kind_of(name: str) -> str:
    """What a file name says its bytes are: "pdf", "html", "docx", or "text" for anything else."""
    return SUFFIXES.get(_suffix(name), "text")


def converts(name: str) -> bool:
    """Whether ``name`` (a file name) is a document this module reads."""
    return kind_of(name) != "text"


def convert(data: bytes, name: str, kind: str | None = None) -> Converted:
    """The text of the PDF, HTML or DOCX file ``name`` whose bytes are ``data``; ``kind`` ("pdf", "html" or
    "docx") when something other than the name says what they are (a server's Content-Type)."""
    kind = kind or SUFFIXES[_suffix(name)]
    converted = {"pdf": _pdf, "html": _html, "docx": _docx}[kind](data, name)
    if not converted.text.strip():
        raise InputDocumentError(f"{name} holds no text to extract from")
    return converted


def page_of(metadata: dict[str, str], offset: int) -> int | None:
    """The 1-based page the character at ``offset`` is on, for a converted PDF; else None."""
    starts = metadata.get("page_starts")
    if not starts:
        return None
    from bisect import bisect_right

    return bisect_right([int(s) for s in starts.split(",")], offset)


def _suffix(name: str) -> str:
    return os.path.splitext(name)[1].lower()


def _needs(package: str, module: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise InputDocumentError(f"reading this file needs {package}: pip install 'graphwright[documents]'") from None


def _pdf(data: bytes, name: str) -> Converted:
    pypdf = _needs("pypdf", "pypdf")
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise InputDocumentError(f"{name} is protected by a password: save an unprotected copy and extract that")
        pages = [(page.extract_text() or "").strip() for page in reader.pages]
    except InputDocumentError:
        raise
    except Exception as exc:  # pypdf's errors have no common base beyond this
        raise InputDocumentError(f"{name} could not be read as a PDF: {exc}") from exc
    if not any(pages):
        raise InputDocumentError(f"{name} has no text layer ({len(pages)} page(s) of images, a scan?): "
                                 "run OCR on it first (for example ocrmypdf) and extract the result")
    starts, parts, at = [], [], 0
    for text in pages:
        starts.append(at)
        parts.append(text)
        at += len(text) + len(PAGE_BREAK)
    return Converted(PAGE_BREAK.join(parts), {"format": "pdf", "pages": str(len(pages)),
                                              "page_starts": ",".join(map(str, starts))})


def _html(data: bytes, name: str) -> Converted:
    trafilatura = _needs("trafilatura", "trafilatura")
    text = trafilatura.extract(data, include_comments=False, include_tables=True, favor_recall=True) or ""
    return Converted(text, {"format": "html"})


def _docx(data: bytes, name: str) -> Converted:
    docx = _needs("python-docx", "docx")
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:
        raise InputDocumentError(f"{name} could not be read as a Word (.docx) file: {exc}") from exc
    blocks = []
    for block in document.element.body.iterchildren():  # paragraphs and tables in the order they appear
        tag = block.tag.rsplit("}", 1)[-1]
        if tag == "p":
            blocks.append("".join(node.text or "" for node in block.iter() if node.tag.endswith("}t")))
        elif tag == "tbl":
            for row in block.iter():
                if row.tag.endswith("}tr"):
                    cells = ["".join(n.text or "" for n in cell.iter() if n.tag.endswith("}t"))
                             for cell in row if cell.tag.endswith("}tc")]
                    blocks.append(" | ".join(c for c in cells if c))
    return Converted("\n".join(b for b in blocks if b.strip()), {"format": "docx"})
