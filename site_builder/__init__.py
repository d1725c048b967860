"""The static standings site of Tiebreak: the standings the core computes, rendered with a theme's
Jinja2 templates (``themes/``) into every page of every tournament in every language, built
atomically and incrementally, and published to a folder, a git branch, rsync, S3 or a command.

The public API is importable from here::

    from site_builder import SiteSettings, build_site
    report = build_site({"open": tournament}, SiteSettings(out_dir=Path("public")))

or, from config.toml (``[site]``, ``[publish]``, the store), as ``python -m site_builder`` does::

    from site_builder import build_from_config, publish_from_config

Names are resolved when first used (PEP 562): ``import site_builder.publishers`` does not load
Jinja2 or the pages, and this package imports none of its modules itself.

The modules, one job each: ``settings`` (``[site]``), ``environment`` (the Jinja2 environment:
autoescape, the site's words, the ``number`` filter), ``pages`` (what each page shows),
``places`` (the places by round, and the round the players' pages show), ``marks`` (how a game,
a bye and a score are written), ``chart`` (the rank-by-round chart), ``downloads`` (the JSON, CSV
and TRF files), ``plan`` (the pages and tasks of a build), ``workers`` (carrying the tasks out, forked when the
site is big), ``build`` (the atomic, incremental build), ``publishers`` (one module per target),
``site`` (build and publish from config.toml), ``cli`` (``python -m site_builder``), ``serve``
(``python -m site_builder serve``: the bot's warm site process, a forked child per build).
"""

# ruff: noqa: F401  (the imports under TYPE_CHECKING are the re-exports type checkers see)

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    # building
    "build_site": "site_builder.build", "BuildReport": "site_builder.build", "BuildError": "site_builder.build",
    "SiteSettings": "site_builder.settings", "TournamentPages": "site_builder.pages",
    "site_environment": "site_builder.environment", "SITE_CATALOGUE": "site_builder.environment",
    "THEMES": "site_builder.environment",
    # publishing
    "publish": "site_builder.publishers", "PublishError": "site_builder.publishers",
    "PublishReport": "site_builder.publishers", "PublishSettings": "site_builder.publishers",
    "settings_from_config": "site_builder.publishers.config", "TARGETS": "site_builder.publishers.config",
    "DirSettings": "site_builder.publishers.dir", "GitSettings": "site_builder.publishers.git",
    "RsyncSettings": "site_builder.publishers.rsync", "S3Settings": "site_builder.publishers.s3",
    "CommandSettings": "site_builder.publishers.command",
    # from config.toml
    "build_from_config": "site_builder.site", "publish_from_config": "site_builder.site",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` the first time it is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'site_builder' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:  # what type checkers and editors see; nothing of it runs
    from site_builder.build import BuildError, BuildReport, build_site
    from site_builder.environment import SITE_CATALOGUE, THEMES, site_environment
    from site_builder.pages import TournamentPages
    from site_builder.publishers import PublishError, PublishReport, PublishSettings, publish
    from site_builder.publishers.command import CommandSettings
    from site_builder.publishers.config import TARGETS, settings_from_config
    from site_builder.publishers.dir import DirSettings
    from site_builder.publishers.git import GitSettings
    from site_builder.publishers.rsync import RsyncSettings
    from site_builder.publishers.s3 import S3Settings
    from site_builder.settings import SiteSettings
    from site_builder.site import build_from_config, publish_from_config
