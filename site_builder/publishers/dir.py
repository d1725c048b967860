"""``target = "dir"``: copy the site into a temporary sibling folder and swap it in (one
``renameat2`` exchange on Linux, else rename the old one away and the new one in), so the
destination is always one complete site."""

from __future__ import annotations

import ctypes
import errno
import filecmp
import os
import shutil
import sys
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ranking import InputError
from site_builder.publishers import (
    SKIP_AT_ROOT,
    SOURCE,
    AttemptFailed,
    Counts,
    Log,
    PublishSettings,
    copy_file,
    local_path,
    site_files,
)


@dataclass(frozen=True, kw_only=True)
class DirSettings(PublishSettings):
    """``target = "dir"``: ``path``, the folder the site is copied to."""

    target: ClassVar[str] = "dir"
    keys: ClassVar[tuple[str, ...]] = ("path",)
    required: ClassVar[str] = "path"

    path: Path

    @classmethod
    def from_table(cls, table: Mapping[str, Any], base: Path) -> DirSettings:
        return cls(path=local_path(table["path"], base), **cls.common(table))

    def check(self, out_dir: Path) -> None:
        destination = Path(self.path).resolve()
        if destination == out_dir or out_dir in destination.parents or destination in out_dir.parents:
            raise InputError(f"path = {str(destination)!r}: must be outside the site folder {out_dir}", source=SOURCE)

    def attempt(self, out_dir: Path, log: Log) -> Counts:
        destination = Path(self.path).absolute()
        parent = destination.parent
        parent.mkdir(parents=True, exist_ok=True)
        if destination.exists() and not destination.is_dir():
            raise AttemptFailed(f"{destination} exists and is not a folder")
        for leftover in parent.glob(f".{destination.name}.tiebreak-new-*"):  # from an attempt that died
            shutil.rmtree(leftover, ignore_errors=True)

        files = site_files(out_dir)
        old_files = set(site_files(destination)) if destination.is_dir() else set()
        changed = [name for name in files if name not in old_files
                   or not filecmp.cmp(out_dir / name, destination / name, shallow=False)]

        token = uuid.uuid4().hex[:12]
        new = parent / f".{destination.name}.tiebreak-new-{token}"
        try:
            shutil.copytree(out_dir, new, copy_function=copy_file, ignore=_skip_at_root(out_dir))
        except BaseException:
            shutil.rmtree(new, ignore_errors=True)
            raise
        old = parent / f".{destination.name}.tiebreak-old-{token}"
        if destination.is_dir() and not destination.is_symlink() and _exchange(new, destination):
            shutil.rmtree(new, ignore_errors=True)  # the old site, swapped out in one step
        elif destination.exists() or destination.is_symlink():
            os.rename(destination, old)
            try:
                os.rename(new, destination)
            except BaseException:
                os.rename(old, destination)
                shutil.rmtree(new, ignore_errors=True)
                raise
        else:
            os.rename(new, destination)
        for stale in parent.glob(f".{destination.name}.tiebreak-old-*"):
            if stale.is_symlink():
                stale.unlink()
            else:
                shutil.rmtree(stale, ignore_errors=True)
        return {"uploaded": len(changed), "deleted": len(old_files - set(files)),
                "unchanged": len(files) - len(changed), "detail": str(destination)}


def _skip_at_root(out_dir: Path) -> Callable[[str, list[str]], list[str]]:
    return lambda folder, names: [name for name in names if Path(folder) == out_dir and name in SKIP_AT_ROOT]


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange) == 0:
        return True
    error = ctypes.get_errno()
    if error in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EXDEV):  # old kernel or file system: rename instead
        return False
    raise OSError(error, os.strerror(error), str(second))
