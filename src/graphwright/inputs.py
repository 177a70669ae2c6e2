"""Read user inputs (files, folders, URLs, stdin) into Documents, with clear errors.

Nothing is dropped silently: an unreadable input becomes an ``InputFailure``
that the batch records next to the documents that worked.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from graphwright.converters import SUFFIXES, convert, converts, kind_of
from graphwright.errors import InputDocumentError
from graphwright.model import Document
from graphwright.remote import fetch, is_url

TEXT_SUFFIXES = {".txt", ".text", ".md"}
READ_SUFFIXES = TEXT_SUFFIXES | set(SUFFIXES)  # what a folder is searched for: texts and converted documents

# The most bytes read from one input when no character limit is given: a document this long cannot be
# extracted anyway (16M+ characters, thousands of model calls), and a bigger one (a 5 GB log given
# by mistake) would be held in memory several times over (bytes, then text) before any check.
MAX_INPUT_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Advice:
    """What a refused input tells its user to do, in the terms of where they are."""

    encoding: str  # after "<file> is not valid <encoding>: ..."
    readable: str  # after "<file> looks binary ...;"
    too_long: str  # after "<file> holds more than the limit of N characters;"


COMMAND_LINE = Advice(
    "Convert it to UTF-8 or pass --encoding (for example --encoding latin-1)",
    "graphwright reads plain text files",
    "split it into smaller files or raise --max-chars",
)
WEB_PAGE = Advice(
    'Save it as UTF-8 text (any editor\'s "Save as" offers it) and upload it again',
    "this app reads text, PDF, Word (.docx) and HTML files",
    "split it into smaller files",
)
_READ_STEP = 1024 * 1024  # the pieces a stream of unknown size is read in


def byte_limit(max_chars: int | None) -> int:
    """The most bytes an input of ``max_chars`` characters can take: 4 a character in UTF-8, UTF-16
    and UTF-32, plus a byte-order mark; a larger file has more characters for sure."""
    return MAX_INPUT_BYTES if max_chars is None else 4 * max_chars + 4


@dataclass(frozen=True)
class InputFailure:
    source: str
    reason: str


def decode_text(data: bytes, source: str, encoding: str = "utf-8", advice: Advice = COMMAND_LINE) -> str:
    """Bytes -> text; empty, binary and undecodable inputs raise InputDocumentError."""
    if not data.strip():
        raise InputDocumentError(f"{source} is empty: there is no text to extract from")
    if b"\x00" in data[:8192]:
        raise InputDocumentError(f"{source} looks binary (it contains NUL bytes); {advice.readable}")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputDocumentError(
            f"{source} is not valid {encoding}: byte 0x{data[exc.start]:02x} at offset {exc.start}. {advice.encoding}"
        ) from exc
    except LookupError as exc:
        raise InputDocumentError(f"unknown text encoding {encoding!r}") from exc
    text = text.lstrip("\ufeff")
    controls = sum(1 for ch in text[:8192] if ord(ch) < 32 and ch not in "\n\r\t\f")
    if controls > 0.1 * min(len(text), 8192):
        raise InputDocumentError(f"{source} looks binary (many control characters); {advice.readable}")
    return text


def _read_bounded(stream: BinaryIO, source: str, max_chars: int | None, size: int = 0) -> bytes:
    """At most ``byte_limit(max_chars)`` bytes of ``stream``; a longer input raises InputDocumentError
    after reading one byte more, never the whole of it (a pipe or device has no size to check first).
    Read in pieces: ``read(n)`` allocates n bytes up front, even for a tiny file."""
    limit = byte_limit(max_chars)
    parts, total, step = [], 0, size + 1  # a file of known size: one read, which comes back short
    while total <= limit:
        want = min(step, limit + 1 - total)
        part = stream.read(want)
        parts.append(part)
        total, step = total + len(part), _READ_STEP
        if len(part) < want:  # a buffered read comes back short only at the end
            break
    if total > limit:
        raise _too_large(source, f"more than {limit:,}", max_chars)
    return b"".join(parts)


def _too_large(source: str, size: str, max_chars: int | None) -> InputDocumentError:
    if max_chars is None:
        return InputDocumentError(
            f"{source} is {size} bytes, above the {MAX_INPUT_BYTES:,} bytes read from one input; "
            "split it into smaller files"
        )
    return InputDocumentError(
        f"{source} is {size} bytes, so it has more than the limit of {max_chars:,} characters; {COMMAND_LINE.too_long}"
    )


def read_document(path: Path | str, encoding: str = "utf-8", max_chars: int | None = None) -> Document:
    """``path`` as a Document; a text file that must hold more than ``max_chars`` characters (without a
    limit: more than ``MAX_INPUT_BYTES``) is refused from its size, before it is read. A PDF, HTML or
    Word file (graphwright.converters) is read whole, up to ``MAX_INPUT_BYTES``, and its text checked."""
    converted = converts(str(path))
    limit = None if converted else max_chars  # a PDF's bytes say little about its characters
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > byte_limit(limit):
                raise _too_large(str(path), f"{size:,}", limit)
            data = _read_bounded(stream, str(path), limit, size)  # it may have grown, or be a device
    except OSError as exc:
        raise InputDocumentError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return document_from_bytes(data, str(path), encoding, max_chars)


def document_from_bytes(
    data: bytes,
    source: str,
    encoding: str = "utf-8",
    max_chars: int | None = None,
    kind: str | None = None,
    advice: Advice = COMMAND_LINE,
) -> Document:
    """A file's bytes as a Document: a PDF, HTML or Word file by its name (or by ``kind``: "pdf", "html",
    "docx" or "text", when something else says what the bytes are), anything else as text."""
    kind = kind or kind_of(source)
    if kind == "text":  # a text too long is recorded by the batch, with its document
        return Document(text=decode_text(data, source, encoding, advice), source=source)
    converted = convert(data, source, kind)
    if max_chars is not None and len(converted.text) > max_chars:
        raise InputDocumentError(
            f"{source} holds {len(converted.text):,} characters of text, above the limit of "
            f"{max_chars:,}; {advice.too_long}"
        )
    return Document(text=converted.text, source=source, metadata=converted.metadata)


def read_url(
    url: str,
    encoding: str = "utf-8",
    max_chars: int | None = None,
    *,
    public_only: bool = False,
    advice: Advice = COMMAND_LINE,
) -> Document:
    """The web page, PDF, Word file or text at an http(s) URL as a Document whose source is the URL; read
    as its Content-Type says, in the charset the server names (else ``encoding``). ``public_only``
    refuses hosts on local and private addresses (graphwright.remote.fetch)."""
    fetched = fetch(url, MAX_INPUT_BYTES, public_only=public_only)
    return document_from_bytes(fetched.data, url, fetched.charset or encoding, max_chars, fetched.kind, advice)


def _text_files(folder: Path) -> Iterator[str | InputFailure]:
    """The text files under ``folder`` in sorted path order (as ``sorted(folder.rglob("*"))``: symlinked
    folders are not followed). One folder is listed at a time, keeping only the names of its subfolders
    and text files, so memory follows the largest folder, not the whole tree, and the first file comes
    before the whole tree is listed."""
    stack: list[tuple[str, Iterator[tuple[str, bool]]]] = []  # explicit: deep trees need no recursion

    def enter(directory: str) -> InputFailure | None:
        try:
            with os.scandir(directory) as entries:
                kept = sorted(
                    (entry.name, entry.is_dir(follow_symlinks=False))
                    for entry in entries
                    if entry.is_dir(follow_symlinks=False)
                    or (os.path.splitext(entry.name)[1].lower() in READ_SUFFIXES and entry.is_file())
                )
        except OSError as exc:
            return InputFailure(directory, f"cannot list folder {directory}: {exc.strerror or exc}")
        stack.append((directory, iter(kept)))
        return None

    failure = enter(str(folder))
    if failure is not None:
        yield failure
    while stack:
        directory, names = stack[-1]
        name, is_dir = next(names, ("", False))
        if not name:
            stack.pop()
        elif is_dir:
            failure = enter(os.path.join(directory, name))
            if failure is not None:
                yield failure
        else:
            yield os.path.join(directory, name)  # not a Path: pathlib interns every name it parses


def iter_inputs(
    paths: list[str], encoding: str = "utf-8", max_chars: int | None = None
) -> Iterator[Document | InputFailure]:
    """Documents from files, folders (``*.txt``, ``*.text``, ``*.md``, ``*.pdf``, ``*.html``, ``*.htm``,
    ``*.docx``, recursively), http(s) URLs and ``-`` (stdin).

    A generator: files are read one at a time as they are consumed. ``max_chars`` refuses inputs that
    must hold more characters from their size, before reading them (``byte_limit``)."""
    for raw in paths:
        if raw == "-":
            try:
                data = _read_bounded(sys.stdin.buffer, "stdin", max_chars)
                yield Document(text=decode_text(data, "stdin", encoding), source="stdin")
            except InputDocumentError as exc:
                yield InputFailure("stdin", str(exc))
            continue
        if is_url(raw):
            try:
                yield read_url(raw, encoding, max_chars)
            except InputDocumentError as exc:
                yield InputFailure(raw, str(exc))
            continue
        path = Path(raw)
        if not path.exists():
            yield InputFailure(raw, f"{raw} does not exist")
            continue
        found = False
        for file in _text_files(path) if path.is_dir() else [path]:
            if isinstance(file, InputFailure):
                yield file
                continue
            found = True
            try:
                yield read_document(file, encoding, max_chars)
            except InputDocumentError as exc:
                yield InputFailure(str(file), str(exc))
        if path.is_dir() and not found:
            yield InputFailure(raw, f"folder {raw} has no {', '.join(sorted(READ_SUFFIXES))} files")
