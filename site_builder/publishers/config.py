"""``[publish]`` of config.toml: which target, and that target's settings."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ranking import InputError
from site_builder.publishers import COMMON_KEYS, SOURCE, PublishSettings

#: target -> the name of its settings in its module (``site_builder.publishers.<target>``), in
#: the order the error messages list them; a publish loads only its target's module (start-up time)
_SETTINGS = {"dir": "DirSettings", "git": "GitSettings", "rsync": "RsyncSettings", "s3": "S3Settings",
             "command": "CommandSettings"}
_SECRET_WORDS = ("secret", "access_key", "password", "token", "credential")


def target_settings(target: str) -> type[PublishSettings]:
    """The settings of ``target`` (one of the ``TARGETS``), its publisher's module loaded now."""
    return getattr(importlib.import_module(f"site_builder.publishers.{target}"), _SETTINGS[target])


def __getattr__(name: str) -> Any:
    """``TARGETS``: target -> its settings, in the order the error messages list them (every
    publisher's module loaded)."""
    if name == "TARGETS":
        targets = globals()["TARGETS"] = {target: target_settings(target) for target in _SETTINGS}
        return targets
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def settings_from_config(table: Mapping[str, Any], base: Path) -> PublishSettings:
    """The settings of ``[publish]`` (a table of config.toml) for its ``target``; relative local
    paths are taken from ``base`` (the folder of config.toml).

    Keys of the other targets are allowed (to switch ``target`` back and forth) but unknown keys are
    not, and neither are credentials, which come from the environment only.
    """
    if not isinstance(table, Mapping):
        raise InputError("expected a table", source=SOURCE)
    target = table.get("target")
    chosen = target_settings(target) if isinstance(target, str) and target in _SETTINGS else None
    known = {*COMMON_KEYS, *(chosen.keys if chosen else ())}
    for key in table:
        if any(word in str(key).lower() for word in _SECRET_WORDS):
            raise InputError(f"{key}: credentials are never read from config.toml; set AWS_ACCESS_KEY_ID, "
                             "AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) in the environment", source=SOURCE)
        if key not in known:  # another target's key, or none: every target's keys are looked at
            known.update(*(target_settings(other).keys for other in _SETTINGS))
        if key not in known:
            raise InputError(f"unknown key {key!r}: expected some of {', '.join(sorted(known))}", source=SOURCE)
    if "target" not in table:
        raise InputError(f"target is missing: expected one of {', '.join(_SETTINGS)}", source=SOURCE)
    if chosen is None:
        raise InputError(f"target = {target!r}: expected one of {', '.join(_SETTINGS)}", source=SOURCE)
    settings = chosen
    settings.check_strings(table)
    if table.get(settings.required) is None:
        raise InputError(f"target = {target!r} needs the key {settings.required!r}", source=SOURCE)
    return settings.from_table(table, Path(base))
