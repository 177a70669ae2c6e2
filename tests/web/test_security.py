"""What the guard in front of the app refuses: foreign Host headers (DNS rebinding), cross-site POSTs,
requests without the token when one is set."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from graphwright.cli.serve import check_token
from graphwright.errors import UserError
from graphwright.web.app import create_app

TOKEN = "a-long-enough-test-token-123"


def test_a_foreign_host_name_is_refused_on_loopback(client):
    assert client.get("/api/info", headers={"Host": "evil.example:8000"}).status_code == 421
    assert client.get("/api/info", headers={"Host": "localhost:8000"}).status_code == 200


def test_a_post_from_another_origin_is_refused(client):
    response = client.post("/api/sparql", json={"query": "ASK {}"}, headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    same = client.post("/api/sparql", json={"query": "ASK {}"}, headers={"Origin": "http://127.0.0.1:8000"})
    assert same.status_code == 200


def test_a_cross_site_upload_without_an_origin_header_is_refused(client):
    """A browser may leave Origin out of a form's multipart POST but still says where it comes from."""
    upload = {"files": ("note.txt", b"Ada Quist founded Brightmoor.", "text/plain")}
    for site in ("cross-site", "same-site"):
        response = client.post("/api/jobs", files=upload, headers={"Sec-Fetch-Site": site})
        assert response.status_code == 403, site
    assert client.post("/api/sparql", json={"query": "ASK {}"}, headers={"Origin": "null"}).status_code == 403
    own_page = client.post("/api/sparql", json={"query": "ASK {}"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert own_page.status_code == 200
    assert client.get("/api/info", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200, "reads are not refused"


@pytest.fixture
def guarded(config):
    config.token, config.loopback_only = TOKEN, False
    with TestClient(create_app(config), base_url="http://192.0.2.10:8000") as c:
        yield c


def test_the_token_is_required_when_set(guarded):
    assert guarded.get("/api/info").status_code == 401
    assert guarded.get("/api/info", headers={"Authorization": "Bearer wrong-token-xxxxxxxx"}).status_code == 401
    assert guarded.get("/api/info", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_a_page_opened_with_the_token_gets_a_cookie_and_a_clean_address(guarded):
    response = guarded.get(f"/graph?token={TOKEN}&q=x", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/graph?q=x"
    assert "HttpOnly" in response.headers["set-cookie"] and "SameSite=Strict" in response.headers["set-cookie"]
    assert guarded.get("/api/info").status_code == 200  # the client now sends the cookie


def test_serving_off_loopback_needs_a_proper_token():
    with pytest.raises(UserError, match="--token"):
        check_token(None, "0.0.0.0")
    with pytest.raises(UserError, match="at least 16"):
        check_token("short", "0.0.0.0")
    assert check_token(None, "127.0.0.1") is None and check_token(TOKEN, "0.0.0.0") == TOKEN


def test_serve_refuses_another_address_without_a_token(tmp_path):
    from typer.testing import CliRunner

    from graphwright.cli import app

    result = CliRunner().invoke(
        app,
        ["serve", "--host", "0.0.0.0", "--store", str(tmp_path / "store"), "--data", str(tmp_path / "serve")],
        env={"GRAPHWRIGHT_API_TOKEN": ""},
    )
    assert result.exit_code == 1 and "--token" in result.output
    assert not (tmp_path / "serve").exists()  # refused before anything was created
