"""A benchmark table's header names the command as run, without the machine's home folder."""

from __future__ import annotations

from pathlib import Path

from graphwright.bench.harness import header


def test_the_command_in_a_table_header_writes_the_home_folder_as_a_tilde():
    command = f"python -m graphwright.bench.facts --adapter {Path.home()}/.cache/graphwright/train/a.gguf"
    lines = header("bench-facts", "embedded:qwen2.5-coder-1.5b", command)
    assert "- command: `python -m graphwright.bench.facts --adapter ~/.cache/graphwright/train/a.gguf`" in lines
    assert not any(str(Path.home()) + "/" in line for line in lines)
