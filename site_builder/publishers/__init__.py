"""Publish the built site: ``[publish].target`` is ``dir``, ``git``, ``rsync``, ``s3`` or ``command``,
one module each (``site_builder.publishers.dir``, ...), with its own settings read from
``[publish]`` (``site_builder.publishers.config``).  Here: what they share, the settings every
target takes, the files of a built site, and :func:`publish`, which retries.

Every target is idempotent and never leaves the destination half-updated in a way that a retry
cannot fix (each module says how).  A failed attempt is retried ``retries`` times, waiting
``backoff`` seconds and doubling; after the last one :class:`PublishError` (one line) is raised.
Problems found before anything is attempted (a bad ``[publish]`` table, a missing ``rsync``,
``git`` or ``boto3``) raise :class:`ranking.InputError`.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

from ranking import InputError

SOURCE = "[publish]"  # where InputError says the problem is
COMMON_KEYS = ("target", "retries", "backoff")
#: What the ``dir`` target keeps in the folder it publishes to (the digests it put there).
PUBLISHED = ".tiebreak-published.json"
#: What every folder the site builder makes holds at its root: a build replaces, and its clean-up
#: removes, only folders that have it (``site_builder.build``).
BUILD_MARKER = ".tiebreak-build"
#: Files at the root that are the builder's or a publisher's own bookkeeping, never published.
SKIP_AT_ROOT = frozenset({".manifest.json", ".ranks.json", ".qr.json", ".sources.json", PUBLISHED, BUILD_MARKER})

Log = Callable[[str], Any]
Counts = dict[str, Any]  # the PublishReport fields an attempt fills: uploaded, deleted, unchanged, detail


class PublishError(Exception):
    """Publishing failed after every attempt; ``str(error)`` is one line."""

    def __init__(self, message: str, *, target: str | None = None, attempts: int = 0) -> None:
        super().__init__(_one_line(message))
        self.target = target
        self.attempts = attempts


class AttemptFailed(RuntimeError):
    """One attempt failed (``publish`` tries again, up to ``retries`` times)."""


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


@dataclass(frozen=True, kw_only=True)
class PublishSettings:
    """``[publish]`` of config.toml: the keys every target takes.  Each target's settings extend
    it with their own keys and say how to check and make one attempt."""

    target: ClassVar[str]  # the value of ``target`` that selects these settings
    keys: ClassVar[tuple[str, ...]]  # the target's own keys: strings, but for ``list_keys``
    required: ClassVar[str]  # the key it cannot do without
    list_keys: ClassVar[tuple[str, ...]] = ()
    bool_keys: ClassVar[tuple[str, ...]] = ()  # true or false
    blank_keys: ClassVar[tuple[str, ...]] = ()  # strings that may be empty

    retries: int = 3  # attempts after the first one
    backoff: float = 2.0  # seconds before the first retry, doubling

    def __post_init__(self) -> None:
        if isinstance(self.retries, bool) or not isinstance(self.retries, int) or self.retries < 0:
            raise InputError(f"retries = {self.retries!r}: expected a whole number ≥ 0", source=SOURCE)
        if isinstance(self.backoff, bool) or not isinstance(self.backoff, int | float) or self.backoff < 0:
            raise InputError(f"backoff = {self.backoff!r}: expected a number of seconds ≥ 0", source=SOURCE)

    @classmethod
    def from_table(cls, table: Mapping[str, Any], base: Path) -> Self:
        """The settings of a ``[publish]`` table whose keys are known and whose strings are
        strings; relative local paths are taken from ``base`` (the folder of config.toml)."""
        raise NotImplementedError

    @classmethod
    def check_strings(cls, table: Mapping[str, Any]) -> None:
        """Every key of the target given as a string is a non-empty string (a ``bool_keys`` one
        true or false)."""
        for key in cls.keys:
            if key in cls.list_keys or key not in table:
                continue
            if key in cls.bool_keys:
                if not isinstance(table[key], bool):
                    raise InputError(f"{key} = {table[key]!r}: expected true or false", source=SOURCE)
                continue
            if not isinstance(table[key], str) or (key not in cls.blank_keys and not table[key].strip()):
                raise InputError(f"{key} = {table[key]!r}: expected a non-empty string", source=SOURCE)

    @staticmethod
    def common(table: Mapping[str, Any]) -> dict[str, Any]:
        """The keys of every target that ``table`` gives."""
        return {key: table[key] for key in ("retries", "backoff") if key in table}

    def check(self, out_dir: Path) -> None:
        """Raise InputError for a problem found before anything is attempted (a missing program)."""

    def attempt(self, out_dir: Path, log: Log) -> Counts:
        """Publish ``out_dir`` once; raise (AttemptFailed or any error) for ``publish`` to retry."""
        raise NotImplementedError


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


# -- what the targets share ---------------------------------------------------------------------


def site_files(out_dir: Path) -> list[str]:
    """The files of the site, as sorted ``/``-separated paths relative to ``out_dir``."""
    files: list[str] = []
    pending = [("", str(out_dir))]
    while pending:  # os.scandir: the entries' types come with the listing, no stat per file
        prefix, folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                relative = prefix + entry.name
                if entry.is_dir(follow_symlinks=False):
                    pending.append((relative + "/", entry.path))
                elif entry.is_file() and not (not prefix and entry.name in SKIP_AT_ROOT):
                    files.append(relative)
    return sorted(files)


def copy_file(source: str, destination: str) -> object:
    """One file copy (a seam for the tests, which inject failures here)."""
    return shutil.copy2(source, destination)


def is_remote_url(value: str) -> bool:
    """``scheme://...`` or scp-like ``[user@]host:path`` (a colon before any slash), as git and rsync read them."""
    return "://" in value or bool(re.match(r"[^/]*:", value))


def local_path(value: Any, base: Path) -> Path | None:
    if value is None:
        return None
    path = Path(os.path.expanduser(value))
    return path if path.is_absolute() else (base / path).resolve()


def last_line(*texts: str | None) -> str:
    """The last non-empty line of the first text that has one."""
    for text in texts:
        lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
        if lines:
            return lines[-1]
    return ""
