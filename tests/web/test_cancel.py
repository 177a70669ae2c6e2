"""Cancelling a job: what it stored stays, its other documents are recorded as failed with the reason,
nothing of it keeps running, and the queue goes on with the next job."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from graphwright.web.app import create_app
from tests.support.openai_server import ScriptedOpenAIServer
from tests.support.web_server import SENTENCE, reply, wait_for_job


@pytest.fixture
def model():
    with ScriptedOpenAIServer(reply()) as server:
        yield server


@pytest.fixture
def slow_client(config, model, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_RETRIES", "0")
    config.base_url = model.base_url
    with TestClient(create_app(config), base_url="http://127.0.0.1:8000") as client:
        yield client


def submit(client, settings, texts: list[str], prefix: str = "note") -> str:
    files = [("files", (f"{prefix}{i:02}.txt", text.encode(), "text/plain")) for i, text in enumerate(texts)]
    response = client.post(
        "/api/jobs", data={"system": "agentre.zeroshot", "kb": "none", "settings": json.dumps(settings)}, files=files
    )
    assert response.status_code == 202, response.text
    return response.json()["id"]


def test_a_cancelled_job_keeps_what_it_stored_and_the_queue_goes_on(slow_client, model, settings):
    get = lambda path: slow_client.get(path).json()  # noqa: E731
    model.gate.close(after=2)  # two documents are answered, the others wait: the job is mid-way on any machine
    first = submit(slow_client, settings, [f"Note {i} . {SENTENCE}" for i in range(20)])
    waiting = submit(slow_client, settings, ["Waiting . " + SENTENCE], prefix="waiting")
    last = submit(slow_client, settings, ["Last . " + SENTENCE], prefix="last")
    wait_for_job(get, first, until=lambda job: job["counts"]["ok"] >= 2)
    assert slow_client.post(f"/api/jobs/{waiting}/cancel").status_code == 200  # still queued
    assert slow_client.post(f"/api/jobs/{first}/cancel").status_code == 200  # running
    model.gate.open()

    job = wait_for_job(get, first, until=lambda job: job["state"] != "running")
    assert job["state"] == "cancelled" and job["finished"] >= job["started"] and job["seconds"] >= 0
    stored = {r["source"] for r in get("/api/documents")}
    done = [d for d in job["documents"] if d["status"] == "ok"]
    failed = [d for d in job["documents"] if d["status"] == "failed"]
    assert len(done) >= 2 and len(done) + len(failed) == 20 and len(failed) >= 1
    assert {d["name"] for d in done} <= stored and not {d["name"] for d in failed} & stored
    assert all(d["reason"] == "cancelled by the user before it was extracted" for d in failed)
    never_ran = get(f"/api/jobs/{waiting}")
    assert never_ran["state"] == "cancelled" and never_ran["finished"] and never_ran["seconds"] is None

    assert wait_for_job(get, last)["state"] == "done"  # the queue went on
    assert {r["source"] for r in get("/api/documents")} == stored | {"last00.txt"}  # nothing of the first ran on
    assert slow_client.post(f"/api/jobs/{first}/cancel").status_code == 409
    assert slow_client.post("/api/jobs/nope/cancel").status_code == 404
