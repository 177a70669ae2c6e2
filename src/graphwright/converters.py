"""Text out of PDF, HTML and Word files, so a user's documents go in as they are.

The text is laid out in blocks, as the document lays it out: each paragraph, heading, list item or table
row is one line, and blocks are separated by a blank line (BLOCK_BREAK), so that no sentence and no name
runs from a heading into the paragraph after it, and a sentence broken over lines is whole again.

* PDF: pypdf, page by page, with each line's position and font size: a larger gap than the lines of a
  paragraph have, a change of size (a heading) or a jump upwards (a new column) starts a block; the
  lines of a block are joined, and a word hyphenated at a line end is rejoined. A line repeated at the top
  or bottom of most pages (a running header, a page number) is dropped. The pages' start offsets are kept
  (``Document.metadata["page_starts"]``) so every fact's evidence can say its page. A PDF without a text
  layer (a scan) or with a password is refused with what to do.
* HTML: trafilatura's main text (the article without menus, footers and cookie banners), a block for each
  paragraph, heading and list item.
* DOCX: python-docx's paragraphs (headings included) and table rows, in document order.

The libraries are the ``documents`` extra; a missing one is a clear error naming the install. Chosen by
measuring them on real files (docs/decisions.md).
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field

from graphwright.errors import InputDocumentError

SUFFIXES = {".pdf": "pdf", ".html": "html", ".htm": "html", ".docx": "docx"}
BLOCK_BREAK = "\n\n"  # between two paragraphs, headings, list items or table rows
PAGE_BREAK = BLOCK_BREAK  # between two pages' texts
PARAGRAPH_GAP = 1.4  # a gap between lines over this many times the font size starts a new block
SIZE_CHANGE = 1.1  # a line whose font size differs by this factor from the one before starts a new block
RUNNING_CHARS = 100  # a running header or footer is no longer than this


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
        pages = [_page_blocks(page) for page in reader.pages]
    except InputDocumentError:
        raise
    except Exception as exc:  # pypdf's errors have no common base beyond this
        raise InputDocumentError(f"{name} could not be read as a PDF: {exc}") from exc
    if not any(pages):
        raise InputDocumentError(
            f"{name} has no text layer ({len(pages)} page(s) of images, a scan?): "
            "run OCR on it first (for example ocrmypdf) and extract the result"
        )
    texts = [BLOCK_BREAK.join(blocks) for blocks in _without_running_lines(pages)]
    starts, at = [], 0
    for text in texts:
        starts.append(at)
        at += len(text) + len(PAGE_BREAK)
    return Converted(
        PAGE_BREAK.join(texts), {"format": "pdf", "pages": str(len(pages)), "page_starts": ",".join(map(str, starts))}
    )


@dataclass
class _Line:
    text: str
    y: float  # the baseline's height on the page
    size: float  # the font size, in the page's units


def _page_lines(page) -> list[_Line]:
    """The page's lines in the order its content draws them, with where and how large each is."""
    lines: list[_Line] = []
    current: list[str] = []
    at: tuple[float, float] | None = None

    def close() -> None:
        text = " ".join("".join(current).split())
        if text and at is not None:
            lines.append(_Line(text, *at))
        current.clear()

    def visit(text, cm, tm, font, size) -> None:
        nonlocal at
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        scale = abs(cm[3]) or 1.0
        if text.strip() and at is not None and abs(y - at[0]) > 0.5 * max(at[1], 1.0):
            close()  # the same run of text went on to another line
        if text.strip() and not "".join(current).strip():
            at = (y, (size or 1.0) * scale)
        current.append(text.replace("\n", " "))
        if text.endswith("\n"):
            close()

    page.extract_text(visitor_text=visit)
    close()
    return lines


def _page_blocks(page) -> list[str]:
    """The page's paragraphs, headings and items, each with its lines joined."""
    blocks: list[list[str]] = []
    previous: _Line | None = None
    for line in _page_lines(page):
        if previous is None or _starts_block(previous, line):
            blocks.append([])
        blocks[-1].append(line.text)
        previous = line
    return [_joined(lines) for lines in blocks]


def _starts_block(previous: _Line, line: _Line) -> bool:
    gap = previous.y - line.y
    sizes = max(previous.size, line.size) / max(min(previous.size, line.size), 0.1)
    return gap < 0 or gap > PARAGRAPH_GAP * max(previous.size, line.size) or sizes > SIZE_CHANGE


def _joined(lines: list[str]) -> str:
    """A block's lines as one: "sea-" + "shanties" -> "seashanties" (a word hyphenated at the line end)."""
    text = lines[0]
    for line in lines[1:]:
        if re.search(r"[^\W\d_]-$", text) and line[:1].islower():
            text = text[:-1] + line
        else:
            text = f"{text} {line}"
    return text


def _without_running_lines(pages: list[list[str]]) -> list[list[str]]:
    """The pages without the running header and footer: a short first or last block of a page that has
    others, which, its numbers aside, is the same on at least two pages and half of them ("Annual report
    2024 - page 3")."""
    if len(pages) < 2:
        return pages

    def key(block: str) -> str:
        return re.sub(r"\d+", "#", block.casefold()) if len(block) <= RUNNING_CHARS else block

    ends = [key(b) for blocks in pages if len(blocks) > 1 for b in {blocks[0], blocks[-1]}]
    running = {k for k in set(ends) if ends.count(k) >= max(2, (len(pages) + 1) // 2)}
    kept = []
    for blocks in pages:
        inner = list(blocks)
        if len(inner) > 1 and key(inner[0]) in running:
            inner.pop(0)
        if len(inner) > 1 and key(inner[-1]) in running:
            inner.pop()
        kept.append(inner)
    return kept


def _html(data: bytes, name: str) -> Converted:
    trafilatura = _needs("trafilatura", "trafilatura")
    text = trafilatura.extract(data, include_comments=False, include_tables=True, favor_recall=True) or ""
    # trafilatura writes each paragraph, heading and list item on a line of its own
    return Converted(
        BLOCK_BREAK.join(" ".join(line.split()) for line in text.splitlines() if line.strip()), {"format": "html"}
    )


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
                    cells = [
                        "".join(n.text or "" for n in cell.iter() if n.tag.endswith("}t"))
                        for cell in row
                        if cell.tag.endswith("}tc")
                    ]
                    blocks.append(" | ".join(c for c in cells if c))
    return Converted(BLOCK_BREAK.join(" ".join(b.split()) for b in blocks if b.strip()), {"format": "docx"})
