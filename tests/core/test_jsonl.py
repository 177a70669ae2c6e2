"""The append-only JSON Lines files that runs write: what survives an interruption and odd text."""

from __future__ import annotations

from graphwright.jsonl import append_jsonl, keep_rows, last_per_key, read_jsonl


def test_rows_with_unicode_line_separators_are_read_back(tmp_path):
    path = tmp_path / "rows.jsonl"
    rows = [{"id": 1, "text": "a\u2028b"}, {"id": 2, "text": "c\x85d\x1ce"}, {"id": 3, "text": "plain"}]
    for row in rows:
        append_jsonl(path, row)
    assert read_jsonl(path) == rows


def test_a_half_written_last_line_is_skipped_then_cut_before_the_next_append(tmp_path):
    path = tmp_path / "rows.jsonl"
    append_jsonl(path, {"id": 1})
    with path.open("a", encoding="utf-8") as fh:
        fh.write('{"id": 2, "te')  # the process died here
    assert read_jsonl(path) == [{"id": 1}]
    assert keep_rows(path, lambda rows: rows) == [{"id": 1}]
    append_jsonl(path, {"id": 2})
    assert read_jsonl(path) == [{"id": 1}, {"id": 2}]


def test_the_last_row_per_key_wins_in_the_order_written():
    rows = [{"id": "a", "v": 1}, {"id": "b", "v": 1}, {"id": "a", "v": 2}]
    assert last_per_key(rows, "id") == [{"id": "b", "v": 1}, {"id": "a", "v": 2}]


def test_a_finished_ledger_is_read_compressed(tmp_path):
    import gzip

    rows = [{"id": 1, "text": "a\u2028b"}, {"id": 2}]
    plain = tmp_path / "rows.jsonl"
    for row in rows:
        append_jsonl(plain, row)
    packed = tmp_path / "rows.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert read_jsonl(packed) == rows
