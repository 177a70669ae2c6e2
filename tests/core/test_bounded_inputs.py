"""Huge inputs are refused with a reason before they are read, and a folder of many files is listed
and read one file at a time, in bounded memory."""

from __future__ import annotations

import asyncio
import io
import os
import sys
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import pytest

from graphwright import inputs
from graphwright.inputs import InputFailure, byte_limit, iter_inputs
from graphwright.model import Document
from graphwright.pipeline import extract_batch
from graphwright.store import GraphStore

FIVE_MB = 5_000_000


class _NeverCalled:
    name = "never"

    async def run(self, document):  # pragma: no cover - a refused document never reaches the system
        raise AssertionError("a refused document reached the system")


def _traced(fn):
    tracemalloc.start()
    try:
        return fn(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture
def five_mb(tmp_path: Path) -> Path:
    path = tmp_path / "big.txt"
    path.write_bytes(b"Graz is a city in Austria. " * (FIVE_MB // 27 + 1))
    return path


def test_a_five_megabyte_document_is_read_then_refused_by_the_pipeline_with_its_reason(five_mb: Path):
    (document,), peak = _traced(lambda: list(iter_inputs([str(five_mb)])))
    assert len(document.text) > FIVE_MB and peak < 4 * FIVE_MB  # the bytes and the text, nothing more
    store = GraphStore.in_memory()
    summary = asyncio.run(extract_batch([document], _NeverCalled(), store, max_chars=200_000))
    assert summary.done == 0 and len(summary.failed) == 1
    (row,) = store.documents()
    assert row["status"] == "failed"
    assert f"document has {len(document.text):,} characters, above the limit of 200,000" in row["reason"]
    assert "split it into smaller files or raise --max-chars" in row["reason"]


def test_with_max_chars_a_file_that_is_surely_too_long_is_refused_before_it_is_read(five_mb: Path):
    (failure,), peak = _traced(lambda: list(iter_inputs([str(five_mb)], max_chars=200_000)))
    assert isinstance(failure, InputFailure) and failure.source == str(five_mb)
    size = five_mb.stat().st_size
    assert failure.reason == (
        f"{five_mb} is {size:,} bytes, so it has more than the limit of 200,000 characters; "
        "split it into smaller files or raise --max-chars"
    )
    assert peak < 100_000  # not read


def test_the_byte_limit_never_refuses_a_file_that_fits_max_chars(tmp_path: Path):
    """4 bytes a character is the most UTF-8 takes: the exact characters are counted by the pipeline."""
    widest = tmp_path / "emoji.txt"
    widest.write_text("\ufeff" + "😀" * 1000, encoding="utf-8")  # with a byte-order mark, too
    (document,) = iter_inputs([str(widest)], max_chars=1000)
    assert isinstance(document, Document) and len(document.text) == 1000
    (failure,) = iter_inputs([str(widest)], max_chars=999)
    assert isinstance(failure, InputFailure) and "more than the limit of 999 characters" in failure.reason
    assert byte_limit(1000) == 4004


def test_without_max_chars_inputs_above_the_read_limit_are_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1000)
    path = tmp_path / "a.txt"
    path.write_bytes(b"x" * 1001)
    (failure,) = iter_inputs([str(path)])
    assert (
        failure.reason
        == f"{path} is 1,001 bytes, above the 1,000 bytes read from one input; split it into smaller files"
    )
    path.write_bytes(b"x" * 1000)
    (document,) = iter_inputs([str(path)])
    assert len(document.text) == 1000


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_input_is_read_only_up_to_the_limit():
    (failure,), peak = _traced(lambda: list(iter_inputs(["/dev/zero"], max_chars=100_000)))
    assert isinstance(failure, InputFailure)
    assert failure.reason.startswith("/dev/zero is more than 400,004 bytes, so it has more than the limit")
    assert peak < 2_000_000


def test_stdin_is_read_only_up_to_the_limit(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b"Graz. " * 10_000)))
    (failure,) = iter_inputs(["-"], max_chars=1000)
    assert failure == InputFailure(
        "stdin",
        "stdin is more than 4,004 bytes, so it has more than the limit of "
        "1,000 characters; split it into smaller files or raise --max-chars",
    )
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b"Graz. " * 10)))
    (document,) = iter_inputs(["-"], max_chars=1000)
    assert document.text == "Graz. " * 10


def test_folder_order_is_sorted_paths_and_symlinked_folders_are_not_followed(tmp_path: Path):
    root = tmp_path / "in"
    for name in ["b.txt", "a/z.md", "a/b/c.TXT", "a.txt", "a-b/x.text", ".hidden.txt", "skip.csv", "a/b/d.bin"]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"Text of {name}.", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "e.txt").write_text("Elsewhere.", encoding="utf-8")
    os.symlink(tmp_path / "elsewhere", root / "linked")
    os.symlink(tmp_path / "elsewhere" / "e.txt", root / "linked.txt")
    seen = [Path(d.source) for d in iter_inputs([str(root)])]
    # what ``sorted(rglob("*"))`` gave before files were listed one folder at a time
    assert seen == sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in inputs.READ_SUFFIXES)
    assert [p.relative_to(root).as_posix() for p in seen] == [
        ".hidden.txt",
        "a/b/c.TXT",
        "a/z.md",
        "a-b/x.text",
        "a.txt",
        "b.txt",
        "linked.txt",
    ]


def test_an_unreadable_subfolder_is_a_failure_not_a_silent_gap(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    (tmp_path / "ok.txt").write_text("Graz.", encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "hidden.txt").write_text("Thal.", encoding="utf-8")
    scandir = os.scandir

    def refusing(path):  # as chmod 0 does, also when the tests run as root
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied")
        return scandir(path)

    monkeypatch.setattr(inputs.os, "scandir", refusing)
    items = list(iter_inputs([str(tmp_path)]))
    assert [type(i).__name__ for i in items] == ["InputFailure", "Document"]
    assert items[0] == InputFailure(str(locked), f"cannot list folder {locked}: Permission denied")


def _many_files(root: Path, folders: int, per_folder: int) -> None:
    for f in range(folders):
        folder = root / f"d{f:03d}"
        folder.mkdir(parents=True)
        for i in range(per_folder):
            (folder / f"f{i:05d}.txt").write_bytes(b"Graz is a city, number %d." % i)


def _check_many(root: Path, folders: int, per_folder: int, peak_limit: int) -> None:
    """Every file once, in sorted order, checked as they stream by (a list of them would be the memory
    under test; so would Paths: pathlib interns every name it parses)."""

    def walk() -> int:
        count = 0
        for count, item in enumerate(iter_inputs([str(root)]), 1):
            f, i = divmod(count - 1, per_folder)
            assert isinstance(item, Document), item
            assert item.source == os.path.join(root, f"d{f:03d}", f"f{i:05d}.txt")
        return count

    count, peak = _traced(walk)
    assert count == folders * per_folder
    assert peak < peak_limit, f"{peak:,} bytes at the peak"


def test_ten_thousand_files_are_read_one_at_a_time(tmp_path: Path):
    _many_files(tmp_path, 100, 100)
    # ~20 kB measured; the sorted list of all paths held before took 4.4 MB
    _check_many(tmp_path, 100, 100, peak_limit=1_000_000)


@pytest.mark.soak
@pytest.mark.parametrize(
    "folders, per_folder, peak_limit",
    [
        (100, 1000, 4_000_000),  # ~0.1 MB measured; the sorted list of all paths held before took 42 MB
        (1, 100_000, 25_000_000),  # one folder's sorted names: ~13 MB measured; 65 MB before
    ],
)
def test_a_hundred_thousand_files_are_read_one_at_a_time(
    tmp_path: Path, folders: int, per_folder: int, peak_limit: int
):
    _many_files(tmp_path, folders, per_folder)
    _check_many(tmp_path, folders, per_folder, peak_limit)


class _Counting:
    """A system that notes how far the batch has read ahead of the documents it has finished."""

    name = "counting"

    def __init__(self):
        self.pulled = self.finished = self.most_ahead = 0

    async def run(self, document):
        from graphwright.model import ExtractionResult

        self.most_ahead = max(self.most_ahead, self.pulled - self.finished)
        await asyncio.sleep(0)
        self.finished += 1
        return ExtractionResult(document_id=document.id, system=self.name)


def test_a_batch_reads_documents_a_few_at_a_time_not_all_at_once():
    system = _Counting()

    def documents():
        for i in range(3000):
            system.pulled += 1
            yield Document(text=f"note {i}")

    summary = asyncio.run(extract_batch(documents(), system, GraphStore.in_memory(), concurrency=4))
    assert summary.done == 3000
    assert system.most_ahead <= 2 * 4 + 1  # two rounds of --concurrency ahead, whatever the batch size
