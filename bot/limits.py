"""Players' messages are rate-limited per user, arbiters' never (issue 21).

A player (anyone who is not an arbiter) may send ``[bot].rate_limit`` messages a minute, in a
burst of as many (a token bucket per user).  The first message over the limit gets one polite
reply saying how long to wait; the ones after it are not read at all until the bucket refills,
so a flood of ``/standings all`` costs the bot almost nothing and delays no arbiter's result.
Arbiters (the chief arbiters and every tournament's) are never limited, and the bot handles
their updates first (``bot/delivery.py``).

Telegram-free, like the commands: ``bot/handlers.py`` asks ``RateLimiter.admit`` for every
update before any handler runs.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

#: users whose buckets are kept; past it, the full ones (users quiet for a minute) are forgotten
MAX_USERS = 10_000


class Admission(enum.Enum):
    READ = "read"  # within the limit: handle it
    TELL = "tell"  # the first over the limit: reply once, politely, and read no further
    DROP = "drop"  # over the limit, already told: not read


@dataclass
class _Bucket:
    tokens: float
    stamp: float
    told: bool = False


class RateLimiter:
    """``per_minute`` messages a minute per user, in bursts of as many; 0: no limit."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._buckets: dict[int, _Bucket] = {}

    def admit(self, user_id: int, is_arbiter: Callable[[], bool]) -> Admission:
        """Whether to read ``user_id``'s update; ``is_arbiter`` is asked only for a user over
        the limit (an arbiter is never limited)."""
        if self.per_minute <= 0:
            return Admission.READ
        now = self.clock()
        bucket = self._bucket(user_id, now)
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            bucket.told = False
            return Admission.READ
        if is_arbiter():
            return Admission.READ
        if bucket.told:
            return Admission.DROP
        bucket.told = True
        return Admission.TELL

    def wait(self, user_id: int) -> int:
        """Seconds until ``user_id`` may send again (at least 1)."""
        bucket = self._buckets.get(user_id)
        missing = 1 - bucket.tokens if bucket is not None else 0
        return max(1, math.ceil(missing * 60 / self.per_minute)) if self.per_minute > 0 else 0

    def _bucket(self, user_id: int, now: float) -> _Bucket:
        bucket = self._buckets.get(user_id)
        if bucket is None:
            if len(self._buckets) >= MAX_USERS:
                self._forget_quiet(now)
            bucket = self._buckets[user_id] = _Bucket(float(self.per_minute), now)
            return bucket
        bucket.tokens = min(float(self.per_minute), bucket.tokens + (now - bucket.stamp) * self.per_minute / 60)
        bucket.stamp = now
        return bucket

    def _forget_quiet(self, now: float) -> None:
        for user_id, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * self.per_minute / 60 >= self.per_minute:
                del self._buckets[user_id]
