"""The site from the configuration: the store's tournaments, built and published."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ranking import InputError, Tournament
from site_builder.build import BuildReport, build_site, remove_old_builds, site_lock
from site_builder.publishers import publish
from site_builder.publishers.config import settings_from_config
from site_builder.settings import SiteSettings
from tiebreak.config import load_config
from tiebreak.library import import_configured, open_store


def build_from_config(config_path: str | None, out_dir: Path | None = None, clean_up: bool = True) -> BuildReport:
    """Build the site of config.toml (``[site]``) from its store, after importing the tournaments
    it lists, into ``out_dir`` (default ``[site].out_dir``); ``clean_up`` as ``build_site``'s."""
    config = load_config(config_path)
    settings = SiteSettings.from_config(config, out_dir)
    tournaments: dict[str, Tournament] = {}
    unreadable: dict[str, str] = {}
    with open_store(config) as store:
        import_configured(store, config)
        for slug in store.slugs():
            try:
                tournaments[slug] = store.tournament(slug)
            except InputError as error:  # one tournament the store cannot replay: the others are built
                unreadable[f"{slug}/"] = f"tournament left out of the site: {error}"
    report = build_site(tournaments, settings, clean_up)
    report.skipped.update(unreadable)
    return report


def publish_from_config(config_path: str | None, built: Callable[[BuildReport], object] = lambda report: None) -> str:
    """Build the site of config.toml, then publish it to ``[publish].target``; one line saying what
    was done.  The site lock is held from the build to the end of the publish, so no other build
    replaces (and cleans away) the folder being published; the older builds are removed once
    the new site is out."""
    config = load_config(config_path)
    base = config.path.parent if config.path else Path(".")
    settings = settings_from_config(config.raw.get("publish", {}), base)
    with site_lock(SiteSettings.from_config(config).out_dir):
        report = build_from_config(config_path, clean_up=False)
        try:
            built(report)
            result = publish(report.output.resolve(), settings)
        finally:
            remove_old_builds(report)
    return (f"built {report.pages} files ({report.rendered} written) in {report.seconds:.2f} s; "
            f"published {report.output} to {settings.target}: {result}")
