"""A scripted OpenAI-compatible chat server on 127.0.0.1, for end-to-end tests
of the CLI and the HTTP backend without a real model. With a ``FaultPlan`` it misbehaves
at set rates, as overloaded or broken servers and proxies do."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Reply = Callable[[list[dict], dict | None], str]

#: what a fault does, in the order a FaultPlan draws them
FAULTS = ("error500", "rate_limit", "hang", "drop", "slow", "truncated", "invalid_json", "huge", "garbage")


@dataclass
class FaultPlan:
    """Per-request probabilities of each fault (the rest are answered normally), drawn from a seeded RNG.

    hang: no answer for ``hang_seconds`` (set it above the client's timeout); drop: the connection is
    closed without an answer; slow: the answer trickles out over about ``slow_seconds``; truncated: half
    the announced body, then the connection closes; invalid_json: a 200 whose body is not JSON; huge: an
    answer of ``huge_bytes``; garbage: a well-formed completion whose content is not what was asked.
    """

    rates: dict[str, float]
    seed: int = 0
    retry_after: str = "1"
    hang_seconds: float = 3.0
    slow_seconds: float = 0.3
    huge_bytes: int = 24 * 1024 * 1024
    served: Counter = field(default_factory=Counter)  # how many of each were served ("ok" included)

    def __post_init__(self):
        unknown = set(self.rates) - set(FAULTS)
        assert not unknown, f"unknown faults {unknown}"
        self._rng = random.Random(self.seed)
        self._lock = threading.Lock()

    def draw(self) -> str:
        with self._lock:
            x, edge = self._rng.random(), 0.0
            for fault in FAULTS:
                edge += self.rates.get(fault, 0.0)
                if x < edge:
                    break
            else:
                fault = "ok"
            self.served[fault] += 1
            return fault


class Gate:
    """Holds a scripted model's answers, so that a test decides when a run is mid-batch instead of hoping a
    delay outlasts the machine's load: after ``close(after=n)`` n more answers go out and the others wait
    for ``open()`` (or ``hold_seconds``, so that a failed test never hangs)."""

    def __init__(self, hold_seconds: float = 120.0) -> None:
        self.hold_seconds = hold_seconds
        self._open = threading.Event()
        self._open.set()
        self._lock = threading.Lock()
        self._left = 0

    def close(self, after: int = 0) -> None:
        with self._lock:
            self._left = after
            self._open.clear()

    def open(self) -> None:
        self._open.set()

    def pass_through(self) -> None:
        """Called before each answer: returns at once while open or while answers are left, else waits."""
        with self._lock:
            if self._open.is_set():
                return
            if self._left > 0:
                self._left -= 1
                return
        self._open.wait(self.hold_seconds)


def completion(text: str, model: str = "scripted") -> dict:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": 100,
            "completion_tokens": len(text) // 4 + 1,
            "total_tokens": 100 + len(text) // 4 + 1,
        },
    }


class ScriptedOpenAIServer:
    def __init__(self, reply: Reply, faults: FaultPlan | None = None):
        self.reply = reply
        self.faults = faults
        self.requests: list[dict] = []
        self.gate = Gate()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as vLLM, Ollama and llama.cpp servers do

            def log_message(self, *args):  # keep test output clean
                pass

            def do_GET(self):
                self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})

            def do_POST(self):
                try:
                    body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                except (ValueError, ConnectionResetError):  # a client killed while it sent its request
                    self.close_connection = True
                    return
                fault = server.faults.draw() if server.faults else "ok"
                if fault != "ok":
                    try:
                        return self._misbehave(fault, body)
                    except (BrokenPipeError, ConnectionResetError):  # the client gave up on a fault, as it should
                        self.close_connection = True
                        return None
                server.requests.append(body)
                server.gate.pass_through()
                text = server.reply(body["messages"], body.get("response_format"))
                try:
                    if body.get("stream"):
                        return self._stream(text, body.get("model", "scripted"))
                    self._send(200, completion(text, body.get("model", "scripted")))
                except (BrokenPipeError, ConnectionResetError):  # the client was killed or gave up
                    self.close_connection = True

            def _misbehave(self, fault: str, body: dict):
                plan = server.faults
                if fault == "error500":
                    return self._send(500, {"error": {"message": "injected server error"}})
                if fault == "rate_limit":
                    return self._send(
                        429, {"error": {"message": "injected rate limit"}}, {"Retry-After": plan.retry_after}
                    )
                if fault == "hang":
                    time.sleep(plan.hang_seconds)
                    return self._cut()
                if fault == "drop":
                    return self._cut()
                if fault == "garbage":
                    return self._send(200, completion("Sure! Here is what you asked for: (nothing useful)"))
                data = json.dumps(completion(server.reply(body["messages"], body.get("response_format")))).encode()
                if fault == "huge":
                    data = json.dumps(completion("x" * plan.huge_bytes)).encode()
                elif fault == "invalid_json":
                    data = data[: len(data) // 2]  # announced in full, so it is a complete but broken body
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data) * (2 if fault == "truncated" else 1)))
                self.end_headers()
                if fault == "slow":
                    step = max(1, len(data) // 20)
                    for i in range(0, len(data), step):
                        self.wfile.write(data[i : i + step])
                        self.wfile.flush()
                        time.sleep(plan.slow_seconds / 20)
                    return None
                self.wfile.write(data)
                if fault == "truncated":  # half of what the headers promised
                    self.wfile.flush()
                    self._cut()
                return None

            def _stream(self, text: str, model: str):
                """The answer as server-sent chunks of a few characters, then its usage, as OpenAI streams."""
                whole = completion(text, model)
                pieces = [text[i : i + 4] for i in range(0, len(text), 4)]
                events = [{"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]} for p in pieces]
                events += [
                    {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                    {"choices": [], "usage": whole["usage"]},
                ]
                data = (
                    "".join(
                        f"data: {json.dumps({'object': 'chat.completion.chunk', 'model': model, **e})}\n\n"
                        for e in events
                    )
                    + "data: [DONE]\n\n"
                )
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data.encode())))
                self.end_headers()
                self.wfile.write(data.encode())

            def _cut(self):
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

            def _send(self, status, payload, headers=None):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True  # a hanging fault must not hold up shutdown
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> ScriptedOpenAIServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
