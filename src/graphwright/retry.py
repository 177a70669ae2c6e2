"""One retry policy for every remote call: the model server (llm.wrappers.RetryingLLM) and live Wikidata
(kb.wikidata). Exponential backoff with jitter, capped, and a server's Retry-After honoured up to the cap.

The LLM's loop awaits its delays; Wikidata's sleeps them, because the KB protocol is synchronous (the
embedded KB answers from memory). A system calls the live KB from async code, so its waits hold the event
loop: ``Backoff`` keeps them short (the KB's cap is 10 seconds) rather than hiding a second loop.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


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
