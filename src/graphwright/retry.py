"""One retry policy for every remote call: the model server (llm.wrappers.RetryingLLM) and live Wikidata
(kb.wikidata). Exponential backoff with jitter, capped, and a server's Retry-After honoured up to the cap;
tenacity runs the attempts, synchronously for Wikidata and awaiting for the model.

Wikidata's waits are sleeps because the KB protocol is synchronous (the embedded KB answers from memory).
A system calls the live KB from async code, so its waits hold the event loop: ``Backoff`` keeps them short
(the KB's cap is 10 seconds) rather than hiding a second loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from tenacity import AsyncRetrying, RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

Retryable = type[BaseException] | tuple[type[BaseException], ...]


@dataclass(frozen=True)
class Backoff:
    attempts: int = 4  # tries in all, the first included
    base: float = 1.0  # the delay before the first retry, before jitter
    cap: float = 30.0  # no delay is longer, a server's Retry-After included

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("attempts must be at least 1")

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry ``retry`` (1-based): base * 2**(retry-1), capped, times a random factor
        in [0.5, 1] so clients that failed together do not retry together; longer when the server asked."""
        backoff = min(self.cap, self.base * 2 ** (retry - 1)) * random.uniform(0.5, 1.0)
        return max(backoff, min(retry_after, self.cap)) if retry_after is not None else backoff

    def retrying(self, retry_on: Retryable, on_retry: Callable[[], None] | None = None) -> Retrying:
        """The attempts of a blocking call: ``for attempt in backoff.retrying(...): with attempt: ...``;
        the last error is raised as it was."""
        return Retrying(**self._policy(retry_on, on_retry))

    def async_retrying(self, retry_on: Retryable, on_retry: Callable[[], None] | None = None) -> AsyncRetrying:
        """The same for a call that is awaited: ``async for attempt in ...``."""
        return AsyncRetrying(**self._policy(retry_on, on_retry))

    def _policy(self, retry_on: Retryable, on_retry: Callable[[], None] | None) -> dict:
        def wait(state: RetryCallState) -> float:
            error = state.outcome.exception() if state.outcome else None
            return self.delay(state.attempt_number, getattr(error, "retry_after", None))

        return {
            "stop": stop_after_attempt(self.attempts),
            "wait": wait,
            "retry": retry_if_exception_type(retry_on),
            "before_sleep": (lambda state: on_retry()) if on_retry else None,
            "reraise": True,
        }
