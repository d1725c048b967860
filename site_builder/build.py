"""Build the static site: every page of every tournament in every language.

A build is atomic and incremental.  It writes a new build folder next to the output and
then swaps the output (a symbolic link) to it in one step, so a failed build leaves the
previous site untouched.  A page whose inputs (its data, the templates, the language) are
those of the previous build is not rendered again: it is hard-linked from the previous
build, so it keeps its modification time.

What to build is planned in ``site_builder.plan``; ``site_builder.workers`` carries the tasks
out, in forked worker processes when the site is big.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from ranking import Tournament, collection_paused
from site_builder.environment import THEMES
from site_builder.pages import TournamentPages
from site_builder.plan import Work, plan
from site_builder.settings import SiteSettings
from site_builder.workers import Done, put, run

MANIFEST = ".manifest.json"
RANKS_CACHE = ".ranks.json"  # places after each round, by a digest of the results up to it


@dataclass
class BuildReport:
    output: Path
    pages: int = 0
    rendered: int = 0
    reused: int = 0
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)  # seconds: pages, render, finish, clean-up


def build_site(tournaments: dict[str, Tournament], settings: SiteSettings) -> BuildReport:
    """Build the site for ``tournaments`` (slug -> Tournament) into ``settings.out_dir``.

    The garbage collector waits meanwhile (and in the forked renderers): a build makes almost
    no reference cycles, and the collections its many small objects would trigger walk the
    whole tournament again and again (a third of the time of an incremental build)."""
    with collection_paused():
        return _build_site(tournaments, settings)


def _build_site(tournaments: dict[str, Tournament], settings: SiteSettings) -> BuildReport:
    started = time.perf_counter()
    theme = THEMES / settings.theme
    out = settings.out_dir
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = out.resolve() if out.exists() else None
    ranks_cache = _read_json(previous / RANKS_CACHE) if previous else {}
    pages_by_slug = {slug: TournamentPages(slug, tournament, ranks_cache)
                     for slug, tournament in tournaments.items()}
    build = out.parent / f".{out.name}.build-{time.strftime('%Y%m%d%H%M%S')}-{os.getpid()}-{time.time_ns() % 10**6}"
    build.mkdir()
    work = Work(build, previous, _read_manifest(previous), theme, _digest_folder(theme / "templates"),
                out.parent / f".{out.name}.templates", settings, pages_by_slug)
    report = BuildReport(out)
    manifest: dict[str, str] = {}
    try:
        tasks = plan(work)
        report.phases["pages"] = time.perf_counter() - started
        for done in run(tasks, work):
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
        (build / MANIFEST).write_text(json.dumps(manifest, indent=0, sort_keys=True), encoding="utf-8")
        used = {key for pages in pages_by_slug.values() for key in pages.rank_keys}
        (build / RANKS_CACHE).write_text(json.dumps({key: ranks_cache[key] for key in used}), encoding="utf-8")
        _swap(out, build)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    swapped = time.perf_counter()
    report.phases["finish"] = swapped - started - report.phases["pages"] - report.phases["render"]
    _remove_old_builds(out, keep={build.name, previous.name if previous else ""})
    report.seconds = time.perf_counter() - started
    report.phases["clean-up"] = report.seconds - (swapped - started)
    return report


def _digest_folder(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _read_manifest(folder: Path | None) -> dict[str, str]:
    return _read_json(folder / MANIFEST) if folder is not None else {}


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _swap(out: Path, build: Path) -> None:
    """Point ``out`` at ``build`` in one step (a symbolic link replaced by rename)."""
    if out.exists() and not out.is_symlink():  # a real folder from elsewhere: move it aside once
        out.rename(out.parent / f".{out.name}.build-original-{time.time_ns()}")
    link = out.parent / f".{out.name}.link-{os.getpid()}"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(build.name, target_is_directory=True)
    os.replace(link, out)


def _remove_old_builds(out: Path, keep: set[str]) -> None:
    for folder in out.parent.glob(f".{out.name}.build-*"):
        if folder.name not in keep:
            shutil.rmtree(folder, ignore_errors=True)
