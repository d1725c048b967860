"""Debounced site builds: a burst of results leads to one build, a few seconds after the last."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass

from tiebreak.library import child_environment

log = logging.getLogger(__name__)


class DebouncedBuild:
    """Call ``build`` ``delay`` seconds after the last ``request``; requests that arrive while
    a build runs lead to one more build when it ends.  Failures are logged, never raised into
    the bot."""

    def __init__(self, build: Callable[[], object], delay: float = 2.0) -> None:
        self._build = build
        self._delay = delay
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)  # notified when a build ends
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
                self._idle.notify_all()
        if again:
            self.request()

    def flush(self, timeout: float | None = None) -> None:
        """Build now if a build is due (waiting for one that runs), so that results entered
        just before the bot stops still reach the site."""
        with self._lock:
            due = self._timer is not None or self._again
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._again = False
            self._idle.wait_for(lambda: not self._running, timeout)
        if due:
            self._run()

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


@dataclass(frozen=True)
class SiteCommand:
    """``python -m site_builder build|publish [--config PATH]`` in a process of its own: the
    bot keeps answering while the site is rendered (on every core, which the builder only
    uses in a process without other threads), and a build's memory goes with its process.
    The process gets the bot's environment without the Telegram token (``child_environment``);
    ``program`` is what runs (tests replace it)."""

    command: str  # "build" or "publish"
    config_path: str | None = None
    timeout: float = 600.0
    program: tuple[str, ...] = (sys.executable, "-m", "site_builder")

    def __call__(self) -> str:
        arguments = [*self.program, self.command]
        if self.config_path:
            arguments += ["--config", self.config_path]
        done = subprocess.run(arguments, capture_output=True, text=True, timeout=self.timeout,
                              env=child_environment())
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            raise RuntimeError(f"python -m site_builder {self.command} exited with {done.returncode}: "
                               f"{lines[-1] if lines else 'no message'}")
        summary = done.stdout.strip()
        log.info("%s", summary)
        return summary
