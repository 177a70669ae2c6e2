"""Extraction on a local Ray cluster (ray.init with 2 CPUs; workers are separate processes that reach
the scripted model over HTTP): the store and results.jsonl equal a local run's, and a worker killed
mid-run loses no document and stores none twice."""

from __future__ import annotations

import asyncio

import pytest

from graphwright.inputs import iter_inputs
from graphwright.pipeline import extract_batch
from graphwright.store import GraphStore
from graphwright.systems.base import make_system
from tests.support.cli_process import DOCUMENTS, answerer, extract_state, write_documents
from tests.support.openai_server import ScriptedOpenAIServer

ray = pytest.importorskip("ray", reason="the Ray engine needs its extra: pip install 'graphwright[ray]'")

from graphwright.ray_engine import RaySystem, WorkerSpec  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def model():
    with ScriptedOpenAIServer(answerer(delay=0.1)) as server:
        yield server


def spec(model, settings: dict) -> WorkerSpec:
    return WorkerSpec(
        system="agentre.zeroshot", settings=settings, model="scripted", base_url=model.base_url, kb="none", cache=False
    )


def run(where, system, on_progress=None, llm=None):
    """``extract_batch`` as the CLI runs it (``llm``: the local run's model, closed in the same loop)."""
    (where / "out").mkdir(exist_ok=True)

    async def batch():
        try:
            with GraphStore.open(where / "store") as store:
                return await extract_batch(
                    list(iter_inputs([str(where / "in")])),
                    system,
                    store,
                    results_path=where / "out" / "results.jsonl",
                    concurrency=2,
                    on_progress=on_progress,
                )
        finally:
            if llm is not None:
                await llm.aclose()

    return asyncio.run(batch())


def settings_of(inputs) -> dict:
    pairs = inputs["settings"][1::2]  # ["--set", "k=v", ...]
    return dict(pair.split("=", 1) for pair in pairs)


def local_reference(where, model, settings):
    from graphwright.llm import make_llm

    llm = make_llm("scripted", base_url=model.base_url, cache=False)
    summary = run(where, make_system("agentre.zeroshot", llm, None, settings), llm=llm)
    return summary, extract_state(where)


def test_two_ray_workers_build_the_same_store_as_a_local_run(cluster, model, tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_RETRIES", "0")
    (tmp_path / "local").mkdir()
    inputs = write_documents(tmp_path / "local")
    settings = settings_of(inputs)
    local_summary, local_state = local_reference(tmp_path / "local", model, settings)

    (tmp_path / "ray").mkdir()
    ray_inputs = write_documents(tmp_path / "ray")
    system = RaySystem(spec(model, settings_of(ray_inputs)), workers=2)
    try:
        summary = run(tmp_path / "ray", system)
        pids = set(ray.get([w.pid.remote() for w in system.workers]))
    finally:
        system.close()
    assert (summary.done, summary.triples, len(summary.failed)) == (local_summary.done, local_summary.triples, 0)
    assert summary.usage.llm_calls == local_summary.usage.llm_calls == DOCUMENTS
    assert extract_state(tmp_path / "ray") == local_state
    assert len(pids) == 2  # two worker processes did the work


def test_killed_workers_lose_no_document(cluster, tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_RETRIES", "0")
    inputs = write_documents(tmp_path)
    finished = []
    with ScriptedOpenAIServer(answerer()) as held_model:
        held_model.gate.close(after=3)  # the workers are mid-answer when they die, on any machine
        system = RaySystem(spec(held_model, settings_of(inputs)), workers=2)

        def kill_the_workers_after_three(source: str) -> None:
            finished.append(source)
            if len(finished) == 3:  # the workers' processes end at once; Ray restarts them
                for worker in system.workers:
                    ray.kill(worker, no_restart=False)
                held_model.gate.open()

        try:
            summary = run(tmp_path, system, on_progress=kill_the_workers_after_three)
        finally:
            system.close()
    assert system.resent >= 1  # a piece was lost with its worker and sent again
    assert summary.done == DOCUMENTS and not summary.failed
    state = extract_state(tmp_path)  # asserts one line per document and one stored run per document
    assert len(state["store"]) == DOCUMENTS and {status for status, _, _ in state["store"].values()} == {"ok"}


def test_extract_engine_ray_from_the_command_line(model, tmp_path):
    from tests.support.cli_process import cli, extract_args

    (tmp_path / "local").mkdir()
    (tmp_path / "ray").mkdir()
    assert cli(extract_args(model, write_documents(tmp_path / "local"), tmp_path / "local")) == 0
    ray_args = [
        *extract_args(model, write_documents(tmp_path / "ray"), tmp_path / "ray"),
        "--engine",
        "ray",
        "--workers",
        "2",
    ]
    assert cli(ray_args) == 0
    assert extract_state(tmp_path / "ray") == extract_state(tmp_path / "local")
    assert len(list((tmp_path / "ray" / "out").glob("llm-trace.worker-*.jsonl"))) == 2  # one trace per worker


def test_eval_run_engine_ray_scores_like_a_local_run(model, tmp_path):
    from tests.support.cli_process import cli, eval_args, eval_state

    (tmp_path / "local").mkdir()
    (tmp_path / "ray").mkdir()
    assert cli(eval_args(model, write_documents(tmp_path / "local"), tmp_path / "local")) == 0
    assert cli([*eval_args(model, write_documents(tmp_path / "ray"), tmp_path / "ray"), "--engine", "ray"]) == 0
    assert eval_state(tmp_path / "ray") == eval_state(tmp_path / "local")


def test_what_cannot_run_on_ray_is_refused_before_any_worker_starts(cluster):
    from graphwright.errors import UserError

    with pytest.raises(UserError, match="need 4 CPUs; the Ray cluster has 2"):
        RaySystem(WorkerSpec(system="cie.network", model="embedded", threads=2), workers=2)
    with pytest.raises(UserError, match="--engine local"):
        RaySystem(WorkerSpec(system="agentic-kgr", model="scripted"), workers=1)
