"""Runs the HTML view's own script in node (html_harness.js) and returns what the page shows."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

HARNESS = Path(__file__).with_name("html_harness.js")
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def run_page(page: str, folder: Path) -> dict:
    path = folder / "view.html"
    path.write_text(page, encoding="utf-8")
    done = subprocess.run(["node", str(HARNESS), str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
