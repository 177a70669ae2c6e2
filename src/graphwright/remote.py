"""Documents from http(s) URLs: a web page, a PDF or a Word file, fetched as the server sends it.

What the server says it sent (its Content-Type) decides how the bytes are read, not the URL's ending: a
``.../report.pdf`` that answers with an HTML login page is read as HTML, and an image is refused. The
bytes are read in pieces up to a bound, so a huge or endless answer is refused, not held in memory.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

import httpx

from graphwright.converters import kind_of
from graphwright.environment import package_version
from graphwright.errors import InputDocumentError

#: Content-Types read as documents; any other ``text/*`` is read as text
MEDIA_KINDS = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
}
UNLABELLED = {"", "application/octet-stream", "binary/octet-stream"}  # then the URL's ending decides
TIMEOUT = 30.0  # seconds without a byte from the server
MAX_REDIRECTS = 5


@dataclass(frozen=True)
class Fetched:
    data: bytes
    kind: str  # "text", "html", "pdf" or "docx"
    charset: str | None  # the text's encoding, where the server names one


def is_url(raw: str) -> bool:
    return raw[:8].lower().startswith(("http://", "https://"))


def fetch(url: str, max_bytes: int, *, timeout: float = TIMEOUT, public_only: bool = False) -> Fetched:
    """The body of ``url`` (redirects followed) and what it is; InputDocumentError, saying why, when the
    server cannot be reached, answers with an error, sends something that is not a document, or sends
    more than ``max_bytes``. With ``public_only``, a URL (or a redirect) to a host on a loopback, private
    or link-local address is refused before it is asked."""
    headers = {"User-Agent": f"graphwright/{package_version()} python-httpx/{httpx.__version__}"}
    hooks = {"request": [_refuse_local]} if public_only else {}
    try:
        with (
            httpx.Client(
                follow_redirects=True, max_redirects=MAX_REDIRECTS, timeout=timeout, headers=headers, event_hooks=hooks
            ) as client,
            client.stream("GET", url) as response,
        ):
            if response.status_code >= 400:
                raise InputDocumentError(
                    f"{url} answered HTTP {response.status_code} {response.reason_phrase}".rstrip()
                )
            kind = _kind(response, url)
            declared = response.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > max_bytes:
                raise _too_large(url, f"{int(declared):,}", max_bytes)
            parts, total = [], 0
            for part in response.iter_bytes():
                total += len(part)
                if total > max_bytes:
                    raise _too_large(url, f"more than {max_bytes:,}", max_bytes)
                parts.append(part)
            return Fetched(b"".join(parts), kind, response.charset_encoding)
    except httpx.TooManyRedirects:
        raise InputDocumentError(f"{url} redirects more than {MAX_REDIRECTS} times") from None
    except httpx.HTTPError as exc:  # unreachable, refused, timed out, a malformed URL
        raise InputDocumentError(f"cannot fetch {url}: {exc or type(exc).__name__}") from None


def _refuse_local(request: httpx.Request) -> None:
    """A server shared with others fetches public hosts only, so a URL cannot reach what sits behind it
    (its own admin pages, the cloud's metadata address). Checked on each hop of a redirect; the address
    is resolved here and again when connecting, so a name that changes its answer in between is not
    caught (docs/decisions.md)."""
    host = request.url.host
    try:
        # str(): an IPv4 or IPv6 address is already a str; typeshed also allows the int of other families
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)}
    except (socket.gaierror, UnicodeError) as exc:
        raise httpx.ConnectError(f"cannot resolve {host}: {exc}", request=request) from None
    for address in addresses:
        if not ipaddress.ip_address(address.split("%")[0]).is_global:
            raise InputDocumentError(
                f"{request.url} is on a local or private address ({address}), which this "
                "server does not fetch for others"
            )


def _kind(response: httpx.Response, url: str) -> str:
    media = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if media in MEDIA_KINDS:
        return MEDIA_KINDS[media]
    if media.startswith("text/"):
        return "text"
    if media in UNLABELLED:
        return kind_of(response.url.path)
    raise InputDocumentError(
        f"{url} is {media}, which graphwright does not read: it reads text, HTML, PDF and Word (.docx) documents"
    )


def _too_large(url: str, size: str, max_bytes: int) -> InputDocumentError:
    return InputDocumentError(f"{url} is {size} bytes, above the {max_bytes:,} bytes read from one input")
