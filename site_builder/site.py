"""The site from the configuration: the store's tournaments, built and published."""

from __future__ import annotations

from pathlib import Path

from site_builder.build import BuildReport, build_site
from site_builder.publishers import publish
from site_builder.publishers.config import settings_from_config
from site_builder.settings import SiteSettings
from tiebreak.config import load_config
from tiebreak.library import import_configured, open_store


def build_from_config(config_path: str | None, out_dir: Path | None = None) -> BuildReport:
    """Build the site of config.toml (``[site]``) from its store, after importing the tournaments
    it lists, into ``out_dir`` (default ``[site].out_dir``)."""
    config = load_config(config_path)
    settings = SiteSettings.from_config(config, out_dir)
    with open_store(config) as store:
        import_configured(store, config)
        tournaments = {slug: store.tournament(slug) for slug in store.slugs()}
    return build_site(tournaments, settings)


def publish_from_config(config_path: str | None) -> str:
    """Build the site of config.toml, then publish it to ``[publish].target``; one line saying what
    was done."""
    config = load_config(config_path)
    report = build_from_config(config_path)
    base = config.path.parent if config.path else Path(".")
    settings = settings_from_config(config.raw.get("publish", {}), base)
    result = publish(report.output.resolve(), settings)
    return f"published {report.output} to {settings.target}: {result}"
