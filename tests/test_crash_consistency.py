"""kill -9 in the middle of `extract` and `eval run` (inside a store write, inside a results-file append,
between the two, and at random moments), then a rerun: the store, results.jsonl and documents.jsonl
equal those of an uninterrupted run. The CLI runs in a child process that is really killed."""

from __future__ import annotations

import random
import signal
import time

import pytest

from tests.support.cli_process import (
    DOCUMENTS,
    answerer,
    cli,
    eval_args,
    eval_state,
    extract_args,
    extract_state,
    write_documents,
)
from tests.support.openai_server import ScriptedOpenAIServer

#: extract's appends are its results lines; eval's alternate: trace of document 1, its row, trace of 2, ...
EXTRACT_CRASHES = [
    "store.writing:3",
    "store.written:5",
    "jsonl.half-line:4",
    "jsonl.appended:7",
    "store.writing:2,jsonl.half-line:6",
]  # two points: whichever comes first
EVAL_CRASHES = ["jsonl.half-line:4", "jsonl.half-line:5", "jsonl.appended:7"]
#: the soak: every pass of every point (eval appends twice per document)
EVERY_EXTRACT_CRASH = [
    f"{point}:{n}"
    for point in ("store.writing", "store.written", "jsonl.half-line", "jsonl.appended")
    for n in range(1, DOCUMENTS + 1)
]
EVERY_EVAL_CRASH = [
    f"{point}:{n}" for point in ("jsonl.half-line", "jsonl.appended") for n in range(1, 2 * DOCUMENTS + 1)
]


def soak(values: list, *regular) -> list:
    """``regular`` always, and the rest of ``values`` only with --soak."""
    return [*regular, *(pytest.param(v, marks=pytest.mark.soak) for v in values if v not in regular)]


@pytest.fixture(scope="module")
def server():
    with ScriptedOpenAIServer(answerer()) as running:
        yield running


@pytest.fixture(scope="module")
def reference(server, tmp_path_factory):
    """The uninterrupted runs every crashed one must end up equal to, and how long they take."""
    where = tmp_path_factory.mktemp("reference")
    made = {}
    inputs = write_documents(where)
    for name, args, state in (("extract", extract_args, extract_state), ("eval", eval_args, eval_state)):
        started = time.perf_counter()
        assert cli(args(server, inputs, where)) == 0
        made[name] = (state(where), time.perf_counter() - started)
    return made


def crash_then_finish(args: list[str], crashes: list[str | float]) -> None:
    """Each crash: a failpoint spec the run must die at, or seconds after which it is killed (it may have
    finished by then); then one run that must finish."""
    for crash in crashes:
        if isinstance(crash, str):
            assert cli(args, failpoints=crash) == -signal.SIGKILL, f"the run did not reach {crash}"
        else:
            cli(args, kill_after=crash)
    assert cli(args) == 0


@pytest.mark.parametrize("failpoints", soak(EVERY_EXTRACT_CRASH, *EXTRACT_CRASHES))
def test_extract_killed_inside_a_write_then_rerun_equals_an_uninterrupted_run(server, reference, tmp_path, failpoints):
    args = extract_args(server, write_documents(tmp_path), tmp_path)
    crash_then_finish(args, [failpoints])
    assert extract_state(tmp_path) == reference["extract"][0]


@pytest.mark.parametrize("failpoints", soak(EVERY_EVAL_CRASH, *EVAL_CRASHES))
def test_eval_run_killed_inside_a_write_then_rerun_equals_an_uninterrupted_run(server, reference, tmp_path, failpoints):
    args = eval_args(server, write_documents(tmp_path), tmp_path)
    crash_then_finish(args, [failpoints])
    assert eval_state(tmp_path) == reference["eval"][0]


def random_kills(seed: int, seconds: float) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(0.1, 1.0) * seconds for _ in range(2)]  # killed twice, at any moment of the run


@pytest.mark.parametrize("seed", soak(list(range(3, 23)), 1, 2))
def test_extract_and_eval_killed_at_random_moments_then_rerun_equal_an_uninterrupted_run(
    server, reference, tmp_path, seed
):
    inputs = write_documents(tmp_path)
    crash_then_finish(extract_args(server, inputs, tmp_path), random_kills(seed, reference["extract"][1]))
    assert extract_state(tmp_path) == reference["extract"][0]
    crash_then_finish(eval_args(server, inputs, tmp_path), random_kills(seed, reference["eval"][1]))
    assert eval_state(tmp_path) == reference["eval"][0]
