"""The tournament TOML file in the plain layout Tiebreak writes (``ranking.formats.toml_export``),
read line by line into exactly the tables ``tomllib.loads`` gives, several times faster on a
large field: ``[name]`` and ``[[name]]`` headers and ``key = value`` lines.  A plain integer, a
string without escapes and a boolean are read here; any other value on one line (a float, a
date, an array, an inline table, a trailing comment) is read by tomllib, that line alone.
Anything else (a comment line, a key before the first header, a quoted or dotted key or
header, a value over several lines, a key or table given twice) gives None, and
``ranking.formats.tomlfile`` lets tomllib read the whole text, with its own refusals.

>>> read_plain_toml('[tournament]\\nname = "Open"\\nrounds = 9\\n\\n[[players]]\\nid = 1\\nrating = 1.5e3\\n')
{'tournament': {'name': 'Open', 'rounds': 9}, 'players': [{'id': 1, 'rating': 1500.0}]}
>>> read_plain_toml('# a comment\\n[tournament]\\n') is None
True
"""

from __future__ import annotations

import re
from typing import Any

_NAME = re.compile(r"[A-Za-z0-9_-]+")
# a bare key, then an integer of up to 18 digits, a string with no escape and no control
# character, a boolean, or anything else on the line (read by tomllib)
_KEY_VALUE = re.compile(r'([A-Za-z0-9_-]+) = (?:(-?(?:0|[1-9][0-9]{0,17}))|"([^"\\\x00-\x1f\x7f]*)"|(true|false)|.+)\Z')


def read_plain_toml(text: str) -> dict[str, Any] | None:
    """The tables of ``text`` as ``tomllib.loads(text)`` gives them, or None when the text is not
    in the plain layout (tomllib then reads it)."""
    if "\r" in text:
        return None
    data: dict[str, Any] = {}
    arrays: set[str] = set()
    table: dict[str, Any] | None = None
    match_line = _KEY_VALUE.match
    for line in text.split("\n"):
        found = match_line(line)
        if found is not None:  # most lines: a key and its value
            if table is None:
                return None
            key, number, string, boolean = found.groups()
            if key in table:
                return None
            if number is not None:
                table[key] = int(number)
            elif string is not None:
                table[key] = string
            elif boolean is not None:
                table[key] = boolean == "true"
            else:
                import tomllib  # such a line only (start-up time)

                try:
                    value = tomllib.loads(line)
                except (tomllib.TOMLDecodeError, ValueError, RecursionError):
                    return None
                if list(value) != [key]:
                    return None
                table[key] = value[key]
            continue
        if not line.strip(" \t"):
            continue
        if line[0] == "[":
            if line.startswith("[[") and line.endswith("]]"):
                name = line[2:-2]
                if not _NAME.fullmatch(name) or (name in data and name not in arrays):
                    return None
                arrays.add(name)
                table = {}
                data.setdefault(name, []).append(table)
            elif line.endswith("]") and not line.startswith("[["):
                name = line[1:-1]
                if not _NAME.fullmatch(name) or name in data:
                    return None
                table = data[name] = {}
            else:
                return None
        else:
            return None
    return data
