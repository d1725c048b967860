"""``target = "rsync"``: run ``rsync <options> <out>/ <destination>`` (``--delay-updates``
switches the files at the end); a second run finishes what a broken one started."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ranking import InputError
from site_builder.publishers import (
    SKIP_AT_ROOT,
    SOURCE,
    AttemptFailed,
    Counts,
    Log,
    PublishSettings,
    is_remote_url,
    last_line,
    local_path,
    site_files,
)
from tiebreak.library import child_environment  # the bot's variables (its token) stay out

DEFAULT_RSYNC_OPTIONS = ("-a", "--delete-delay", "--delay-updates")
_ITEM = re.compile(r"^[<>]f\S{9,10} (.+)$")  # a file sent (to a host) or received (locally)
_DELETING = re.compile(r"^\*deleting +(.+)$")


@dataclass(frozen=True, kw_only=True)
class RsyncSettings(PublishSettings):
    """``target = "rsync"``: ``destination`` (``user@host:/path/`` or a folder) and rsync's ``options``."""

    target: ClassVar[str] = "rsync"
    keys: ClassVar[tuple[str, ...]] = ("destination", "options")
    required: ClassVar[str] = "destination"
    list_keys: ClassVar[tuple[str, ...]] = ("options",)

    destination: str
    options: tuple[str, ...] = DEFAULT_RSYNC_OPTIONS

    @classmethod
    def from_table(cls, table: Mapping[str, Any], base: Path) -> RsyncSettings:
        destination = table["destination"]
        if destination.startswith("-"):
            raise InputError(f"destination = {destination!r}: expected user@host:/path/ or a folder", source=SOURCE)
        values: dict[str, Any] = {
            "destination": destination if is_remote_url(destination) else str(local_path(destination, base))}
        if "options" in table:
            options = table["options"]
            if not isinstance(options, list) or not all(isinstance(option, str) for option in options):
                raise InputError(f"options = {options!r}: expected a list of strings such as "
                                 f"{list(DEFAULT_RSYNC_OPTIONS)}", source=SOURCE)
            values["options"] = tuple(options)
        return cls(**values, **cls.common(table))

    def check(self, out_dir: Path) -> None:
        if shutil.which("rsync") is None:
            raise InputError("the rsync publisher needs rsync: install it (apt-get install rsync)", source=SOURCE)

    def attempt(self, out_dir: Path, log: Log) -> Counts:
        destination = self.destination
        if not is_remote_url(destination):
            Path(destination).parent.mkdir(parents=True, exist_ok=True)
        excludes = [f"--exclude=/{name}" for name in sorted(SKIP_AT_ROOT)]
        command = ["rsync", *self.options, *excludes, "--itemize-changes", f"{out_dir}/", destination]
        result = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                env=child_environment())
        if result.returncode != 0:
            # rsync's (or ssh's) first error line says why; its last one is a generic "rsync error: ... (code N)"
            reason = _first_line(result.stderr) or last_line(result.stdout)
            raise AttemptFailed(f"rsync exited with status {result.returncode}: {reason}")
        lines = result.stdout.splitlines()
        uploaded = sum(1 for line in lines if _ITEM.match(line))
        deleted = sum(1 for line in lines if (match := _DELETING.match(line)) and not match.group(1).endswith("/"))
        files = len(site_files(out_dir))
        return {"uploaded": uploaded, "deleted": deleted, "unchanged": max(files - uploaded, 0), "detail": destination}


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")
