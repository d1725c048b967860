"""Debounced site builds: a burst of results leads to one build, a few seconds after the last."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import signal
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
        """Cancel a build that is due, and stop the build's process when it keeps one
        (``SiteServer``)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        close = getattr(self._build, "close", None)
        if close is not None:
            close()


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
        return _summary(self.command, done.returncode, done.stdout, done.stderr)


def _summary(command: str, returncode: int, stdout: str, stderr: str) -> str:
    """The site process's one line, logged; a failure raised with its last line."""
    if returncode != 0:
        lines = (stderr or stdout).strip().splitlines()
        raise RuntimeError(f"python -m site_builder {command} exited with {returncode}: "
                           f"{lines[-1] if lines else 'no message'}")
    summary = stdout.strip()
    log.info("%s", summary)
    return summary


class SiteServer:
    """``python -m site_builder build|publish`` through a warm site process
    (``python -m site_builder serve``): started on the first build and kept, it forks a child
    per build, so a build no longer pays for starting Python and importing the builder, and
    still starts from a clean state and takes its memory away with it.  The server gets the
    bot's environment without the Telegram token (``child_environment``), in a process group
    of its own; one that died is started again on the next build, one that takes longer than
    ``timeout`` is killed with its build (the previous site stays online).  ``cpu`` is the
    last build's CPU seconds, as the server measured them."""

    def __init__(self, command: str, config_path: str | None = None, timeout: float = 600.0,
                 program: tuple[str, ...] = (sys.executable, "-m", "site_builder")) -> None:
        self.command = command
        self.config_path = config_path
        self.timeout = timeout
        self.program = program
        self.cpu = 0.0
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()

    def __call__(self) -> str:
        arguments = [self.command] + (["--config", self.config_path] if self.config_path else [])
        with self._lock:
            answer = self._ask(arguments)
        self.cpu = float(answer.get("cpu", 0.0))
        return _summary(self.command, int(answer["returncode"]), answer.get("stdout", ""), answer.get("stderr", ""))

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs."""
        return self._process.pid if self._process is not None and self._process.poll() is None else None

    def _ask(self, arguments: list[str]) -> dict:
        request = (json.dumps(arguments) + "\n").encode()
        process = self._running()
        try:
            process.stdin.write(request)
            process.stdin.flush()
        except OSError:  # it died since the last build: a new one
            self._stop()
            process = self._running()
            process.stdin.write(request)
            process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], self.timeout)
        line = process.stdout.readline() if ready else b""
        try:
            return json.loads(line)
        except ValueError:
            what = "ended" if ready else f"took longer than {self.timeout:g} s"
            self._stop()
            raise RuntimeError(f"python -m site_builder serve {what} during the {self.command}; "
                               "it is started again for the next one") from None

    def _running(self) -> subprocess.Popen:
        if self._process is not None and self._process.poll() is not None:
            self._stop()
        if self._process is None:
            self._process = subprocess.Popen([*self.program, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             env=child_environment(), start_new_session=True)
        return self._process

    def _stop(self) -> None:
        """Kill the server and what it runs (its process group), and wait for it."""
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                stream.close()

    def close(self, timeout: float = 30.0) -> None:
        """Stop the server: the end of its input, then (after ``timeout`` s) a kill."""
        with self._lock:
            process = self._process
            if process is None:
                return
            try:
                process.stdin.close()
                process.wait(timeout)
            except (OSError, subprocess.TimeoutExpired):
                self._stop()  # it did not end: killed, with what it runs
                return
            self._process = None
            with contextlib.suppress(OSError):
                process.stdout.close()
