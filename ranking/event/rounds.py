"""How one round went for a player or a team, and the FIDE C.07 16.2 category of an unplayed
round: the vocabulary the individual and the team scoresheets share.

>>> categorise([Kind.HALF_BYE, Kind.PLAYED, Kind.HALF_BYE, Kind.FORFEIT_LOSS])
[(3, True), (0, False), (5, True), (4, True)]
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from ranking.standings import ordering


class Kind(enum.Enum):
    """How a round went for one player (or team)."""

    PLAYED = "played"
    FORFEIT_WIN = "forfeit-win"
    FORFEIT_LOSS = "forfeit-loss"  # also each side of a double forfeit
    PAIRING_BYE = "pairing-bye"
    FULL_BYE = "full-bye"
    HALF_BYE = "half-bye"
    ZERO_BYE = "zero-bye"  # requested, absent, or after withdrawal (C.07 16.1)
    PENDING = "pending"  # paired, result not known yet: ignored by every tie-break

    #: Hashed by identity, as members compare (``enum.Enum`` hashes the name in Python code: a
    #: scoresheet looks kinds up in tables eleven thousand times for 1,000 players x 11 rounds).
    __hash__ = object.__hash__

    @property
    def is_forfeit(self) -> bool:
        return self is Kind.FORFEIT_WIN or self is Kind.FORFEIT_LOSS


#: The opponent of a round without one (an index into a sheet's players or teams).
NO_OPPONENT = -1


def categorise(kinds: Sequence[Kind], free: Sequence[bool] = ()) -> list[tuple[int, bool]]:
    """(category, voluntary) of every round, rounds 1..n in order (FIDE C.07 16.1-16.2;
    ``ranking.standings.ordering.categories`` says what each category is).

    ``free`` marks the free rounds of a round robin (the round a player or team sits out in an
    odd field): in a round robin forfeits are the only unplayed rounds (C.07 15.2-15.3,
    docs/rules.md#c07-readings), so a free round has category 0 and is no VUR.
    """
    if kinds.count(Kind.PLAYED) == len(kinds):  # every round a game: none is unplayed (the usual case, fast)
        return [_GAME_ROUND] * len(kinds)
    return ordering.categories([ordering.PLAYED if free and free[number] else _CLASSES[kind]
                               for number, kind in enumerate(kinds)])


#: (category, voluntary) of a round played (``ranking.standings.ordering.categories``).
_GAME_ROUND = (ordering.PLAYED, False)

#: Each kind's class for ``ranking.standings.ordering.categories``.
_CLASSES = {
    Kind.PLAYED: ordering.PLAYED,
    Kind.PENDING: ordering.PLAYED,
    Kind.FORFEIT_WIN: ordering.FORFEIT_WIN,
    Kind.FORFEIT_LOSS: ordering.FORFEIT_LOSS,
    Kind.PAIRING_BYE: ordering.FULL_BYE,
    Kind.FULL_BYE: ordering.FULL_BYE,
    Kind.HALF_BYE: ordering.REQUESTED_BYE,
    Kind.ZERO_BYE: ordering.REQUESTED_BYE,
}
