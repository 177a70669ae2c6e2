from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web app needs its extra: pip install 'graphwright[web]'")

from fastapi.testclient import TestClient  # noqa: E402

from graphwright.web.app import create_app  # noqa: E402
from graphwright.web.state import ServeConfig  # noqa: E402
from tests.support.openai_server import ScriptedOpenAIServer  # noqa: E402
from tests.support.web_server import job_settings, reply  # noqa: E402


@pytest.fixture
def model_server():
    with ScriptedOpenAIServer(reply()) as server:
        yield server


@pytest.fixture
def settings(tmp_path):
    return job_settings(tmp_path)


@pytest.fixture
def config(tmp_path, model_server):
    return ServeConfig(
        store=tmp_path / "store",
        data=tmp_path / "serve",
        models=["scripted"],
        base_url=model_server.base_url,
        cache=False,
        max_upload_bytes=64 * 1024,
    )


@pytest.fixture
def client(config, monkeypatch):
    monkeypatch.setenv("GRAPHWRIGHT_RETRIES", "0")
    with TestClient(create_app(config), base_url="http://127.0.0.1:8000") as c:
        yield c
