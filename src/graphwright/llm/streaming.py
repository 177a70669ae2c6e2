"""An answer shown as it is generated: a caller sets a listener for the calls it makes (a context
variable, so the wrappers in between need not know), and a backend that can stream (the embedded model,
an OpenAI-compatible server) hands it the text so far after each piece. Backends that cannot, and
answers from the cache, give the whole text once. The listener gets the text so far, not the new piece,
so a retried call simply starts over."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator

from graphwright.llm.base import ChatResponse, response_from_completion

TextListener = Callable[[str], None]
_listener: ContextVar[TextListener | None] = ContextVar("graphwright_stream_listener", default=None)


@contextmanager
def streaming(on_text: TextListener) -> Iterator[None]:
    """Within this block, every model call that can stream tells ``on_text`` its text so far."""
    token = _listener.set(on_text)
    try:
        yield
    finally:
        _listener.reset(token)


def listener() -> TextListener | None:
    return _listener.get()


class ChunkCollector:
    """Chat-completion chunks in, the text so far out to ``on_text``; ``response`` assembles the answer
    (text, finish reason, and the usage and timings the last chunks carry)."""

    def __init__(self, on_text: TextListener):
        self.on_text, self.text, self.finish_reason = on_text, "", None
        self.extra: dict[str, Any] = {}

    def add(self, chunk: dict[str, Any]) -> None:
        for choice in chunk.get("choices") or []:
            piece = (choice.get("delta") or {}).get("content")
            if piece:
                self.text += piece
                self.on_text(self.text)
            self.finish_reason = choice.get("finish_reason") or self.finish_reason
        for key in ("usage", "timings"):
            if chunk.get(key):
                self.extra[key] = chunk[key]

    def response(self, model: str, seconds: float) -> ChatResponse:
        completion = {"choices": [{"message": {"content": self.text}, "finish_reason": self.finish_reason}],
                      **self.extra}
        return response_from_completion(completion, model, seconds)
