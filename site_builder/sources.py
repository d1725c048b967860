"""What a build read, kept in the build (``.sources.json``), so that the next build knows at once
what changed since: nothing (it stops there), some tournaments (it builds those and takes every
other tournament's pages from the previous build as they are), or what every page depends on
(it builds everything).

A build reads the tournaments' logs (each one's version: the id of its last event,
``Store.versions``) and its inputs: the ``[site]`` settings, the theme's files, Tiebreak's own
code and words, the tournament files config.toml lists and which store it is.  The inputs are
looked at by their file names, sizes and modification times (never read), so knowing costs a
few milliseconds.  The record also keeps, per tournament, what the next build needs to take its
pages as they are: its line on the root index, the cache entries of its places by round and QR
codes, and the downloads left out of it.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RECORD = ".sources.json"
#: Tiebreak's own packages: a change to their code or words may change any page
_CODE = tuple(Path(__file__).resolve().parent.parent / name for name in ("ranking", "tiebreak", "site_builder"))


class PreviousBuildIncomplete(Exception):
    """The previous build lacks a file of a tournament this build was to take from it (removed
    by hand): the build that meets this builds every tournament instead."""


@dataclass(frozen=True)
class Sources:
    """What a build reads, for its record: the ``inputs`` digest and each tournament's version."""

    inputs: str
    versions: dict[str, int | None]


@dataclass(frozen=True)
class Kept:
    """A tournament whose pages a build takes from the previous build as they are (its log has
    not moved since, or the build was asked for other tournaments only): what the previous
    build's record says of it."""

    version: int | None
    summary: dict[str, Any] | None  # its line on the root index (``TournamentPages.summary``); None: left out
    rank_keys: tuple[str, ...] = ()  # its entries in the cache of places by round
    codes: tuple[str, ...] = ()  # the texts of its QR codes
    skipped: dict[str, str] = field(default_factory=dict)  # its downloads left out, and why


@dataclass(frozen=True)
class Record:
    """What a build read: its ``inputs`` digest and each tournament as it built or kept it."""

    inputs: str
    tournaments: dict[str, Kept]

    def to_json(self) -> str:
        return json.dumps({"inputs": self.inputs, "tournaments": {
            slug: {"version": kept.version, "summary": kept.summary, "rank_keys": list(kept.rank_keys),
                   "codes": list(kept.codes), "skipped": kept.skipped}
            for slug, kept in self.tournaments.items()}}, default=_encode, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Record:
        data = json.loads(text, object_hook=_decode)
        return cls(str(data["inputs"]), {
            str(slug): Kept(entry["version"], entry["summary"], tuple(entry["rank_keys"]), tuple(entry["codes"]),
                            dict(entry["skipped"]))
            for slug, entry in data["tournaments"].items()})


def as_json(value: object) -> str:
    """``value`` (plain data, dates included) as JSON text, keys sorted: the same for equal values."""
    return json.dumps(value, default=_encode, ensure_ascii=False, sort_keys=True)


def read_record(build: Path) -> Record | None:
    """The record of the build at ``build`` (the site's output, a link to it), or None when it
    has none that can be read (an older build, a damaged file)."""
    try:
        return Record.from_json((build / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def inputs_digest(settings: object, theme: Path, store: Path, tournament_files: tuple[Path, ...]) -> str:
    """A digest of what a build reads besides the tournaments' logs: ``settings`` (their
    ``repr``), the files of ``theme``, Tiebreak's code and words, the store (its path and
    inode: another database at the same path is another store) and the tournament files
    config.toml lists (which the build imports when the store lacks them)."""
    digest = hashlib.sha256(repr((settings, sys.version, str(store), _inode(store))).encode())
    for folder in (theme, *_CODE):
        for path, status in _files(folder):
            digest.update(f"{path}|{status.st_size}|{status.st_mtime_ns}\n".encode())
    for path in tournament_files:
        try:
            status = os.stat(path)
            digest.update(f"{path}|{status.st_size}|{status.st_mtime_ns}\n".encode())
        except OSError:
            digest.update(f"{path}|missing\n".encode())
    return digest.hexdigest()


def _files(folder: Path) -> list[tuple[str, os.stat_result]]:
    """Every file under ``folder`` but compiled bytecode, with its status, in a stable order."""
    found = []
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(names):
            if not name.endswith((".pyc", ".mo")):
                path = os.path.join(top, name)
                found.append((path, os.stat(path)))
    return found


def _inode(path: Path) -> int:
    try:
        return os.stat(path).st_ino
    except OSError:
        return 0


def _encode(value: object) -> object:
    if isinstance(value, datetime.date):
        return {"__date__": value.isoformat()}
    raise TypeError(f"{type(value).__name__} is not kept in a build's record")


def _decode(entry: dict) -> object:
    if len(entry) == 1 and "__date__" in entry:
        return datetime.date.fromisoformat(entry["__date__"])
    return entry
