from pathlib import Path

import pytest

from graphwright.errors import InputDocumentError
from graphwright.inputs import InputFailure, decode_text, iter_inputs


def test_inputs_empty_file_is_a_clear_error():
    with pytest.raises(InputDocumentError, match="empty"):
        decode_text(b"  \n\t ", "a.txt")


def test_inputs_binary_file_is_a_clear_error():
    with pytest.raises(InputDocumentError, match="binary"):
        decode_text(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "img.txt")


def test_inputs_non_utf8_names_the_byte_and_the_fix():
    with pytest.raises(InputDocumentError, match=r"0xe9 at offset 3.*--encoding"):
        decode_text("Café au lait".encode("latin-1"), "cafe.txt")
    assert decode_text("Café".encode("latin-1"), "cafe.txt", "latin-1") == "Café"


def test_inputs_folder_yields_documents_and_failures(tmp_path: Path):
    (tmp_path / "a.txt").write_text("Graz is a city in Austria.", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.md").write_text("Thal is a village.", encoding="utf-8")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "ignored.bin").write_bytes(b"\x00\x01")
    items = list(iter_inputs([str(tmp_path), str(tmp_path / "missing.txt")]))
    docs = [i for i in items if not isinstance(i, InputFailure)]
    failures = [i for i in items if isinstance(i, InputFailure)]
    assert sorted(Path(d.source).name for d in docs) == ["a.txt", "b.md"]
    assert {Path(f.source).name for f in failures} == {"empty.txt", "missing.txt"}
    assert all(f.reason for f in failures)


def test_inputs_same_text_gets_the_same_id(tmp_path: Path):
    (tmp_path / "x.txt").write_text("Graz is a city.", encoding="utf-8")
    (tmp_path / "y.txt").write_text("Graz is a city.", encoding="utf-8")
    a, b = iter_inputs([str(tmp_path / "x.txt"), str(tmp_path / "y.txt")])
    assert a.id == b.id and a.id.startswith("doc-")
