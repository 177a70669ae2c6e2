"""A web site on 127.0.0.1 for the URL-input tests: fixed answers per path, and paths that never end."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Answer = tuple[int, dict[str, str], bytes]  # status, headers, body


@contextmanager
def site(answers: dict[str, Answer], endless: frozenset[str] = frozenset()) -> Iterator[str]:
    """Serve ``answers`` (a path not there is a 404); a path in ``endless`` streams text with no length
    until the client hangs up. Yields the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the name http.server calls
            if self.path in endless:
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                try:
                    while True:
                        self.wfile.write(b"word " * 20_000)
                except OSError:  # the client hung up, as it should
                    return
            status, headers, body = answers.get(self.path, (404, {"Content-Type": "text/plain"}, b"not here"))
            self.send_response(status)
            for key, value in {**headers, "Content-Length": str(len(body))}.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
