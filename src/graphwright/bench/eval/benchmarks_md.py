"""Write measured tables into docs/BENCHMARKS.md between markers, with the machine they ran on."""

from __future__ import annotations

import os
import platform
import re
from pathlib import Path


def machine() -> str:
    """``x86_64, 2 cores, <CPU model>``: every table says where it was measured."""
    cpu = platform.processor() or "unknown CPU"
    try:
        match = re.search(r"model name\s*:\s*(.*)", Path("/proc/cpuinfo").read_text())
        cpu = match.group(1) if match else cpu
    except OSError:
        pass
    return f"{platform.machine()}, {os.cpu_count()} cores, {cpu}"


def write_section(path: Path, marker: str, body: str) -> None:
    """Replace the block between ``<!-- marker:begin -->`` and ``<!-- marker:end -->``, or append it."""
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    block = f"{begin}\n{body}\n{end}"
    if begin in text:
        text = re.sub(re.escape(begin) + r".*?" + re.escape(end), lambda _: block, text, flags=re.DOTALL)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def read_section(path: Path, marker: str) -> str | None:
    """The block between a marker's begin and end comments, or None when there is none."""
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    match = re.search(re.escape(begin) + r"\n(.*?)\n" + re.escape(end), text, flags=re.DOTALL)
    return match.group(1) if match else None
