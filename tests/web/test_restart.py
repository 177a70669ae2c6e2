"""A server killed during a job (SIGKILL: no shutdown code runs) loses no document: on the next start
the job resumes and every document ends stored once, or, when the job cannot go on, failed with a reason."""

from __future__ import annotations

import json

import httpx
import pytest

from graphwright.store import GraphStore
from tests.support.openai_server import ScriptedOpenAIServer
from tests.support.web_server import SENTENCE, ServeProcess, job_settings, reply, wait_for_job

DOCUMENTS = 12


def submit(serve: ServeProcess, settings: dict) -> str:
    files = [("files", (f"note{i:02}.txt", f"Note {i} . {SENTENCE}".encode(), "text/plain")) for i in range(DOCUMENTS)]
    data = {"system": "agentre.zeroshot", "kb": "none", "settings": json.dumps(settings)}
    response = httpx.post(serve.url + "/api/jobs", data=data, files=files, timeout=30)
    assert response.status_code == 202, response.text
    return response.json()["id"]


def getter(serve: ServeProcess):
    return lambda path: httpx.get(serve.url + path, timeout=10).json()


@pytest.fixture
def model():
    with ScriptedOpenAIServer(reply()) as server:
        yield server


def kill_midway_and_restart(tmp_path, model: ScriptedOpenAIServer, *restart_as: str) -> dict:
    """Submit the job, SIGKILL the server once 3 documents are stored (the model holds the others' answers
    until then), start it again (with other ``--model`` choices, if given) and return the job once it has
    ended."""
    model_url = model.base_url
    serve = ServeProcess(tmp_path, model_url).start()
    try:
        model.gate.close(after=3)
        job_id = submit(serve, job_settings(tmp_path))
        wait_for_job(getter(serve), job_id, until=lambda job: job["counts"]["ok"] >= 3)
        serve.kill()
        model.gate.open()
        serve = ServeProcess(tmp_path, model_url, model=restart_as[0]) if restart_as else serve
        serve.start()
        return wait_for_job(getter(serve), job_id, timeout=120)
    finally:
        serve.stop()


def test_a_killed_server_resumes_its_job_and_stores_each_document_once(tmp_path, model):
    job = kill_midway_and_restart(tmp_path, model)
    assert job["state"] == "done" and job["restarts"] == 1
    assert job["counts"] == {"pending": 0, "ok": DOCUMENTS, "skipped": 0, "failed": 0}
    with GraphStore.open(tmp_path / "store") as store:
        runs = store.documents()
    assert len(runs) == DOCUMENTS and {r["status"] for r in runs} == {"ok"}
    assert sorted(r["source"] for r in runs) == [f"note{i:02}.txt" for i in range(DOCUMENTS)]


def test_a_job_that_cannot_resume_records_each_waiting_document_as_failed(tmp_path, model):
    job = kill_midway_and_restart(tmp_path, model, "another-model")  # scripted is no longer served
    assert job["state"] == "failed" and "'scripted' is not served here" in job["error"]
    done = [d for d in job["documents"] if d["status"] == "ok"]
    failed = [d for d in job["documents"] if d["status"] == "failed"]
    assert len(done) >= 3 and len(done) + len(failed) == DOCUMENTS
    assert all("the job stopped: model 'scripted' is not served here" in d["reason"] for d in failed)
