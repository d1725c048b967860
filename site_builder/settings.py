"""``[site]`` of config.toml: where the site goes, its address, theme and languages."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ranking import InputError
from site_builder.environment import THEMES
from tiebreak.config import Config
from tiebreak.i18n import SUPPORTED

_BOT_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{3,31}")


@dataclass(frozen=True)
class SiteSettings:
    """``[site]`` of config.toml (and ``[bot].username``, for the bot's deep link)."""

    out_dir: Path
    base_url: str = "/"
    theme: str = "default"
    languages: tuple[str, ...] = ("en",)
    bot_username: str = ""  # [bot].username: the printed round sheets carry the bot's deep link

    @classmethod
    def from_config(cls, config: Config, out_dir: Path | None = None) -> SiteSettings:
        section = config.raw.get("site", {})
        base = config.path.parent if config.path else Path(".")
        languages = tuple(section.get("languages", ["en", "zh", "vi", "es"]))
        unknown = [code for code in languages if code not in SUPPORTED]
        if unknown or not languages:
            raise InputError(f"[site].languages {list(languages)}: expected some of {', '.join(SUPPORTED)}",
                             source=str(config.path))
        theme = str(section.get("theme", "default"))
        if not (THEMES / theme / "templates").is_dir():
            raise InputError(f"[site].theme {theme!r}: no folder themes/{theme}/templates", source=str(config.path))
        out = out_dir if out_dir is not None else base / str(section.get("out_dir", "public"))
        bot = str(config.raw.get("bot", {}).get("username", "")).lstrip("@")
        if bot and not _BOT_NAME.fullmatch(bot):
            raise InputError(f"[bot].username {bot!r}: expected the bot's Telegram username (letters, digits, _)",
                             source=str(config.path))
        return cls(Path(out), str(section.get("base_url", "/")), theme, languages, bot)
