"""What every target shares: the keys of ``[publish]`` that every target takes, a failed attempt,
and the files of a built site."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

from ranking import InputError

SOURCE = "[publish]"  # where InputError says the problem is
COMMON_KEYS = ("target", "retries", "backoff")
#: Files of the build folder that are the builder's own bookkeeping, never published.
SKIP_AT_ROOT = frozenset({".manifest.json", ".ranks.json"})

Log = Callable[[str], Any]
Counts = dict[str, Any]  # the PublishReport fields an attempt fills: uploaded, deleted, unchanged, detail


class AttemptFailed(RuntimeError):
    """One attempt failed (``publish`` tries again, up to ``retries`` times)."""


@dataclass(frozen=True, kw_only=True)
class PublishSettings:
    """``[publish]`` of config.toml: the keys every target takes.  Each target's settings extend
    it with their own keys and say how to check and make one attempt."""

    target: ClassVar[str]  # the value of ``target`` that selects these settings
    keys: ClassVar[tuple[str, ...]]  # the target's own keys: strings, but for ``list_keys``
    required: ClassVar[str]  # the key it cannot do without
    list_keys: ClassVar[tuple[str, ...]] = ()
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
        """Every key of the target given as a string is a non-empty string."""
        for key in cls.keys:
            if key in cls.list_keys or key not in table:
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


def site_files(out_dir: Path) -> list[str]:
    """The files of the site, as sorted ``/``-separated paths relative to ``out_dir``."""
    files = []
    for folder, _dirs, names in os.walk(out_dir):
        for name in names:
            relative = (Path(folder) / name).relative_to(out_dir).as_posix()
            if relative not in SKIP_AT_ROOT and (Path(folder) / name).is_file():
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
