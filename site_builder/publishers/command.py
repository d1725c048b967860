"""``target = "command"``: run a command of your own with the site folder as ``{out}`` and
``$TIEBREAK_SITE_DIR``, in the folder of config.toml.

The command runs without a shell: its words are split as a shell splits them (quotes work) and
nothing more is done to them, so ``{out}`` can hold any character safely.  Shell syntax that
would then mean something else (``|``, ``&&``, ``;``, ``>``, ``$VARIABLE``, backquotes) is
refused when the configuration is read: a pipeline goes in a script, or in ``sh -c '...'``."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

from ranking import InputError
from site_builder.publishers import (
    SOURCE,
    AttemptFailed,
    Counts,
    Log,
    PublishSettings,
    last_line,
    site_files,
)
from tiebreak.library import child_environment  # the bot's variables (its token) stay out


@dataclass(frozen=True, kw_only=True)
class CommandSettings(PublishSettings):
    """``target = "command"``: the ``command`` line (shell words, ``{out}`` for the site folder),
    run in ``cwd``."""

    target: ClassVar[str] = "command"
    keys: ClassVar[tuple[str, ...]] = ("command",)
    required: ClassVar[str] = "command"

    command: str
    cwd: Path | None = None  # where the command runs: the folder of config.toml

    @classmethod
    def from_table(cls, table: Mapping[str, Any], base: Path) -> CommandSettings:
        command = table["command"]
        try:
            words = shlex.split(command)
        except ValueError as error:
            raise InputError(f"command = {command!r}: {error}", source=SOURCE) from None
        if not words:
            raise InputError("command is empty", source=SOURCE)
        syntax = _shell_syntax(command)
        if syntax is not None:
            raise InputError(f"command = {command!r}: {syntax} is shell syntax, but the command runs without a shell "
                             "(its words are split as a shell splits them, nothing more): put the pipeline in a "
                             "script and name the script, or write sh -c '...'", source=SOURCE)
        return cls(command=command, cwd=base, **cls.common(table))

    def check(self, out_dir: Path) -> None:
        program = _command_words(out_dir, self)[0]
        if "/" in program:
            path = Path(program) if Path(program).is_absolute() else Path(self.cwd or ".") / program
            found = path.is_file() and os.access(path, os.X_OK)
        else:
            found = shutil.which(program) is not None
        if not found:
            raise InputError(f"command: no program {program!r} (not found or not executable)", source=SOURCE)

    def attempt(self, out_dir: Path, log: Log) -> Counts:
        words = _command_words(out_dir, self)
        env = dict(child_environment(), TIEBREAK_SITE_DIR=str(out_dir))
        result = subprocess.run(words, cwd=self.cwd, env=env, capture_output=True, text=True,
                                stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            reason = last_line(result.stderr, result.stdout) or "no output"
            raise AttemptFailed(f"{PurePosixPath(words[0]).name} exited with status {result.returncode}: {reason}")
        return {"uploaded": len(site_files(out_dir)), "detail": last_line(result.stdout)}


_OPERATOR_CHARS = frozenset("();<>|&")


def _shell_syntax(command: str) -> str | None:
    """The first piece of ``command`` that only a shell would understand: an operator (``|``,
    ``&&``, ``;``, ``>``, ``2>&1``, ``$(``), or, outside single quotes, a ``$`` or a backquote;
    None when there is none."""
    lexer = shlex.shlex(command, posix=False, punctuation_chars=True)
    lexer.whitespace_split = True
    for token in lexer:
        if set(token) <= _OPERATOR_CHARS or (("$" in token or "`" in token) and "'" not in token):
            return token
    return None


def _command_words(out_dir: Path, settings: CommandSettings) -> list[str]:
    return [word.replace("{out}", str(out_dir)) for word in shlex.split(settings.command)]
