"""Pairing a Swiss round by the players' pairing numbers.

The Dutch engine (``ranking.pairing.dutch``) pairs players by their numbers, taken as TPNs (C.04.3
1.1).  An event seeded by rating (``ranking.event.players``) is renumbered by TPN first, exactly as
its TRF export numbers it, so the engine pairs it as any pairing program pairs that file; the
pairing, and what it says, come back in the players' own starting numbers.

>>> from ranking.event.model import Player, Seeding, Tournament
>>> t = Tournament("Open", (Player(1, "A", 1500), Player(2, "B", 2400), Player(3, "C", 2000),
...                         Player(4, "D", 1800)), 5, records=(("152", "W"),), seeding=Seeding.RATING)
>>> [(board.white, board.black) for board in pair_swiss(t).boards]  # TPN 1 v 3, 4 v 2
[(2, 4), (1, 3)]
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ranking.errors import InputError
from ranking.event.model import Tournament
from ranking.event.players import Renumbered, by_pairing_number

if TYPE_CHECKING:
    from ranking.pairing.dutch import Pairing, RoundCheck

__all__ = ["check_swiss", "pair_swiss"]


def pair_swiss(tournament: Tournament, round: int | None = None) -> Pairing:
    """The Dutch pairing of ``round`` (default: the next) by the pairing numbers, in starting
    numbers; an ``InputError`` the engine raises names the players by their starting numbers."""
    from ranking.pairing.dutch import pair_round  # the engine loads only to pair

    numbered = by_pairing_number(tournament)
    try:
        pairing = pair_round(numbered.tournament, round)
    except InputError as error:
        raise _in_ids(error, numbered) from None
    return _pairing_in_ids(pairing, numbered)


def check_swiss(tournament: Tournament, round: int) -> RoundCheck:
    """How round ``round`` as ``tournament`` holds it differs from the Dutch pairing
    (``ranking.pairing.dutch.check_round``), by the pairing numbers, in starting numbers."""
    from ranking.pairing.dutch import Difference, RoundCheck, Violation, check_round  # the engine loads only to check

    numbered = by_pairing_number(tournament)
    try:
        check = check_round(numbered.tournament, round)
    except InputError as error:
        raise _in_ids(error, numbered) from None
    if numbered.same:
        return check
    ids = numbered.id

    def pair(pair: tuple[int, int]) -> tuple[int, int]:
        return ids[pair[0]], ids.get(pair[1], pair[1])

    return RoundCheck(
        _pairing_in_ids(check.dutch, numbered),
        tuple(Difference(pair(d.dutch) if d.dutch else None, tuple(pair(p) for p in d.proposed),
                         numbered.ids_in(d.text)) for d in check.differences),
        tuple(Violation(v.rule, tuple(ids[p] for p in v.players), numbered.ids_in(v.text)) for v in check.violations))


def _pairing_in_ids(pairing: Pairing, numbered: Renumbered) -> Pairing:
    if numbered.same:
        return pairing
    ids = numbered.id
    return replace(pairing, boards=tuple(replace(b, white=ids[b.white], black=ids[b.black]) for b in pairing.boards),
                   bye=ids[pairing.bye] if pairing.bye is not None else None,
                   unpaired=tuple(replace(u, player=ids[u.player]) for u in pairing.unpaired))


def _in_ids(error: InputError, numbered: Renumbered) -> InputError:
    return InputError(numbered.ids_in(error.message), source=error.source, line=error.line)
