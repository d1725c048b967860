"""Plain text columns for the terminal and the bot: text padded by display width, so Chinese and
Vietnamese names line up, and numbers of one column written with the same decimals.

>>> display_width("许银川"), display_width("Lại Lý Huynh")
(6, 12)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from tiebreak.control_characters import printable


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide (CJK) characters count 2, combining marks 0."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` display columns (right-aligned if asked)."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def format_column(values: Sequence[float | int | None]) -> list[str]:
    """Numbers of one column with the same number of decimals, so the points line up.

    >>> format_column([4.0, 3.5, 9.25])
    ['4.00', '3.50', '9.25']
    """
    decimals = 0
    for value in values:
        if isinstance(value, float) and not value.is_integer():
            decimals = max(decimals, min(2, len(f"{value:g}".partition(".")[2])))
    return ["-" if value is None else f"{value:.{decimals}f}" for value in values]


def render_table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[bool]) -> str:
    """Columns separated by two spaces; numeric columns right-aligned; control characters in a
    cell shown as escapes (``tiebreak.control_characters.printable``)."""
    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [display_width(title) for title in header]
    for row in rows:
        for column, cell in enumerate(row):
            widths[column] = max(widths[column], display_width(cell))
    lines = []
    for row in (header, *rows):
        cells = [pad(cell, widths[column], numeric[column]) for column, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
