"""``target = "dir"``: make the site in a temporary sibling folder and swap it in (one
``renameat2`` exchange on Linux, else rename the old one away and the new one in), so the
destination is always one complete site.

A publish costs what changed.  The digests come from the build (its ``.manifest.json``; a
folder without one is read and hashed), and what the destination holds is kept beside it
(``.tiebreak-published.json`` in it, swapped in with the site: each file's digest, size,
modification time and inode).
Nothing changed: nothing is done.  Otherwise a file the destination already has, untouched since,
is hard-linked from it; a new or changed file is hard-linked from the build when the build is
Tiebreak's own (the builder writes every file once and never changes it) on the same file
system, and copied otherwise.  The folder the site is made in is the one the publish before
swapped out (kept beside the destination, ``.<name>.tiebreak-spare``, with its record), brought
up to date: what it holds untouched and unchanged stays, the rest is removed and linked or
copied anew (never changed in place), so a publish costs what changed since rather than a link
per file and a whole folder removed.  When the build is Tiebreak's own on the same file system
and its digests differ from the record's, the destination is not looked at file by file: every
file that folder does not hold untouched is linked from the build, so the destination's own
state (a file edited there by hand included) does not matter, as it is swapped out whole.

The publisher replaces the folder whole, so it publishes only to a folder it made (one with
``.tiebreak-published.json``), a missing or empty one, or, with ``replace_existing = true``, a
folder of other files that may go: any other folder is refused in one line before anything is
done, and left as it was."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import os
import secrets
import shutil
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ranking import InputError
from site_builder.publishers import (
    PUBLISHED,
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
    """``target = "dir"``: ``path``, the folder the site is copied to; ``replace_existing``: that
    folder may be one the publisher did not make, whose files the site replaces."""

    target: ClassVar[str] = "dir"
    keys: ClassVar[tuple[str, ...]] = ("path", "replace_existing")
    bool_keys: ClassVar[tuple[str, ...]] = ("replace_existing",)
    required: ClassVar[str] = "path"

    path: Path
    replace_existing: bool = False

    @classmethod
    def from_table(cls, table: Mapping[str, Any], base: Path) -> DirSettings:
        return cls(path=local_path(table["path"], base), replace_existing=table.get("replace_existing", False),
                   **cls.common(table))

    def check(self, out_dir: Path) -> None:
        destination = Path(self.path).resolve()
        if destination == out_dir or out_dir in destination.parents or destination in out_dir.parents:
            raise InputError(f"path = {str(destination)!r}: must be outside the site folder {out_dir}", source=SOURCE)
        foreign = None if self.replace_existing else _not_made_here(Path(self.path).absolute())
        if foreign is not None:
            raise InputError(f"path = {str(self.path)!r} {foreign}, and a publish replaces the folder whole: publish "
                             "to a folder of its own, or set replace_existing = true in [publish] to let the site "
                             "replace its files", source=SOURCE)

    def attempt(self, out_dir: Path, log: Log) -> Counts:
        destination = Path(self.path).absolute()
        parent = destination.parent
        parent.mkdir(parents=True, exist_ok=True)
        if destination.exists() and not destination.is_dir():
            raise AttemptFailed(f"{destination} exists and is not a folder")
        for leftover in parent.glob(f".{destination.name}.tiebreak-new-*"):  # from an attempt that died
            shutil.rmtree(leftover, ignore_errors=True)

        files = site_files(out_dir)
        digests, own_build = _digests(out_dir, files)
        record = _published(destination) if destination.is_dir() and not destination.is_symlink() else {}
        link_from_build = own_build and os.stat(out_dir).st_dev == os.stat(parent).st_dev
        spare = parent / f".{destination.name}.tiebreak-spare"
        # what the build's digests say changed since the record
        changed = [name for name in files if record.get(name, ("",))[0] != digests[name]] if record else []
        if link_from_build and record and _has_record(spare) and (changed or len(record) != len(files)):
            # Something changed, and the site is made from the spare with every other file
            # linked from the build: what the destination holds now is not read (it is swapped
            # out whole).
            kept: set[str] = set()
        else:
            with _folder(destination if record else None) as folder:
                kept = {name for name in files if _still_there(folder, name, digests[name], record)}
            changed = [name for name in files if name not in kept]
        old_files = set(record) if record else (set(site_files(destination)) if destination.is_dir() else set())
        deleted = len(old_files - set(files))
        if not changed and not deleted and record and set(record) == set(files):
            return {"uploaded": 0, "deleted": 0, "unchanged": len(files), "detail": f"{destination}: no change"}

        token = secrets.token_hex(6)
        new = parent / f".{destination.name}.tiebreak-new-{token}"
        held = _take_spare(spare, new)
        try:
            entries = {name: record[name] for name in kept}
            if held is None:
                _fill(new, out_dir, destination, files, kept, link_from_build)
            else:
                entries |= _refill(new, held, out_dir, destination, files, digests, kept, link_from_build)
            _record(new, files, digests, entries)
        except BaseException:
            shutil.rmtree(new, ignore_errors=True)
            raise
        old = parent / f".{destination.name}.tiebreak-old-{token}"
        if destination.is_dir() and not destination.is_symlink() and _exchange(new, destination):
            _keep_spare(new, spare)  # the old site, swapped out in one step: the next publish's folder
        elif destination.exists() or destination.is_symlink():
            os.rename(destination, old)
            try:
                os.rename(new, destination)
            except BaseException:
                os.rename(old, destination)
                shutil.rmtree(new, ignore_errors=True)
                raise
            _keep_spare(old, spare)
        else:
            os.rename(new, destination)
        for stale in parent.glob(f".{destination.name}.tiebreak-old-*"):
            if stale.is_symlink():
                stale.unlink()
            else:
                shutil.rmtree(stale, ignore_errors=True)
        return {"uploaded": len(changed), "deleted": deleted, "unchanged": len(files) - len(changed),
                "detail": str(destination)}


def _not_made_here(destination: Path) -> str | None:
    """Why ``destination`` is not a folder the publisher may replace without being told
    (``replace_existing``), or None: missing, empty, or holding the record of a publish."""
    if destination.is_symlink():
        return None if not destination.exists() else "is a link the dir publisher did not make"
    if not destination.exists():
        return None
    if not destination.is_dir():
        return "is a file, not a folder"
    if (destination / PUBLISHED).is_file():
        return None
    with os.scandir(destination) as entries:
        if next(entries, None) is None:
            return None
    return f"holds files the dir publisher did not put there (it has no {PUBLISHED})"


def _digests(out_dir: Path, files: list[str]) -> tuple[dict[str, str], bool]:
    """Each file's digest: the build's own (its manifest), else read and hashed; and whether
    the folder is a Tiebreak build whose manifest names every file."""
    try:
        manifest = json.loads((out_dir / ".manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    own = bool(files) and all(name in manifest for name in files)
    digests = {}
    for name in files:
        digest = manifest.get(name) if own else None
        if digest is None:
            digest = hashlib.sha256((out_dir / name).read_bytes()).hexdigest()
        digests[name] = digest
    return digests, own


def _has_record(folder: Path) -> bool:
    """Whether ``folder`` is a real folder with the record of a publish (a spare to make the site in)."""
    return not folder.is_symlink() and (folder / PUBLISHED).is_file()


def _published(destination: Path) -> dict[str, list]:
    """What the last publish put in ``destination``: file -> [digest, size, mtime_ns, inode]."""
    try:
        return json.loads((destination / PUBLISHED).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}


@contextlib.contextmanager
def _folder(path: Path | None) -> Iterator[int | None]:
    """A descriptor of the folder ``path`` (None for None), closed afterwards: thousands of files
    are looked at in it by their relative names, without joining a path for each."""
    if path is None:
        yield None
        return
    descriptor = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        yield descriptor
    finally:
        os.close(descriptor)


def _still_there(folder: int | None, name: str, digest: str, record: dict[str, list]) -> bool:
    """Whether the folder open as ``folder`` (:func:`_folder`) still holds ``name`` as the last
    publish left it (its record, ``record``), with ``digest``: the same size, modification time
    and inode, so a file edited or replaced by hand since is not kept."""
    known = record.get(name)
    if not known or known[0] != digest or folder is None:
        return False
    try:
        status = os.stat(name, dir_fd=folder)
    except OSError:
        return False
    return [status.st_size, status.st_mtime_ns, status.st_ino] == known[1:]


def _fill(new: Path, out_dir: Path, destination: Path, files: list[str], kept: set[str],
          link_from_build: bool) -> None:
    """Make the site in ``new``: files ``kept`` linked from ``destination``, the others linked
    from the build (``link_from_build``) or copied."""
    made: set[str] = set()
    join = os.path.join  # string paths: thousands of files per publish
    for name in files:
        folder = os.path.dirname(name)
        if folder not in made:
            os.makedirs(join(new, folder), exist_ok=True)
            made.add(folder)
        if name in kept:
            os.link(join(destination, name), join(new, name))
        elif link_from_build:
            os.link(join(out_dir, name), join(new, name))
        else:
            copy_file(join(out_dir, name), join(new, name))


def _take_spare(spare: Path, new: Path) -> dict[str, list] | None:
    """The folder a publish before swapped out, renamed ``new`` to make this site in: what it
    holds (its record), or None when there is none (then ``new`` does not exist)."""
    if spare.is_symlink() or not spare.is_dir():
        return None
    held = _published(spare)
    if not held:
        shutil.rmtree(spare, ignore_errors=True)
        return None
    os.rename(spare, new)
    os.unlink(new / PUBLISHED)  # first: killed now, ``new`` is a leftover the next publish removes
    return held


def _keep_spare(old_site: Path, spare: Path) -> None:
    """Keep the site just swapped out as the next publish's folder, when its record says what
    it holds; else remove it."""
    if old_site.is_symlink() or not (old_site / PUBLISHED).is_file():
        if old_site.is_symlink():
            old_site.unlink()
        else:
            shutil.rmtree(old_site, ignore_errors=True)
        return
    shutil.rmtree(spare, ignore_errors=True)  # none is there: a publish takes it
    os.rename(old_site, spare)


def _refill(new: Path, held: dict[str, list], out_dir: Path, destination: Path, files: list[str],
            digests: dict[str, str], kept: set[str], link_from_build: bool) -> dict[str, list]:
    """Bring ``new`` (a site published before, ``held`` its record) up to ``files``: a file it
    holds untouched with the same digest stays, the others are removed and linked or copied
    as ``_fill`` would make them, files it holds that the site no longer has are removed with
    the folders they leave empty.  The record entries of the files that stayed."""
    join = os.path.join
    stayed = {}
    wanted = set(files)
    emptied = set()
    for name in held.keys() - wanted:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(join(new, name))
        emptied.add(os.path.dirname(name))
    made: set[str] = set()
    with _folder(new) as descriptor:
        stays = {name for name in files if _still_there(descriptor, name, digests[name], held)}
    for name in files:
        folder = os.path.dirname(name)
        if folder not in made:
            os.makedirs(join(new, folder), exist_ok=True)
            made.add(folder)
        if name in stays:
            stayed[name] = held[name]
            continue
        target = join(new, name)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(target)
        if name in kept:
            os.link(join(destination, name), target)
        elif link_from_build:
            os.link(join(out_dir, name), target)
        else:
            copy_file(join(out_dir, name), target)
    for folder in sorted(emptied - made, key=lambda name: -name.count("/")):
        while folder and folder not in made:
            try:
                os.rmdir(join(new, folder))
            except OSError:  # not empty: its parents are not either
                break
            folder = os.path.dirname(folder)
    return stayed


def _record(folder: Path, files: list[str], digests: dict[str, str], kept: dict[str, list]) -> None:
    """Keep what ``folder`` holds in it (``PUBLISHED``), for the next publish.  A file ``kept``
    is a link to the one the last record names, just found unchanged: its entry is that one
    (a link has the same size, modification time and inode); the others are looked at."""
    entries = {}
    for name in files:
        entry = kept.get(name)
        if entry is None:
            status = os.stat(os.path.join(folder, name))
            entry = [digests[name], status.st_size, status.st_mtime_ns, status.st_ino]
        entries[name] = entry
    (folder / PUBLISHED).write_text(json.dumps({"files": entries}, check_circular=False), encoding="utf-8")


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
