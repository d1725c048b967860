"""Publish the built site: ``[publish].target`` is ``dir``, ``git``, ``rsync``, ``s3`` or ``command``,
one module each, with its own settings read from ``[publish]``.

Every target is idempotent and never leaves the destination half-updated in a way that a retry
cannot fix (each module says how).  A failed attempt is retried ``retries`` times, waiting
``backoff`` seconds and doubling; after the last one :class:`PublishError` (one line) is raised.
Problems found before anything is attempted (a bad ``[publish]`` table, a missing ``rsync``,
``git`` or ``boto3``) raise :class:`ranking.InputError`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ranking import InputError
from site_builder.publishers.base import COMMON_KEYS, SKIP_AT_ROOT, SOURCE, Log, PublishSettings, site_files
from site_builder.publishers.command import CommandSettings
from site_builder.publishers.dir import DirSettings
from site_builder.publishers.git import GitSettings
from site_builder.publishers.rsync import RsyncSettings
from site_builder.publishers.s3 import S3Settings

#: target -> its settings, in the order the error messages list them
TARGETS: dict[str, type[PublishSettings]] = {
    settings.target: settings for settings in (DirSettings, GitSettings, RsyncSettings, S3Settings, CommandSettings)
}
_SECRET_WORDS = ("secret", "access_key", "password", "token", "credential")


class PublishError(Exception):
    """Publishing failed after every attempt; ``str(error)`` is one line."""

    def __init__(self, message: str, *, target: str | None = None, attempts: int = 0) -> None:
        super().__init__(_one_line(message))
        self.target = target
        self.attempts = attempts


@dataclass(frozen=True)
class PublishReport:
    target: str
    attempts: int
    uploaded: int = 0  # files new or changed at the destination (``command``: every file handed over)
    deleted: int = 0  # files removed from the destination
    unchanged: int = 0  # files already there with the same content
    duration: float = 0.0  # seconds, without the waits between attempts
    detail: str = ""  # e.g. the git commit, or "no change"

    def __str__(self) -> str:
        attempts = f", {self.attempts} attempts" if self.attempts != 1 else ""
        detail = f", {self.detail}" if self.detail else ""
        return (f"{self.uploaded} uploaded, {self.deleted} deleted, {self.unchanged} unchanged "
                f"in {self.duration:.2f} s{attempts}{detail}")


def settings_from_config(table: Mapping[str, Any], base: Path) -> PublishSettings:
    """The settings of ``[publish]`` (a table of config.toml) for its ``target``; relative local
    paths are taken from ``base`` (the folder of config.toml).

    Keys of the other targets are allowed (to switch ``target`` back and forth) but unknown keys are
    not, and neither are credentials, which come from the environment only.
    """
    if not isinstance(table, Mapping):
        raise InputError("expected a table", source=SOURCE)
    known = set(COMMON_KEYS).union(*(settings.keys for settings in TARGETS.values()))
    for key in table:
        if any(word in str(key).lower() for word in _SECRET_WORDS):
            raise InputError(f"{key}: credentials are never read from config.toml; set AWS_ACCESS_KEY_ID, "
                             "AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) in the environment", source=SOURCE)
        if key not in known:
            raise InputError(f"unknown key {key!r}: expected some of {', '.join(sorted(known))}", source=SOURCE)
    if "target" not in table:
        raise InputError(f"target is missing: expected one of {', '.join(TARGETS)}", source=SOURCE)
    target = table["target"]
    if target not in TARGETS:
        raise InputError(f"target = {target!r}: expected one of {', '.join(TARGETS)}", source=SOURCE)
    settings = TARGETS[target]
    settings.check_strings(table)
    if table.get(settings.required) is None:
        raise InputError(f"target = {target!r} needs the key {settings.required!r}", source=SOURCE)
    return settings.from_table(table, Path(base))


def publish(out_dir: Path, settings: PublishSettings, sleep: Callable[[float], Any] = time.sleep,
            log: Log = print) -> PublishReport:
    """Publish the site in ``out_dir`` to ``settings.target``, retrying the whole step with backoff."""
    out_dir = Path(out_dir)
    if not out_dir.is_dir():
        raise InputError(f"no site folder {out_dir}: build the site first (python -m site_builder build)")
    out_dir = out_dir.resolve()  # the builder's output is a symbolic link to the current build
    settings.check(out_dir)
    attempts = settings.retries + 1
    spent = 0.0
    for attempt in range(1, attempts + 1):
        started = time.monotonic()
        try:
            counts = settings.attempt(out_dir, log)
        except InputError:
            raise
        except Exception as error:
            spent += time.monotonic() - started
            reason = _one_line(str(error) or type(error).__name__)
            if attempt == attempts:
                raise PublishError(f"{settings.target}: {reason} (after {attempt} attempt{'s' if attempt > 1 else ''})",
                                   target=settings.target, attempts=attempt) from error
            delay = settings.backoff * 2 ** (attempt - 1)
            log(f"publish to {settings.target} failed (attempt {attempt} of {attempts}): {reason}; "
                f"retrying in {delay:g} s")
            sleep(delay)
        else:
            spent += time.monotonic() - started
            return PublishReport(target=settings.target, attempts=attempt, duration=spent, **counts)
    raise AssertionError("unreachable")  # pragma: no cover


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


__all__ = ["SKIP_AT_ROOT", "TARGETS", "CommandSettings", "DirSettings", "GitSettings", "PublishError",
           "PublishReport", "PublishSettings", "RsyncSettings", "S3Settings", "publish", "settings_from_config",
           "site_files"]
