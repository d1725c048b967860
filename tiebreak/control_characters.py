"""Control characters in text (C0 and C1 controls, DEL, the line and paragraph separators,
the bidi controls): found, so that what the store admits holds none (``tiebreak.checks``), and
shown as escapes wherever a terminal shows text (``tiebreak.columns.render_table``), so a name
read from a file cannot move the cursor, recolour the terminal or reorder a line.
"""

from __future__ import annotations

import re

# C0 and C1 controls and DEL, the line and paragraph separators, and the bidi controls that
# reorder what a terminal or a page shows.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def unsafe_characters(text: str) -> list[str]:
    """The control characters in ``text``, as escapes.

    >>> unsafe_characters("Ann\\x1b[31m Lee\\n")
    ['\\\\x1b', '\\\\n']
    """
    return [_escape(match.group()) for match in _UNSAFE.finditer(text)]


def printable(text: str) -> str:
    """``text`` as a terminal may show it: control characters become escapes.

    >>> printable("Ann\\x1b]0;owned\\x07")
    'Ann\\\\x1b]0;owned\\\\x07'
    """
    return _UNSAFE.sub(lambda match: _escape(match.group()), text)


def _escape(char: str) -> str:
    return repr(char)[1:-1] if char.isascii() or ord(char) < 0x100 else f"\\u{ord(char):04x}"
