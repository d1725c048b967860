"""config.toml: the parts the store and the command line read (docs/architecture.md#configtoml).

Paths in the file are relative to the file's own folder.  A missing default ``config.toml``
means the defaults; a missing file named on the command line is an error.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ranking.errors import InputError

DEFAULT_STORAGE = "data/tiebreak.sqlite3"


@dataclass(frozen=True)
class Config:
    path: Path | None
    storage: Path
    tournament_files: tuple[Path, ...] = ()
    raw: dict = field(default_factory=dict)  # every section, for the bot and the site


def load_config(path: str | Path | None = None) -> Config:
    """Read ``path`` (default ``./config.toml``, which may be absent)."""
    explicit = path is not None
    file = Path(path) if explicit else Path("config.toml")
    if not file.exists():
        if explicit:
            raise InputError("no such configuration file", source=str(file))
        return Config(None, Path(DEFAULT_STORAGE))
    try:
        raw = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read: {error}", source=str(file)) from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not valid TOML: {error}", source=str(file)) from None
    base = file.resolve().parent  # absolute: the same files from any working folder, and for the processes started
    storage = raw.get("storage", {}).get("path", DEFAULT_STORAGE)
    if not isinstance(storage, str) or not storage:
        raise InputError("[storage].path must be a file path such as data/tiebreak.sqlite3", source=str(file))
    entries = raw.get("tournaments", [])
    if not isinstance(entries, list) or not all(isinstance(entry, dict) and isinstance(entry.get("file"), str)
                                                for entry in entries):
        raise InputError('[[tournaments]] entries need file = "path/to/tournament.toml"', source=str(file))
    return Config(file, base / storage, tuple(base / entry["file"] for entry in entries), raw)
