"""Debounced site builds: a burst of results leads to one build, a few seconds after the last."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class DebouncedBuild:
    """Call ``build`` ``delay`` seconds after the last ``request``; requests that arrive while
    a build runs lead to one more build when it ends.  Failures are logged, never raised into
    the bot."""

    def __init__(self, build: Callable[[], object], delay: float = 10.0) -> None:
        self._build = build
        self._delay = delay
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._running = False
        self._again = False
        self.builds = 0

    def request(self, *_: object) -> None:
        with self._lock:
            if self._running:
                self._again = True
                return
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self._delay, self._run)
            self._timer.daemon = True
            self._timer.start()

    def _run(self) -> None:
        with self._lock:
            self._timer = None
            self._running = True
        try:
            self._build()
            self.builds += 1
        except Exception:
            log.exception("site build failed; the previous site stays online")
        finally:
            with self._lock:
                self._running = False
                again, self._again = self._again, False
        if again:
            self.request()

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
