"""``[publish]`` of config.toml: which target, and that target's settings."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ranking import InputError
from site_builder.publishers import COMMON_KEYS, SOURCE, PublishSettings
from site_builder.publishers.command import CommandSettings
from site_builder.publishers.dir import DirSettings
from site_builder.publishers.git import GitSettings
from site_builder.publishers.rsync import RsyncSettings
from site_builder.publishers.s3 import S3Settings

#: target -> its settings, in the order the error messages list them
TARGETS: dict[str, type[PublishSettings]] = {
    settings.target: settings for settings in (DirSettings, GitSettings, RsyncSettings, S3Settings, CommandSettings)
}
_SECRET_WORDS = ("secret", "access_key", "password", "token", "credential")


def settings_from_config(table: Mapping[str, Any], base: Path) -> PublishSettings:
    """The settings of ``[publish]`` (a table of config.toml) for its ``target``; relative local
    paths are taken from ``base`` (the folder of config.toml).

    Keys of the other targets are allowed (to switch ``target`` back and forth) but unknown keys are
    not, and neither are credentials, which come from the environment only.
    """
    if not isinstance(table, Mapping):
        raise InputError("expected a table", source=SOURCE)
    known = set(COMMON_KEYS).union(*(settings.keys for settings in TARGETS.values()))
    for key in table:
        if any(word in str(key).lower() for word in _SECRET_WORDS):
            raise InputError(f"{key}: credentials are never read from config.toml; set AWS_ACCESS_KEY_ID, "
                             "AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) in the environment", source=SOURCE)
        if key not in known:
            raise InputError(f"unknown key {key!r}: expected some of {', '.join(sorted(known))}", source=SOURCE)
    if "target" not in table:
        raise InputError(f"target is missing: expected one of {', '.join(TARGETS)}", source=SOURCE)
    target = table["target"]
    if target not in TARGETS:
        raise InputError(f"target = {target!r}: expected one of {', '.join(TARGETS)}", source=SOURCE)
    settings = TARGETS[target]
    settings.check_strings(table)
    if table.get(settings.required) is None:
        raise InputError(f"target = {target!r} needs the key {settings.required!r}", source=SOURCE)
    return settings.from_table(table, Path(base))
