"""Read a tournament file: a FIDE TRF (TRF-16 / TRF-2026) or a tournament TOML file.

The format is told by content (docs/architecture.md#command-line: "detected by content"): a TOML
file has a ``[tournament]`` table, a TRF has records such as ``001 `` or ``012 ``.  The
file name's extension only decides when the content does not.  Reading a file and telling its
format load neither reader, so the command line's columns' readers (``ranking.formats.crosstable``) can
read the file without the tournament model.
"""

from __future__ import annotations

import os
import re
import sys

from ranking.errors import InputError

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from ranking.event.model import Tournament

__all__ = ["decode", "detect_format", "load_tournament", "parse_tournament_text", "read_file"]

_TOML_TABLE = re.compile(r"^\s*\[\s*tournament\s*\]", re.MULTILINE)
_TRF_RECORD = re.compile(r"^(?:001|012|XXR|142|062|092) ", re.MULTILINE)


def detect_format(text: str, name: str = "") -> str | None:
    """``"toml"``, ``"trf"`` or None, from the content and then the extension of ``name``.

    >>> detect_format("[tournament]\\nname = 'A'\\n"), detect_format("012 Open\\n")
    ('toml', 'trf')
    """
    if _TOML_TABLE.search(text):
        return "toml"
    if _TRF_RECORD.search(text.removeprefix("\ufeff")):
        return "trf"
    suffix = os.path.splitext(name)[1].lower()
    if suffix == ".toml":
        return "toml"
    if suffix in (".trf", ".trfx", ".txt"):
        return "trf"
    return None


def read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the file at ``path``; InputError naming the file when it cannot be read."""
    source = os.fspath(path)
    try:
        with open(source, "rb") as handle:
            return handle.read()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InputError(f"cannot read {source}: {reason}", source=source) from None
    except ValueError as error:  # e.g. a NUL character in the path
        raise InputError(f"cannot read {source!r}: {error}", source=source) from None


def write_output(text: str, path: str | None, wrote: str) -> None:
    """A command's output: into the file at ``path`` (then the line ``wrote`` says so), else to
    standard output; InputError naming the file when it cannot be written."""
    if not path:
        sys.stdout.write(text)
        return
    try:
        from pathlib import Path  # only to write a file (start-up time of every command)

        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror or error}", source=path) from None
    print(wrote)


def decode(data: bytes) -> tuple[str, bool]:
    """A file's text and whether it was UTF-8 (else it is read as Latin-1, as a TRF may be)."""
    try:
        return data.decode("utf-8-sig"), True
    except UnicodeDecodeError:
        return data.decode("latin-1"), False


def load_tournament(path: str | os.PathLike[str]) -> Tournament:
    """The tournament in the file at ``path`` (UTF-8; a TRF may also be Latin-1).

    Raises InputError naming the file for a file that cannot be read, that is neither
    format, or whose content is wrong (with the line).
    """
    return parse_tournament_text(read_file(path), os.fspath(path))


def parse_tournament_text(data: bytes, source: str) -> Tournament:
    """A tournament from a file's bytes (a TRF or a tournament TOML file, told by content),
    e.g. a document sent to the bot; ``source`` names it in errors."""
    text, utf8 = decode(data)
    kind = detect_format(text, source)
    if kind == "toml":
        if not utf8:
            raise InputError("a tournament TOML file must be UTF-8 encoded", source=source)
        # each reader loads only for its files (start-up time)
        from ranking.formats.tomlfile import parse_tournament_toml

        return parse_tournament_toml(text, source=source)
    if kind == "trf":
        from ranking.formats.trf_read import parse_trf  # each reader loads only for its files (start-up time)

        return parse_trf(text, source=source)
    raise InputError(
        "neither a FIDE TRF file (lines starting with 001, 012, XXR, ...) nor a tournament TOML file "
        "(a [tournament] table)",
        source=source,
    )
