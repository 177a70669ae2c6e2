"""An answer shown as it is generated: a caller sets a listener for the calls it makes (a context
variable, so the wrappers in between need not know), and a backend that can stream (the embedded model,
an OpenAI-compatible server) hands it the text so far after each piece. Backends that cannot, and
answers from the cache, give the whole text once. The listener gets the text so far, not the new piece,
so a retried call simply starts over.

A caller may also say when an answer has gone wrong (``stopping``): a backend that streams ends it there, as
if it had reached its token limit (``finish_reason="length"``), so that a model caught in a loop does not
spend its whole budget repeating itself. Its usage is then the server's count so far."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from graphwright.errors import response_error
from graphwright.llm.base import ChatResponse, response_from_completion

TextListener = Callable[[str], object]  # what a listener returns is ignored
StopCondition = Callable[[str], bool]  # the text so far -> whether to end the answer here
_listener: ContextVar[TextListener | None] = ContextVar("graphwright_stream_listener", default=None)
_stop: ContextVar[StopCondition | None] = ContextVar("graphwright_stop_condition", default=None)


@contextmanager
def _scoped(variable: ContextVar, value: Any) -> Iterator[None]:
    token = variable.set(value)
    try:
        yield
    finally:
        variable.reset(token)


def streaming(on_text: TextListener):
    """Within this block, every model call that can stream tells ``on_text`` its text so far."""
    return _scoped(_listener, on_text)


def listener() -> TextListener | None:
    return _listener.get()


def stopping(when: StopCondition):
    """Within this block, a backend that streams ends an answer as soon as ``when(text so far)`` is true."""
    return _scoped(_stop, when)


def stop_condition() -> StopCondition | None:
    return _stop.get()


class ChunkCollector:
    """Chat-completion chunks in, the text so far out to ``on_text``; ``response`` assembles the answer
    (text, finish reason, and the usage and timings the last chunks carry)."""

    def __init__(self, on_text: TextListener | None, stop_when: StopCondition | None = None):
        self.on_text, self.stop_when, self.text = on_text, stop_when, ""
        self.finish_reason: str | None = None
        self.extra: dict[str, Any] = {}
        self.error: str | None = None  # what the server said when it refused the request

    def add(self, chunk: dict[str, Any]) -> bool:
        """Take one chunk; True when the answer should end here (its stop condition holds, or the server
        refused the request: a streamed refusal is a chunk, not an exception)."""
        if chunk.get("error"):
            error = chunk["error"]
            self.error = str(error.get("message", error) if isinstance(error, dict) else error)
            return True
        for key in ("usage", "timings"):
            if chunk.get(key):
                self.extra[key] = chunk[key]
        for choice in chunk.get("choices") or []:
            piece = (choice.get("delta") or {}).get("content")
            if piece:
                self.text += piece
                if self.on_text is not None:
                    self.on_text(self.text)
                if self.stop_when is not None and self.stop_when(self.text):
                    self.finish_reason = "length"
                    return True
            self.finish_reason = choice.get("finish_reason") or self.finish_reason
        return False

    def response(self, model: str, seconds: float) -> ChatResponse:
        if self.error is not None:
            raise response_error(f"{model}: {self.error}")
        extra = dict(self.extra)
        timings = extra.get("timings") or {}
        if "usage" not in extra and timings:  # ended early: the last chunk's timings count the tokens so far
            extra["usage"] = {
                "prompt_tokens": timings.get("prompt_n", 0) + timings.get("cache_n", 0),
                "completion_tokens": timings.get("predicted_n", 0),
            }
        completion = {"choices": [{"message": {"content": self.text}, "finish_reason": self.finish_reason}], **extra}
        return response_from_completion(completion, model, seconds)
