"""The web app's guard, as one ASGI middleware in front of every route.

* Host: on a loopback address only ``127.0.0.1``, ``localhost`` and ``[::1]`` are served, so a web
  page cannot reach the app through DNS rebinding.
* Origin: a browser's POST from another origin is refused (no cross-site job submission), by its Origin
  header or, where a browser leaves that out, by its Sec-Fetch-Site header.
* Token: when set (required off loopback), every request carries it, as ``Authorization: Bearer``,
  or as the cookie a page gets by opening any URL once with ``?token=``.
* Size: a request body above the limit is refused with 413, counted as it arrives (not trusted from
  Content-Length alone).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode, urlsplit

COOKIE = "graphwright_token"
_LOCAL_NAMES = {"localhost", "127.0.0.1", "::1"}


def is_loopback(host: str) -> bool:
    if host in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_name(value: str) -> str:
    """``127.0.0.1:8000`` -> ``127.0.0.1``; ``[::1]:8000`` -> ``::1``."""
    return urlsplit("//" + value).hostname or ""


def _from_another_site(headers: dict[str, str], host: str) -> bool:
    """A browser names where a request comes from in Origin, and in Sec-Fetch-Site, which it sends even
    where it leaves Origin out (a form's multipart POST in some browsers): either one saying another site
    is enough. Clients that send neither (curl, scripts) are not browsers and pass."""
    origin = headers.get("origin")
    if origin and urlsplit(origin).netloc != host:  # "null" (a sandboxed frame, a file: page) has no host
        return True
    return headers.get("sec-fetch-site", "") in ("cross-site", "same-site")


class BodyTooLarge(Exception):
    pass


class Guard:
    def __init__(self, app, *, token: str | None, loopback_only: bool, max_body: int) -> None:
        self.app, self.token, self.loopback_only, self.max_body = app, token, loopback_only, max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if self.loopback_only and not is_loopback(_host_name(host)):
            return await _refuse(send, 421, f"this server answers on its loopback address only, not {host!r}")
        if scope["method"] not in ("GET", "HEAD", "OPTIONS") and _from_another_site(headers, host):
            return await _refuse(send, 403, "a request from another web site is refused")
        if self.token:
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            if scope["method"] == "GET" and "token" in query and self._matches(query["token"]):
                return await _set_cookie_and_redirect(send, scope, query, self.token)
            if not self._matches(_offered_token(headers)):
                return await _refuse(
                    send,
                    401,
                    "this server needs its API token: send 'Authorization: Bearer "
                    "<token>', or open a page once with ?token=<token>",
                )
        length = headers.get("content-length")
        if length and length.isdigit() and int(length) > self.max_body:
            return await _refuse(send, 413, _too_large(self.max_body))
        received = 0

        async def counted():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge
            return message

        started = False

        async def tracked_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, tracked_send)
        except BodyTooLarge:
            if not started:
                await _refuse(send, 413, _too_large(self.max_body))

    def _matches(self, offered: str | None) -> bool:
        assert self.token is not None  # only asked when the server has a token
        return offered is not None and hmac.compare_digest(offered.encode(), self.token.encode())


def _offered_token(headers: dict[str, str]) -> str | None:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value:
        return value.strip()
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 - a malformed cookie header is no token
        return None
    return cookie[COOKIE].value if COOKIE in cookie else None


def _too_large(limit: int) -> str:
    return f"the request is larger than this server's limit of {limit:,} bytes (graphwright serve --max-upload-mb)"


async def _refuse(send, status: int, message: str) -> None:
    body = json.dumps({"detail": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _set_cookie_and_redirect(send, scope, query: dict[str, str], token: str) -> None:
    """The token leaves the address bar (and the history) and lives in an HttpOnly cookie."""
    rest = urlencode({k: v for k, v in query.items() if k != "token"})
    location = scope["path"] + (f"?{rest}" if rest else "")
    cookie = f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": [(b"location", location.encode()), (b"set-cookie", cookie.encode()), (b"content-length", b"0")],
        }
    )
    await send({"type": "http.response.body", "body": b""})
