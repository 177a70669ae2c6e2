"""Documents from http(s) URLs, served by a real HTTP server on 127.0.0.1: read as the server's
Content-Type says, redirects followed, and every failure a recorded reason, never a lost input."""

from __future__ import annotations

import pytest

from graphwright.inputs import InputFailure, iter_inputs
from graphwright.remote import fetch
from tests.support import documents
from tests.support.site import Answer, site

ARTICLE = [
    "Saltmarsh Robotics was bought by Kettlewick Marine in 2023, the harbour office said on Monday.",
    "Kettlewick Marine is run by Duncan Farrier and ships fish from Aberdeen to Bergen every week.",
]
PAGES = [["Page 1 says: the Corra Lynn ferry was built in 1998."], ["Page 2 says: it sails from Oban."]]


def answers() -> dict[str, Answer]:
    html = documents.html(ARTICLE)
    return {
        "/news": (200, {"Content-Type": "text/html; charset=utf-8"}, html),
        "/report": (200, {"Content-Type": "application/pdf"}, documents.pdf(PAGES)),
        # the ending says PDF, the server says HTML (a login page in front of a report): the server wins
        "/login.pdf": (200, {"Content-Type": "text/html"}, html),
        "/notes": (
            200,
            {"Content-Type": "text/plain; charset=latin-1"},
            "Café Brindle opened in Tralee.".encode("latin-1"),
        ),
        "/unlabelled.pdf": (200, {"Content-Type": "application/octet-stream"}, documents.pdf(PAGES)),
        "/moved": (302, {"Location": "/news"}, b""),
        "/loop": (302, {"Location": "/loop"}, b""),
        "/logo": (200, {"Content-Type": "image/png"}, b"\x89PNG\r\n\x1a\n"),
        "/empty": (200, {"Content-Type": "text/plain"}, b""),
    }


@pytest.fixture(scope="module")
def server():
    with site(answers(), endless=frozenset({"/huge"})) as url:
        yield url


def read(url: str, **kw):
    [item] = iter_inputs([url], **kw)
    return item


def test_a_web_page_a_pdf_and_a_text_are_read_as_the_server_says(server):
    page = read(f"{server}/news")
    assert all(sentence in page.text for sentence in ARTICLE) and "Cookie settings" not in page.text
    assert page.source == f"{server}/news" and page.metadata["format"] == "html"
    report = read(f"{server}/report")
    assert report.metadata["pages"] == "2" and "sails from Oban" in report.text
    assert read(f"{server}/login.pdf").metadata["format"] == "html"
    assert read(f"{server}/notes").text == "Café Brindle opened in Tralee.", "the server's charset, not UTF-8"
    assert read(f"{server}/unlabelled.pdf").metadata["format"] == "pdf", "no type given: the URL's ending decides"
    moved = read(f"{server}/moved")
    assert moved.source == f"{server}/moved" and ARTICLE[0] in moved.text, "the URL given names the document"


def test_every_failure_is_recorded_with_its_reason(server):
    reasons = {path: read(f"{server}{path}") for path in ("/missing", "/logo", "/loop", "/empty")}
    assert all(isinstance(r, InputFailure) for r in reasons.values())
    assert "HTTP 404" in reasons["/missing"].reason
    assert "image/png" in reasons["/logo"].reason and "PDF" in reasons["/logo"].reason
    assert "redirects more than" in reasons["/loop"].reason
    assert "empty" in reasons["/empty"].reason
    closed = read("http://127.0.0.1:9/nothing-listens-here")
    assert isinstance(closed, InputFailure) and closed.reason.startswith("cannot fetch http://127.0.0.1:9/")
    too_long = read(f"{server}/report", max_chars=20)
    assert isinstance(too_long, InputFailure) and too_long.reason.endswith("raise --max-chars")


def test_an_endless_answer_is_cut_off_at_the_bound(server):
    from graphwright.errors import InputDocumentError

    with pytest.raises(InputDocumentError, match="more than 1,000,000 bytes"):
        fetch(f"{server}/huge", 1_000_000)


def test_a_shared_server_fetches_public_hosts_only(server):
    """`public_only` (the web app served off loopback) refuses this machine and private networks, on every
    hop of a redirect; literal addresses need no DNS, so the rule is checked offline."""
    import httpx

    from graphwright.errors import InputDocumentError
    from graphwright.inputs import read_url
    from graphwright.remote import _refuse_local

    with pytest.raises(InputDocumentError, match=r"local or private address \(127\.0\.0\.1\)"):
        read_url(f"{server}/moved", public_only=True)
    for local in (
        "http://169.254.169.254/latest/meta-data",
        "http://10.1.2.3/",
        "http://[::1]:8000/",
        "http://192.168.0.9/",
    ):
        with pytest.raises(InputDocumentError, match="local or private address"):
            _refuse_local(httpx.Request("GET", local))
    _refuse_local(httpx.Request("GET", "http://93.184.216.34/page"))  # a public address passes
    assert read(f"{server}/news").metadata["format"] == "html", "the CLI (no public_only) reads this machine"
