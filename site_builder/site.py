"""The site from the configuration: the store's tournaments, built and published.

A build from config.toml builds only what changed since the previous build
(``site_builder.sources``): the tournaments whose log moved (or those ``only`` names), taking
every other tournament's pages from the previous build as they are; it stops as soon as it
knows that nothing did; and it builds everything (importing the tournament files config.toml
lists that the store lacks) when what every page depends on changed, or there is no previous
build to take from.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from pathlib import Path

from ranking import InputError, Tournament
from site_builder.build import BuildReport, build_site, read_manifest, remove_old_builds, site_lock
from site_builder.environment import THEMES
from site_builder.publishers import publish
from site_builder.publishers.config import settings_from_config
from site_builder.settings import SiteSettings
from site_builder.sources import Kept, PreviousBuildIncomplete, Record, Sources, inputs_digest, read_record
from tiebreak.config import Config, load_config
from tiebreak.library import import_configured, open_store


def build_from_config(config_path: str | None, out_dir: Path | None = None, clean_up: bool = True,
                      only: Collection[str] = ()) -> BuildReport:
    """Build the site of config.toml (``[site]``) from its store into ``out_dir`` (default
    ``[site].out_dir``): the tournaments whose log moved since the previous build, or, with
    ``only``, those of them ``only`` names (every other tournament as the previous build has
    it); nothing when nothing moved (the report says ``unchanged``).  ``clean_up`` as
    ``build_site``'s.  InputError when ``only`` names a tournament the store does not have."""
    started = time.perf_counter()
    config = load_config(config_path)
    settings = SiteSettings.from_config(config, out_dir)
    inputs = inputs_digest(settings, THEMES / settings.theme, config.storage, config.tournament_files)
    with site_lock(settings.out_dir):
        previous = read_record(settings.out_dir) if settings.out_dir.exists() else None
        if previous is not None and previous.inputs != inputs:
            previous = None  # what every page depends on changed: everything is built
        tournaments, versions = _read(config, previous, only)
        if tournaments is None:
            return _unchanged(settings.out_dir, previous, time.perf_counter() - started)
        try:
            return build_site(tournaments, settings, clean_up, Sources(inputs, versions))
        except PreviousBuildIncomplete:  # a file of a tournament to keep was removed: build them all
            tournaments, versions = _read(config, None, ())
            return build_site(tournaments, settings, clean_up, Sources(inputs, versions))


def _read(config: Config, previous: Record | None,
          only: Collection[str]) -> tuple[dict[str, Tournament | Kept] | None, dict[str, int]]:
    """The tournaments to build, read from the store, and those to keep as ``previous`` has
    them, in the store's order (None when nothing changed since ``previous``); and every
    tournament's version.  Without ``previous``, the tournament files config.toml lists are
    imported first when the store lacks them."""
    with open_store(config) as store:
        if previous is None:
            import_configured(store, config)
        for slug in only:
            store.tournament_key(slug)  # "no tournament 'x' in the store (tournaments: ...)"
        versions = store.versions()
        wanted = _wanted(versions, previous, set(only))
        if wanted is None:
            return None, versions
        tournaments: dict[str, Tournament | Kept] = {}
        for slug, value in wanted.items():
            try:
                tournaments[slug] = store.tournament(slug) if value is None else value
            except InputError as error:  # one tournament the store cannot replay: the others are built
                tournaments[slug] = Kept(versions[slug], None,
                                         skipped={f"{slug}/": f"tournament left out of the site: {error}"})
        return tournaments, versions


def _wanted(versions: dict[str, int], previous: Record | None,
            only: set[str]) -> dict[str, Kept | None] | None:
    """Each tournament to show, in the store's order: None to read and build it, or what the
    previous build keeps of it; None when nothing changed since that build."""
    if previous is None:
        return dict.fromkeys(versions)
    wanted: dict[str, Kept | None] = {}
    changed = bool(set(previous.tournaments) - set(versions))  # archived since: left out now
    for slug, version in versions.items():
        old = previous.tournaments.get(slug)
        if old is None or (old.version != version and (not only or slug in only)):
            wanted[slug] = None
            changed = True
        else:
            wanted[slug] = old
    return wanted if changed else None


def _unchanged(out: Path, previous: Record, seconds: float) -> BuildReport:
    """The report of a build that found nothing new: the previous build stands as it is."""
    files = sum(1 for path in read_manifest(out.resolve()) if not path.startswith("static/"))  # as a build counts
    report = BuildReport(out, pages=files, reused=files, seconds=seconds, unchanged=True)
    for kept in previous.tournaments.values():
        report.skipped.update(kept.skipped)
    return report


def publish_from_config(config_path: str | None, built: Callable[[BuildReport], object] = lambda report: None,
                        only: Collection[str] = ()) -> str:
    """Build the site of config.toml (``only`` as ``build_from_config``'s), then publish it to
    ``[publish].target``; one line saying what was done.  The site lock is held from the build
    to the end of the publish, so no other build replaces (and cleans away) the folder being
    published; the older builds are removed once the new site is out.  A build that found
    nothing new publishes the site as it is (a publish that failed before is made now; one
    that was made changes nothing)."""
    config = load_config(config_path)
    base = config.path.parent if config.path else Path(".")
    settings = settings_from_config(config.raw.get("publish", {}), base)
    with site_lock(SiteSettings.from_config(config).out_dir):
        report = build_from_config(config_path, clean_up=False, only=only)
        try:
            built(report)
            result = publish(report.output.resolve(), settings)
        finally:
            remove_old_builds(report)
    return (f"built {report.pages} files ({report.rendered} written) in {report.seconds:.2f} s; "
            f"published {report.output} to {settings.target}: {result}")
