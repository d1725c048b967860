"""Build the static site: every page of every tournament in every language.

A build is atomic and incremental.  It writes a new build folder next to the output and
then swaps the output (a symbolic link) to it in one step, so a failed build (a full disk
included: :class:`BuildError`) leaves the previous site untouched.

A build only ever replaces or removes what a build made: every build folder holds the file
``BUILD_MARKER``, and an output that is not a build's (an existing folder with other files, or
a link to one; the current folder) is refused in one line before anything is written
(:func:`check_output`).  Builds of one site exclude each other (:func:`site_lock`, an
``flock`` on the output's folder that the system releases when a process dies), so the
clean-up of one never removes the folder another is writing; it keeps the folder the output
points to and the one before it, and removes what builds that were killed left behind.

A page whose inputs (its data, the templates, the language) are those of the previous build
is not rendered again: it is hard-linked from the previous build, so it keeps its
modification time.  A tournament given as ``Kept`` (``site_builder.sources``: its log has not
moved since the previous build) is not read at all: every file of it is linked from the
previous build, byte for byte.  A download that cannot be made (a tournament the TRF cannot
hold) is left out, and said so in ``BuildReport.skipped``, as is a tournament whose slug would
hide one of the site's own paths; the rest of the site is built.

What to build is planned in ``site_builder.plan``; ``site_builder.workers`` carries the tasks
out, in forked worker processes when the site is big.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import itertools
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ranking import InputError, Tournament, collection_paused
from site_builder import qr
from site_builder.environment import THEMES, template_digest
from site_builder.pages import TournamentPages
from site_builder.plan import Work, plan, slug_problem, without_downloads
from site_builder.publishers import BUILD_MARKER, site_files
from site_builder.settings import SiteSettings
from site_builder.sources import RECORD, Kept, PreviousBuildIncomplete, Record, Sources
from site_builder.workers import Done, downloads_ahead, put, run

MANIFEST = ".manifest.json"
RANKS_CACHE = ".ranks.json"  # places after each round, by a digest of the results up to it
QR_CACHE = ".qr.json"  # the QR codes of the printed round sheets, by their text
MARKER_TEXT = ("Made by Tiebreak's site builder (python -m site_builder build): a build replaces or removes "
               "only folders that hold this file.\n")


class BuildError(Exception):
    """The site could not be written (a full disk, a folder that cannot be written); ``str()``
    is one line.  The site online is the previous one, untouched, and nothing of the failed
    build is left."""


@dataclass
class BuildReport:
    output: Path
    pages: int = 0
    rendered: int = 0
    reused: int = 0
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)  # seconds: pages, render, finish, clean-up
    skipped: dict[str, str] = field(default_factory=dict)  # a file left out (e.g. a download) -> why
    kept: frozenset[str] = frozenset()  # the build folders the clean-up keeps (this one, the one before)
    built: tuple[str, ...] = ()  # the tournaments read and built (the others were linked as they were)
    unchanged: bool = False  # nothing new since the previous build: it stands, no build was made


def build_site(tournaments: Mapping[str, Tournament | Kept], settings: SiteSettings, clean_up: bool = True,
               sources: Sources | None = None) -> BuildReport:
    """Build the site for ``tournaments`` (slug -> Tournament, or ``Kept``: that tournament's
    pages as the previous build has them; in the store's order) into ``settings.out_dir``,
    then remove the older builds (:func:`remove_old_builds`; ``clean_up`` False leaves that to
    the caller, who holds the site lock: a publish, which puts the new site out first).  With
    ``sources`` (what the build read), the build keeps its record (``site_builder.sources``).

    The garbage collector waits meanwhile (and in the forked renderers): a build makes almost
    no reference cycles, and the collections its many small objects would trigger walk the
    whole tournament again and again (a third of the time of an incremental build)."""
    try:
        with site_lock(settings.out_dir), collection_paused():
            check_output(settings.out_dir)
            report = _build_site(tournaments, settings, sources)
            if clean_up:
                remove_old_builds(report)
                report.seconds += report.phases["clean-up"]
            return report
    except OSError as error:  # before the swap: the clean-up raises none
        raise BuildError(f"cannot write the site {settings.out_dir}: {_os_problem(error)} "
                         "(the site online is unchanged)") from None


def check_output(out: Path) -> None:
    """Refuse (``InputError``, one line) an output the build would replace but that no build
    made: the current folder or one that holds it, a file, or a folder (or a link to one) that
    is not empty and has no ``BUILD_MARKER``.  Missing, an empty folder, a dangling link and
    a build's own folder (or a link to it) are fine: replacing them loses nothing."""
    absolute = Path(os.path.abspath(out))
    try:
        here = Path.cwd()
    except OSError:  # the current folder was removed: nothing can hold it
        here = None
    if absolute.name in ("", ".", "..") or (here is not None and (absolute == here or absolute in here.parents)):
        raise InputError(f"the output folder {str(out)!r} is the current folder or holds it: a build replaces its "
                         "output with a link to the new site; give it a folder of its own, e.g. --out public")
    if out.is_symlink():
        target = Path(os.path.realpath(out))
        if not target.exists() or _made_by_a_build(target, absolute) or _empty_folder(target):
            return
        raise _foreign(out, f"a link to {target}, which")
    if not out.exists():
        return
    if not out.is_dir():
        raise InputError(f"the output {str(out)!r} is a file, not a folder: give the site a folder of its own "
                         "(--out, or [site].out_dir)")
    if not (_made_by_a_build(out, absolute) or _empty_folder(out)):
        raise _foreign(out, "a folder that")


def _foreign(out: Path, what: str) -> InputError:
    return InputError(f"the output {str(out)!r} is {what} the site builder did not make (it has files and no "
                      f"{BUILD_MARKER}): a build would replace it whole; give the site a folder of its own "
                      "(--out, or [site].out_dir), or empty that one")


def _made_by_a_build(folder: Path, out: Path) -> bool:
    """Whether ``folder`` is one a build made: it holds ``BUILD_MARKER``, or (a build of a
    version that wrote no marker) it is a complete build beside ``out``, named as builds are."""
    if (folder / BUILD_MARKER).is_file():
        return True
    beside = Path(os.path.realpath(folder)).parent == Path(os.path.realpath(out.parent))
    return (beside and (folder / MANIFEST).is_file()
            and re.fullmatch(rf"\.{re.escape(out.name)}\.build-[0-9]{{14}}-[0-9]+-[0-9]+", folder.name) is not None)


def _empty_folder(folder: Path) -> bool:
    try:
        with os.scandir(folder) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def _os_problem(error: OSError) -> str:
    """An OSError in words: a full disk said so, with the file it was writing."""
    where = f" (writing {error.filename})" if error.filename else ""
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk is full{where}: free some space and build again"
    if error.errno == errno.EFBIG:
        return f"a file is larger than this process may write (ulimit -f){where}"
    return f"{error.strerror or error}{where}"


def remove_old_builds(report: BuildReport) -> None:
    """Remove the build folders of ``report``'s site but the two it keeps and the one the site
    points to now, and what killed builds left; its time is the report's ``clean-up`` phase."""
    started = time.perf_counter()
    if not report.unchanged:  # else no build was made: the ones there stay
        with site_lock(report.output):
            _remove_old_builds(report.output, keep=set(report.kept))
    report.phases["clean-up"] = time.perf_counter() - started


_HELD: dict[Path, int] = {}  # the folders whose site lock this process holds, and how often
_HELD_GUARD = threading.Lock()


@contextmanager
def site_lock(out: Path) -> Iterator[None]:
    """Hold the lock of the site ``out`` (an exclusive ``flock`` on the folder it is in, waited
    for): builds, and a build and its publish, never overlap.  Re-entrant within a process; the
    system drops it when the process ends, however it ends."""
    folder = Path(os.path.abspath(out)).parent
    folder.mkdir(parents=True, exist_ok=True)
    with _HELD_GUARD:
        held = _HELD.get(folder)
        if held is not None:
            _HELD[folder] = held + 1
    if held is not None:
        try:
            yield
        finally:
            with _HELD_GUARD:
                _HELD[folder] -= 1
        return
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        with _HELD_GUARD:
            _HELD[folder] = 1
        try:
            yield
        finally:
            with _HELD_GUARD:
                del _HELD[folder]
    finally:
        os.close(descriptor)  # releases the lock


def _build_site(tournaments: Mapping[str, Tournament | Kept], settings: SiteSettings,
                sources: Sources | None) -> BuildReport:
    started = time.perf_counter()
    theme = THEMES / settings.theme
    out = settings.out_dir
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = out.resolve() if out.exists() else None
    ranks_cache = _read_json(previous / RANKS_CACHE) if previous else {}
    if previous:
        qr.CODES.update(_read_json(previous / QR_CACHE))
    report = BuildReport(out)
    kept = {slug: value for slug, value in tournaments.items() if isinstance(value, Kept)}
    for value in kept.values():
        report.skipped.update(value.skipped)
    for slug in tournaments:
        problem = slug_problem(slug)
        if problem is not None and slug not in kept:  # the import refuses such slugs now; a store may still hold one
            report.skipped[f"{slug}/"] = f"tournament left out of the site: {problem}"
    pages_by_slug = {slug: TournamentPages(slug, tournament, ranks_cache) for slug, tournament in tournaments.items()
                     if not isinstance(tournament, Kept) and f"{slug}/" not in report.skipped}
    report.built = tuple(pages_by_slug)
    build = out.parent / f".{out.name}.build-{time.strftime('%Y%m%d%H%M%S')}-{os.getpid()}-{time.time_ns() % 10**6}"
    held = _recycle(out, previous, build)
    if held is None:
        build.mkdir()
    manifest: dict[str, str] = {}
    try:
        (build / BUILD_MARKER).write_text(MARKER_TEXT, encoding="utf-8")  # first: a killed build's folder has it too
        work = Work(build, previous, read_manifest(previous), theme, template_digest(theme),
                    out.parent / f".{out.name}.templates", settings, pages_by_slug,
                    kept={slug: value for slug, value in kept.items() if value.summary is not None},
                    order=list(tournaments), held=held or {})
        if work.kept and previous is None:
            raise PreviousBuildIncomplete("there is no previous build to take tournaments from")
        early = downloads_ahead(work)  # made beside the planning and the pages, after one result
        try:
            tasks = plan(work, downloads=early is None)
            report.phases["pages"] = time.perf_counter() - started
            for done in itertools.chain(run(tasks, work), early.results() if early else ()):
                manifest.update(done.manifest)
                report.reused += done.reused
                report.files.extend(done.written)
                report.skipped.update(done.skipped)
        finally:
            if early:
                early.close()
        if report.skipped:  # the pages that link to a download left out, made again without the link
            again = without_downloads(work, report.skipped)
            paths = {work.pages[index].path for index in again}
            written = [path for path in report.files if path not in paths]
            report.reused -= len(paths) - (len(report.files) - len(written))
            report.files = written
            for path in paths:
                os.unlink(build / path)
            for done in run([("pages", again)], work):
                manifest.update(done.manifest)
                report.reused += done.reused
                report.files.extend(done.written)
        report.pages = len(manifest)
        report.rendered = report.pages - report.reused
        report.phases["render"] = time.perf_counter() - started - report.phases["pages"]
        static = Done()
        for source in sorted((theme / "static").rglob("*")):
            if source.is_file():
                relative = "static/" + source.relative_to(theme / "static").as_posix()
                (build / relative).parent.mkdir(parents=True, exist_ok=True)
                put(work, relative, hashlib.sha256(source.read_bytes()).hexdigest(), static,
                    lambda target, source=source: shutil.copyfile(source, target))
        manifest.update(static.manifest)
        report.files.extend(static.written)
        if held:
            _remove_the_rest(build, held, manifest)
        # written by json's C encoder (no indent, no check for cycles): thousands of entries at every build
        (build / MANIFEST).write_text(json.dumps(manifest, sort_keys=True, check_circular=False), encoding="utf-8")
        used = {key for pages in pages_by_slug.values() for key in pages.rank_keys}
        used |= {key for value in work.kept.values() for key in value.rank_keys}
        (build / RANKS_CACHE).write_text(json.dumps({key: ranks_cache[key] for key in used if key in ranks_cache},
                                                    check_circular=False), encoding="utf-8")
        codes = {text for texts in work.codes.values() for text in texts}
        codes |= {text for value in work.kept.values() for text in value.codes}
        (build / QR_CACHE).write_text(json.dumps({text: qr.CODES[text] for text in codes if text in qr.CODES}),
                                      encoding="utf-8")
        if sources is not None:
            (build / RECORD).write_text(_record(work, report, sources, kept).to_json(), encoding="utf-8")
        _swap(out, build)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    report.seconds = time.perf_counter() - started
    report.phases["finish"] = report.seconds - report.phases["pages"] - report.phases["render"]
    report.kept = frozenset({build.name, previous.name if previous else ""})
    return report


def _recycle(out: Path, previous: Path | None, build: Path) -> dict[str, str] | None:
    """Make the oldest complete build beside ``out`` but the current one (the one before it,
    which the clean-up would remove once this build is out) the folder of this build: renamed
    to ``build``, without its records; what it holds (path -> digest), or None when there is
    none.  A build then writes, links and removes only what changed since that build, instead
    of linking every file into a new folder and removing an old one whole.  Nothing in it is
    changed in place: a file that changed is removed and made anew (another folder, the
    published site, may hold a link to it)."""
    absolute = Path(os.path.abspath(out))
    candidates = sorted(folder for folder in out.parent.glob(f".{out.name}.build-*")
                        if folder.is_dir() and not folder.is_symlink() and folder != previous
                        and (folder / MANIFEST).is_file() and _made_by_a_build(folder, absolute))
    if not candidates:
        return None
    oldest = candidates[0]
    held = read_manifest(oldest)
    try:
        os.rename(oldest, build)
    except OSError:
        return None
    for record in (MANIFEST, RANKS_CACHE, QR_CACHE, RECORD):  # first: killed now, it is an incomplete build
        with contextlib.suppress(FileNotFoundError):
            os.unlink(build / record)
    present = set(site_files(build))  # a file gone from it since (removed by hand) is made again
    return {path: digest for path, digest in held.items() if path in present}


def _remove_the_rest(build: Path, held: dict[str, str], manifest: dict[str, str]) -> None:
    """Remove what a recycled build folder held and this build does not, and the folders that
    leaves empty."""
    folders = set()
    for path in held.keys() - manifest.keys():
        with contextlib.suppress(FileNotFoundError):
            os.unlink(build / path)
        folders.add(os.path.dirname(path))
    for folder in sorted(folders, key=lambda name: -name.count("/")):
        while folder:
            try:
                os.rmdir(build / folder)
            except OSError:  # not empty (or gone): its parents are not empty either
                break
            folder = os.path.dirname(folder)


def _record(work: Work, report: BuildReport, sources: Sources, kept: dict[str, Kept]) -> Record:
    """What this build read and what the next one needs to take each tournament from it."""
    entries = {}
    for slug in work.order:
        version = sources.versions.get(slug)
        skipped = {path: why for path, why in report.skipped.items() if path.startswith(f"{slug}/")}
        if slug in work.pages_by_slug:
            entries[slug] = Kept(version, work.summaries[slug], tuple(sorted(work.pages_by_slug[slug].rank_keys)),
                                 tuple(sorted(work.codes.get(slug, ()))), skipped)
        elif slug in kept:
            entries[slug] = kept[slug]
        else:  # left out of the site (read as unreadable or with a slug the site cannot have)
            entries[slug] = Kept(version, None, skipped=skipped)
    return Record(sources.inputs, entries)


def read_manifest(folder: Path | None) -> dict[str, str]:
    """The digest of each file of the build at ``folder`` (none: {})."""
    return _read_json(folder / MANIFEST) if folder is not None else {}


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _swap(out: Path, build: Path) -> None:
    """Point ``out`` at ``build`` in one step (a symbolic link replaced by rename).  An output
    that is a real folder (``check_output`` let it through: empty, or a build's own) is
    removed, or moved aside for the clean-up."""
    if out.is_dir() and not out.is_symlink():
        if _empty_folder(out):
            os.rmdir(out)
        else:  # a build's folder (it has the marker): the clean-up removes it
            out.rename(out.parent / f".{out.name}.build-moved-{time.time_ns()}")
    link = out.parent / f".{out.name}.link-{os.getpid()}"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(build.name, target_is_directory=True)
    os.replace(link, out)


def _remove_old_builds(out: Path, keep: set[str]) -> None:
    """Remove the build folders of ``out`` but ``keep`` and the one ``out`` points to now, and
    the links that killed builds left (called with the site lock held: no other build is
    writing one of them).  Only what a build made goes: a folder with ``BUILD_MARKER`` (an
    empty one, from a build killed before it wrote it) and a link to a build folder; anything
    else of the same name is left alone."""
    current = os.path.basename(os.readlink(out)) if out.is_symlink() else ""
    absolute = Path(os.path.abspath(out))
    for folder in out.parent.glob(f".{out.name}.build-*"):
        if folder.name in keep or folder.name == current or folder.is_symlink() or not folder.is_dir():
            continue
        if _made_by_a_build(folder, absolute):
            shutil.rmtree(folder, ignore_errors=True)
        elif _empty_folder(folder):
            with contextlib.suppress(OSError):
                os.rmdir(folder)
    for link in out.parent.glob(f".{out.name}.link-*"):
        if link.is_symlink() and os.readlink(link).startswith(f".{out.name}.build-"):
            link.unlink(missing_ok=True)
