"""Two `extract` processes at once: on one output folder or one store the second stops at once with a
clear message and the first finishes untouched; on separate ones both finish. Never a corrupted store.
Exports and views read a store while an extraction writes it."""

from __future__ import annotations

import time
from pathlib import Path

import pyoxigraph as ox
import pytest

from tests.support.cli_process import answerer, cli, extract_args, extract_state, start, write_documents
from tests.support.openai_server import ScriptedOpenAIServer


@pytest.fixture(scope="module")
def server():
    # the first run is mid-batch while the second starts: its 12 documents take about 10 s (3 at a time),
    # longer than a second CLI process takes to start on a busy 2-core machine
    with ScriptedOpenAIServer(answerer(delay=2.5)) as running:
        yield running


@pytest.fixture(scope="module")
def reference(server, tmp_path_factory):
    where = tmp_path_factory.mktemp("reference")
    assert cli(extract_args(server, write_documents(where), where)) == 0
    return extract_state(where)


def wait_until_writing(where: Path, child) -> None:
    """Until the first run has stored a document: it holds its folder and store by then."""
    results = where / "out" / "results.jsonl"
    deadline = time.monotonic() + 60
    while not (results.is_file() and results.read_text(encoding="utf-8").count("\n") >= 1):
        assert child.poll() is None, child.communicate()[1].decode()
        assert time.monotonic() < deadline, "the first run never started writing"
        time.sleep(0.05)


def finish(child) -> int:
    _, err = child.communicate(timeout=120)
    assert child.returncode == 0, err.decode()[-2000:]
    return child.returncode


def second_run(args: list[str]) -> tuple[int, str]:
    child = start(args)
    _, err = child.communicate(timeout=120)
    return child.returncode, " ".join(err.decode().split())


@pytest.mark.parametrize("shared, message", [
    ("out and store", "is in use by another graphwright run"),
    ("store", "is already open (in this or another process)"),
])
def test_a_second_extract_on_a_busy_folder_or_store_stops_at_once(server, reference, tmp_path, shared, message):
    inputs = write_documents(tmp_path)
    first = start(extract_args(server, inputs, tmp_path))
    try:
        wait_until_writing(tmp_path, first)
        args = extract_args(server, inputs, tmp_path)
        if shared == "store":
            args[args.index("--out") + 1] = str(tmp_path / "other-out")
        code, err = second_run(args)
        assert first.poll() is None, "the second run stopped while the first was still writing"
        assert code == 1 and message in err and "Traceback" not in err, err
    finally:
        assert finish(first) == 0  # also reads and closes its pipe when an assertion above failed
    assert extract_state(tmp_path) == reference, "the first run's store and results are untouched"


def test_two_extracts_on_separate_folders_and_stores_both_finish(server, reference, tmp_path):
    inputs = write_documents(tmp_path)
    one, two = tmp_path / "one", tmp_path / "two"
    runs = [start(extract_args(server, inputs, where)) for where in (one, two)]
    assert [finish(run) for run in runs] == [0, 0]
    assert extract_state(one) == extract_state(two) == reference


def test_the_graph_can_be_exported_and_viewed_while_an_extract_writes_it(server, reference, tmp_path):
    inputs = write_documents(tmp_path)
    first = start(extract_args(server, inputs, tmp_path))
    wait_until_writing(tmp_path, first)
    ttl, html = tmp_path / "partial.ttl", tmp_path / "partial.html"
    for args in (["graph", "export", str(ttl)], ["graph", "view", str(html)]):
        code, err = second_run([*args, "--store", str(tmp_path / "store")])
        assert code == 0, err
    assert first.poll() is None, "the export ran while the extraction was still writing"
    partial = list(ox.parse(ttl.read_bytes(), format=ox.RdfFormat.TURTLE))
    assert partial and html.read_text(encoding="utf-8").count("John Smith")  # what was committed so far
    assert finish(first) == 0
    assert extract_state(tmp_path) == reference
