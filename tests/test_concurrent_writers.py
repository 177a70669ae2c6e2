"""Two `extract` processes at once: on one output folder or one store the second stops at once with a
clear message and the first finishes untouched; on separate ones both finish. Never a corrupted store.
Exports and views read a store while an extraction writes it."""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path

import pyoxigraph as ox
import pytest

from tests.support.cli_process import answerer, cli, extract_args, extract_state, start, write_documents
from tests.support.openai_server import ScriptedOpenAIServer


@pytest.fixture(scope="module")
def server():
    with ScriptedOpenAIServer(answerer()) as running:
        yield running


@contextmanager
def first_run_mid_batch(server, args: list[str], where: Path):
    """The first run, stopped after its first document until the block ends: the model holds its other
    answers, so the first run is still writing however long the second takes to start."""
    server.gate.close(after=1)
    first = start(args)
    try:
        wait_until_writing(where, first)
        yield first
    finally:
        server.gate.open()
        assert finish(first) == 0  # also reads and closes its pipe when an assertion above failed


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


@pytest.mark.parametrize(
    "shared, message",
    [
        ("out and store", "is in use by another graphwright run"),
        ("store", "is already open (in this or another process)"),
    ],
)
def test_a_second_extract_on_a_busy_folder_or_store_stops_at_once(server, reference, tmp_path, shared, message):
    inputs = write_documents(tmp_path)
    with first_run_mid_batch(server, extract_args(server, inputs, tmp_path), tmp_path) as first:
        args = extract_args(server, inputs, tmp_path)
        if shared == "store":
            args[args.index("--out") + 1] = str(tmp_path / "other-out")
        code, err = second_run(args)
        assert first.poll() is None, "the second run stopped while the first was still writing"
        assert code == 1 and message in err and "Traceback" not in err, err
    assert extract_state(tmp_path) == reference, "the first run's store and results are untouched"


def test_two_extracts_on_separate_folders_and_stores_both_finish(server, reference, tmp_path):
    inputs = write_documents(tmp_path)
    one, two = tmp_path / "one", tmp_path / "two"
    runs = [start(extract_args(server, inputs, where)) for where in (one, two)]
    assert [finish(run) for run in runs] == [0, 0]
    assert extract_state(one) == extract_state(two) == reference


def test_the_graph_can_be_exported_and_viewed_while_an_extract_writes_it(server, reference, tmp_path):
    inputs = write_documents(tmp_path)
    ttl, html = tmp_path / "partial.ttl", tmp_path / "partial.html"
    with first_run_mid_batch(server, extract_args(server, inputs, tmp_path), tmp_path) as first:
        for args in (["graph", "export", str(ttl)], ["graph", "view", str(html)]):
            code, err = second_run([*args, "--store", str(tmp_path / "store")])
            assert code == 0, err
        assert first.poll() is None, "the export ran while the extraction was still writing"
    partial = list(ox.parse(ttl.read_bytes(), format=ox.RdfFormat.TURTLE))
    assert partial and html.read_text(encoding="utf-8").count("John Smith")  # what was committed so far
    assert extract_state(tmp_path) == reference
