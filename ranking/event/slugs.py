"""A tournament's slug: the short name it is stored under, that commands name it by and that
names its folder on the site (``tiebreak import --slug``, the bot's ``/import SLUG``, the
``slug`` of a tournament TOML file, the site's ``<slug>/``).  This is the one rule; what else
a slug must not be (a folder the site uses itself, too long) the application decides.

>>> is_slug("hanoi-2026"), is_slug("Open_A.2"), is_slug("abc\\n"), is_slug("-x"), is_slug("")
(True, True, False, False, False)
"""

from __future__ import annotations

import re

__all__ = ["is_slug"]

#: letters, digits, '.', '-' and '_', starting with a letter or a digit: safe in URLs, file
#: names and commands
_SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def is_slug(text: str) -> bool:
    """Whether ``text``, all of it, is a slug (no line break before or after it)."""
    return _SLUG.fullmatch(text) is not None
