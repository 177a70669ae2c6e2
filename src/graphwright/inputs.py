"""Read user inputs (files, folders, stdin) into Documents, with clear errors.

Nothing is dropped silently: an unreadable input becomes an ``InputFailure``
that the batch records next to the documents that worked.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from graphwright.errors import InputDocumentError
from graphwright.model import Document

TEXT_SUFFIXES = {".txt", ".text", ".md"}


@dataclass(frozen=True)
class InputFailure:
    source: str
    reason: str


def decode_text(data: bytes, source: str, encoding: str = "utf-8") -> str:
    """Bytes -> text; empty, binary and undecodable inputs raise InputDocumentError."""
    if not data.strip():
        raise InputDocumentError(f"{source} is empty: there is no text to extract from")
    if b"\x00" in data[:8192]:
        raise InputDocumentError(f"{source} looks binary (it contains NUL bytes); graphwright reads plain text files")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputDocumentError(
            f"{source} is not valid {encoding}: byte 0x{data[exc.start]:02x} at offset {exc.start}. "
            "Convert it to UTF-8 or pass --encoding (for example --encoding latin-1)"
        ) from exc
    except LookupError as exc:
        raise InputDocumentError(f"unknown text encoding {encoding!r}") from exc
    text = text.lstrip("\ufeff")
    controls = sum(1 for ch in text[:8192] if ord(ch) < 32 and ch not in "\n\r\t\f")
    if controls > 0.1 * min(len(text), 8192):
        raise InputDocumentError(f"{source} looks binary (many control characters); graphwright reads plain text files")
    return text


def read_document(path: Path, encoding: str = "utf-8") -> Document:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputDocumentError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return Document(text=decode_text(data, str(path), encoding), source=str(path))


def iter_inputs(paths: list[str], encoding: str = "utf-8") -> Iterator[Document | InputFailure]:
    """Documents from files, folders (``*.txt``, ``*.text``, ``*.md``, recursively) and ``-`` (stdin)."""
    for raw in paths:
        if raw == "-":
            try:
                yield Document(text=decode_text(sys.stdin.buffer.read(), "stdin", encoding), source="stdin")
            except InputDocumentError as exc:
                yield InputFailure("stdin", str(exc))
            continue
        path = Path(raw)
        if not path.exists():
            yield InputFailure(raw, f"{raw} does not exist")
            continue
        files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in TEXT_SUFFIXES) if path.is_dir() else [path]
        if path.is_dir() and not files:
            yield InputFailure(raw, f"folder {raw} has no {', '.join(sorted(TEXT_SUFFIXES))} files")
        for file in files:
            try:
                yield read_document(file, encoding)
            except InputDocumentError as exc:
                yield InputFailure(str(file), str(exc))
