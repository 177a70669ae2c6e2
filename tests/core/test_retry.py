"""The one retry policy: exponential delays with jitter, the cap, and a server's Retry-After."""

import pytest

from graphwright.retry import Backoff


def test_delays_double_with_jitter_and_stop_at_the_cap():
    backoff = Backoff(attempts=6, base=1.0, cap=5.0)
    for retry, full in ((1, 1.0), (2, 2.0), (3, 4.0), (4, 5.0), (5, 5.0)):
        delays = {backoff.delay(retry) for _ in range(50)}
        assert all(full / 2 <= d <= full for d in delays)
        assert len(delays) > 1, "jittered, so clients that failed together spread out"


def test_retry_after_wins_when_longer_but_never_past_the_cap():
    backoff = Backoff(base=0.001, cap=5.0)
    assert backoff.delay(1, retry_after=2.0) == 2.0
    assert backoff.delay(1, retry_after=60.0) == 5.0
    assert backoff.delay(1, retry_after=0.0) <= 0.001


def test_at_least_one_attempt():
    with pytest.raises(ValueError, match="at least 1"):
        Backoff(attempts=0)
