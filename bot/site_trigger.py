"""The site builds the bot starts after results: at once on the first one (a leading-edge
debounce), and the results that arrive during a build coalesced into one next build, which
builds only the tournaments they changed (``--only``)."""

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
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

from tiebreak.library import child_environment

log = logging.getLogger(__name__)

#: builds the site: of the tournaments named (``--only``), or of every one when none is named
Build = Callable[[frozenset[str]], object]


class DebouncedBuild:
    """Call ``build`` at once on a ``request`` (the first result after a quiet spell reaches
    the site as fast as a build goes); requests that arrive while a build runs are coalesced
    into one more build when it ends, of every tournament they named (a request naming none
    builds them all), so a result entered during a build is published by the next one, never
    lost.  ``delay`` is the least time between the starts of two builds (0: none).  Builds run
    one at a time in a thread of their own; failures are logged, never raised into the bot."""

    def __init__(self, build: Build, delay: float = 0.0) -> None:
        self._build = build
        self._delay = delay
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # notified on a request, at a build's end, at close
        self._due = False  # a build is asked for
        self._slugs: set[str] = set()  # the tournaments it is asked for
        self._everything = False  # a request named no tournament
        self._running = False
        self._closed = False
        self._started = -float("inf")  # when the last build started (time.monotonic)
        self._thread: threading.Thread | None = None
        self.builds = 0  # builds that succeeded

    def request(self, slug: str | None = None) -> None:
        """Ask for a build of tournament ``slug`` (None: of every tournament)."""
        with self._lock:
            if self._closed:
                return
            self._due = True
            if slug is None:
                self._everything = True
            else:
                self._slugs.add(slug)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="site-builds", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def _loop(self) -> None:
        while True:
            with self._lock:
                self._changed.wait_for(lambda: self._due or self._closed)
                if self._closed:
                    return
                pause = self._started + self._delay - time.monotonic()
                if pause > 0:  # builds no closer together than ``delay``
                    self._changed.wait(pause)
                    continue
                slugs = frozenset() if self._everything else frozenset(self._slugs)
                self._due, self._everything, self._running = False, False, True
                self._slugs.clear()
                self._started = time.monotonic()
            try:
                self._build(slugs)
                self.builds += 1
            except Exception:
                log.exception("site build failed; the previous site stays online")
            finally:
                with self._lock:
                    self._running = False
                    self._changed.notify_all()

    def flush(self, timeout: float | None = None) -> None:
        """Wait until every build asked for is made (the one that runs, and the one that is due
        after it, without waiting for ``delay``), so that results entered just before the bot
        stops still reach the site."""
        with self._lock:
            self._started = -float("inf")
            self._changed.notify_all()
            self._changed.wait_for(lambda: not (self._due or self._running) or self._closed, timeout)

    def start(self) -> None:
        """Start the build's process now when it keeps one (``SiteServer``), so that the first
        result does not wait for it to start."""
        start = getattr(self._build, "start", None)
        if start is not None:
            start()

    def close(self) -> None:
        """Stop: a build that is due is not made (``flush`` first for that); one that runs ends
        with its process (``SiteServer``) stopped."""
        with self._lock:
            self._closed = True
            self._changed.notify_all()
        close = getattr(self._build, "close", None)
        if close is not None:
            close()


def _arguments(command: str, config_path: str | None, only: Collection[str]) -> list[str]:
    """``build|publish [--config PATH] [--only SLUG ...]``."""
    arguments = [command] + (["--config", config_path] if config_path else [])
    for slug in sorted(only):
        arguments += ["--only", slug]
    return arguments


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

    def __call__(self, only: Collection[str] = ()) -> str:
        """Build (or publish) the tournaments ``only`` names, or every one."""
        done = subprocess.run([*self.program, *_arguments(self.command, self.config_path, only)],
                              capture_output=True, text=True, timeout=self.timeout, env=child_environment())
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

    def __call__(self, only: Collection[str] = ()) -> str:
        """Build (or publish) the tournaments ``only`` names, or every one."""
        with self._lock:
            answer = self._ask(_arguments(self.command, self.config_path, only))
        self.cpu = float(answer.get("cpu", 0.0))
        return _summary(self.command, int(answer["returncode"]), answer.get("stdout", ""), answer.get("stderr", ""))

    def start(self) -> None:
        """Start the server now (else the first build starts it): it imports the builder and
        loads the site's words and templates while the bot waits for results."""
        with self._lock:
            self._running()

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
