"""The one error type bad input raises: it names the source, the line and what was expected."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input (a file, a code, a preset, an option).

    ``str(error)`` is one line: ``source:line: message`` (parts that are unknown are left out).

    >>> str(InputError("expected a round number", source="open.trf", line=12))
    'open.trf:12: expected a round number'
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.source:
            where = self.source + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where + self.message
