"""What the store admits.  Every import (``tiebreak import``, a file sent to the bot, the files
config.toml lists) passes these checks first, so nothing stored can later break the TRF
export, the site or a terminal; a refusal is one line saying what to change.

- Names hold no control characters (an escape sequence, a line break, a bidi override) and at
  most ``MAX_NAME_LENGTH`` characters (Telegram's messages and buttons have limits).
- The tournament fits what its TRF export needs (a federation of three letters, a rating of
  at most four digits, ...): the check writes the very file ``/export`` and the site's
  download write later (``tiebreak.exports.export_text``: the players numbered by pairing
  number, so starting numbers above 9999 are fine), when nobody could fix the stored
  tournament any more.  An event of two-game matches (VN 21.2), which TRF cannot hold, is
  exported as TOML instead.
- The slug names a folder of its own on the site: not a language folder (``zh``), not
  ``index.html`` or ``static``, not a file name ending in ``.html`` or ``.json``, not ending
  in ``.`` (Windows and the file servers that follow it drop a trailing dot: ``x.`` would be
  ``x``), and at most ``MAX_SLUG_LENGTH`` characters.  A slug that differs from a stored one
  only in case (``A``, ``a``: one folder on a host that ignores case) is refused by the store
  (``Store.create``), which sees the others.

``tiebreak.tables.printable`` is the other half of the control characters rule: whatever the
terminal shows (names read from a file, or stored before these checks) shows them as escapes.
"""

from __future__ import annotations

from ranking.errors import InputError
from ranking.event.model import Tournament
from ranking.event.refusals import Code, Refusal
from ranking.event.slugs import is_slug
from ranking.formats.trf_write import trf_refusal
from tiebreak.exports import export_text
from tiebreak.i18n import SUPPORTED
from tiebreak.tables import printable, unsafe_characters

MAX_NAME_LENGTH = 100
MAX_SLUG_LENGTH = 64
#: the names at the root of the site that a tournament's folder must not take
RESERVED_SLUGS = frozenset({"index.html", "static", *SUPPORTED})
RESERVED_SUFFIXES = (".html", ".htm", ".json")

def check_slug(slug: str) -> None:
    """Refuse a slug that is not one (``ranking.event.slugs.is_slug``), would collide with the
    site's own paths, or is too long for a path."""
    if not is_slug(slug):
        raise Refusal(Code.SLUG_INVALID, slug=slug)
    folded = slug.casefold()
    if folded in RESERVED_SLUGS or folded.endswith(RESERVED_SUFFIXES):
        raise Refusal(Code.SLUG_RESERVED, slug=slug, reserved=", ".join(sorted(RESERVED_SLUGS)))
    if slug.endswith("."):
        raise Refusal(Code.SLUG_TRAILING_DOT, slug=slug, folder=slug.rstrip("."))
    if len(slug) > MAX_SLUG_LENGTH:
        raise Refusal(Code.SLUG_TOO_LONG, slug=f"{slug[:20]}...", length=len(slug), limit=MAX_SLUG_LENGTH)


def check_names(tournament: Tournament) -> None:
    """Refuse control characters in any name or text field, and names longer than
    ``MAX_NAME_LENGTH`` (the tournament's, the players', the teams')."""
    named = [("the tournament name", tournament.name)]
    named += [(f"player {player.id}'s name", player.name) for player in tournament.players]
    named += [(f"team {team.id}'s name", team.name) for team in tournament.teams]
    for what, name in named:
        if len(name) > MAX_NAME_LENGTH:
            raise InputError(f"{what} has {len(name)} characters, at most {MAX_NAME_LENGTH}: "
                             f"shorten {printable(name[:30])!r}...")
    fields = [*named, *((f"player {player.id}'s {field}", getattr(player, field)) for player in tournament.players
                        for field in ("club", "federation", "title", "sex", "fide_id", "birth"))]
    for what, text in fields:
        found = unsafe_characters(text)
        if found:
            raise InputError(f"{what} {printable(text)!r} contains the control character {found[0]}: remove it")


def check_exportable(tournament: Tournament) -> None:
    """Refuse a tournament its TRF export could not write (``tiebreak.exports.export_text``:
    ``/export``, the site's download).
    An event TRF cannot hold at all (two-game matches, VN 21.2: ``ranking.formats.trf_write.trf_refusal``)
    is exported as TOML, which keeps every game: its TRF is not checked."""
    if trf_refusal(tournament) is not None:
        export_text(tournament, "toml")  # the lossless export it gets instead
        return
    try:
        export_text(tournament, "trf")  # the very file /export and the site write
    except InputError as error:
        raise InputError(f"{error.message}: the TRF export (/export, the site's download) needs it") from None


def check_admissible(tournament: Tournament, slug: str, source: str | None = None) -> None:
    """Every check above; the refusal names ``source`` (the file) when given."""
    try:
        check_slug(slug)
        check_names(tournament)
        check_exportable(tournament)
    except Refusal as error:  # typed: each caller words it (the command line, the bot)
        error.source = source
        raise
    except InputError as error:
        raise InputError(error.message, source=source) from None
