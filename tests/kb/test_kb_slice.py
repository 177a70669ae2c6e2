"""The packaged default-KB data and the script that makes it."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from graphwright.kb.default import DATA_FILES, package_data_dir

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 2_000_000
SHARED = Path(os.environ.get("GRAPHWRIGHT_DATA_DIR") or ROOT.parent / "shared" / "data")


def test_package_data_is_present_small_and_well_formed():
    for name in DATA_FILES:
        path = package_data_dir() / name
        assert path.is_file(), f"{path} missing: run python -m graphwright.bench.make_wikidata_slice"
        assert path.stat().st_size < LIMIT, f"{name} is {path.stat().st_size} bytes"
    with gzip.open(package_data_dir() / "entities.jsonl.gz", "rt", encoding="utf-8") as fh:
        first = json.loads(fh.readline())
    assert {"id", "label"} <= first.keys()


@pytest.mark.skipif(
    not (SHARED / "wikidata-subgraph-arnold").is_dir(),
    reason=f"shared data not found at {SHARED} (set GRAPHWRIGHT_DATA_DIR to regenerate the slice)",
)
def test_slice_script_output_fits_and_keeps_arnold(tmp_path, capsys):
    from graphwright.bench import make_wikidata_slice as script

    assert script.main(["--data", str(SHARED), "--out", str(tmp_path)]) == 0
    for name in DATA_FILES:
        size = (tmp_path / name).stat().st_size
        assert 0 < size < LIMIT, f"{name}: {size} bytes"
        # deterministic: the committed package data is exactly what the script makes today
        assert (tmp_path / name).read_bytes() == (package_data_dir() / name).read_bytes(), name
    with gzip.open(tmp_path / "entities.jsonl.gz", "rt", encoding="utf-8") as fh:
        ents = {e["id"]: e for e in map(json.loads, fh)}
    for qid in (
        "Q2685",
        "Q230654",
        "Q162255",
        "Q887010",
        "Q571822",
        "Q23800370",
    ):  # Arnold, wife, film, office, birthplace, mother
        assert qid in ents, qid
    assert "Arnie" in ents["Q2685"]["aliases"] and ents["Q2685"]["types"] == ["Q5"]
    assert ents["Q5"]["subclass_of"]  # one superclass level for the types
    assert "kept" in capsys.readouterr().out
