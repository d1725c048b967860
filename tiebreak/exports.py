"""Exporting a tournament, decided in this one place: the file ``tiebreak export``, the bot's
``/export`` and the site's download write, and the one the import check writes to see that
they can (``tiebreak.checks.check_exportable``).

Everything here works on the core's values; nothing reads or writes a file.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ranking.errors import InputError
from ranking.event.clock import decided_games
from ranking.event.model import Tournament
from ranking.event.players import Renumbered, by_pairing_number
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.trf_write import trf_refusal, write_trf
from ranking.standings.final import FinalStandings, final_standings

__all__ = ["EXPORT_FORMATS", "export_text", "with_decided_boards"]

EXPORT_FORMATS = ("trf", "toml")
_PLAYER = re.compile(r"\b(players? )(\d+)\b")


def export_text(tournament: Tournament, format: str, final: FinalStandings | None = None) -> str:
    """The tournament as a TRF or tournament TOML file.  The TOML keeps the starting numbers and
    the seeding (and the initial ranking list once it is kept).  The TRF numbers the players by
    their pairing numbers (``ranking.event.players.by_pairing_number``), so any pairing program pairs
    it as Tiebreak does; its points and places are the final standings (play-off places
    applied), the same as every page and ``--json`` shows, and a board the withdrawal rule
    decides holds the forfeit it makes of it.  A refusal names players by their starting
    numbers, as everything else does.  ``final`` saves computing the standings again when the
    caller has them."""
    if format == "toml":
        return write_tournament_toml(tournament)
    if format != "trf":
        raise InputError(f"unknown export format {format!r}: expected {' or '.join(EXPORT_FORMATS)}")
    refusal = trf_refusal(tournament)
    if refusal is not None:  # one line naming the lossless export
        raise InputError(f"{refusal} (--format toml)")
    final = final or final_standings(tournament)
    numbered = by_pairing_number(with_decided_boards(tournament))
    tpn = numbered.tpn
    try:
        return write_trf(numbered.tournament, points={tpn[pid]: value for pid, value in final.points().items()},
                         ranks={tpn[pid]: value for pid, value in final.ranks().items()})
    except InputError as error:
        raise InputError(_named_by_id(error.message, numbered)) from None


def _named_by_id(message: str, numbered: Renumbered) -> str:
    """``message`` of the TRF writer, about TPNs, with each ``player N`` the player's id."""
    if numbered.same:
        return message
    return _PLAYER.sub(lambda m: m.group(1) + str(numbered.id.get(int(m.group(2)), m.group(2))), message)


def with_decided_boards(tournament: Tournament) -> Tournament:
    """``tournament`` with the forfeits the withdrawal rule makes of its unplayed boards written
    as their results (``ranking.event.clock.decided_games``), as other programs need them."""
    if not tournament.withdrawals:
        return tournament
    decided = decided_games(tournament)  # the file's games first, in their order
    games = tuple(replace(game, result=item.game.result) if game.result is None and not item.annulled else game
                  for game, item in zip(tournament.games, decided, strict=False))
    return replace(tournament, games=games)
