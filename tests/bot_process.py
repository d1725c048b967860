"""``python -m bot`` as a real child process against the fake Bot API server (tests/fake_telegram.py),
for the tests of what only a process shows: SIGKILL, SIGTERM, start-up errors, the webhook.

    with FakeTelegram(TOKEN) as server:
        bot = BotProcess(config, server).start()
        bot.wait_for_output("the database")
        bot.kill()

Its log (standard error and output together) is read line by line with deadlines, never by
sleeping: a test waits for a line, a call the fake server received, or the process's end.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "123456789:AAH-fake-token_for_tests"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def write_config(folder: Path, tournaments: list[Path], *, arbiters: list[int], webhook_port: int | None = None,
                 extra: str = "") -> Path:
    """A config.toml with the store in ``folder`` (no site: no builds)."""
    lines = ["[bot]", f"arbiters = {arbiters}"]
    if webhook_port is not None:
        lines += [f'webhook_url = "http://127.0.0.1:{webhook_port}/tiebreak/hook"', 'webhook_listen = "127.0.0.1"',
                  f"webhook_port = {webhook_port}"]
    lines += [extra, "[storage]", 'path = "data/bot.sqlite3"']
    lines += [f'[[tournaments]]\nfile = "{path}"' for path in tournaments]
    config = folder / "config.toml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return config


class BotProcess:
    """The bot as a child process of the test, talking to ``server``."""

    def __init__(self, config: Path, server: FakeTelegram | None, *, token: str = TOKEN,
                 base_url: str | None = None, environment: dict[str, str] | None = None) -> None:
        self.config = config
        self.server = server
        self.token = token
        self.base_url = base_url if base_url is not None else (server.url if server else "")
        self.environment = environment or {}
        self.process: subprocess.Popen[bytes] | None = None
        self.lines: list[str] = []
        self._buffer = b""
        self.starts = 0

    def start(self) -> BotProcess:
        environment = {**os.environ, "TELEGRAM_BOT_TOKEN": self.token, "TELEGRAM_API_BASE_URL": self.base_url,
                       "PYTHONUNBUFFERED": "1", **self.environment}
        self.process = subprocess.Popen([sys.executable, "-m", "bot", "--config", str(self.config)],
                                        cwd=self.config.parent, env=environment, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        self.starts += 1
        return self

    # -- its output -------------------------------------------------------------------------

    def _read(self, timeout: float) -> bool:
        """Read what is there within ``timeout``; False at the end of the output."""
        assert self.process is not None and self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, timeout))
        if not ready:
            return True
        chunk = os.read(self.process.stdout.fileno(), 65536)
        self._buffer += chunk
        *complete, self._buffer = self._buffer.split(b"\n")
        self.lines += [line.decode("utf-8", "replace") for line in complete]
        return bool(chunk)

    def wait_until(self, condition: Callable[[], object], what: str, timeout: float = 60) -> object:
        """Read the output until ``condition()`` holds (it may look at the fake server too)."""
        deadline = time.monotonic() + timeout
        while True:
            found = condition()
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not within {timeout} s; the bot wrote: {self.lines[-15:]}")
            if not self._read(min(0.05, max(0.0, deadline - time.monotonic()))):
                found = condition()
                if found:
                    return found
                raise AssertionError(f"{what}: the bot ended ({self.process.wait()}): {self.lines[-15:]}")

    def wait_for_output(self, text: str, count: int = 1, timeout: float = 60) -> None:
        self.wait_until(lambda: sum(text in line for line in self.lines) >= count, f"{count} line(s) with {text!r}",
                        timeout)

    def output(self) -> str:
        """Everything it wrote (call once it has ended)."""
        while self._read(5.0):
            pass
        return "\n".join([*self.lines, self._buffer.decode("utf-8", "replace")]).strip()

    # -- its end ----------------------------------------------------------------------------

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self.output()

    def stop(self, timeout: float = 60) -> int:
        """SIGTERM, as a service manager stops it; the exit status."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout)
        self.output()
        return status

    def wait(self, timeout: float = 60) -> int:
        assert self.process is not None
        status = self.process.wait(timeout)
        self.output()
        return status

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()
