"""How one round went for a player or a team, and the FIDE C.07 16.2 category of an unplayed
round: the vocabulary the individual and the team scoresheets share.

>>> categorise([Kind.HALF_BYE, Kind.PLAYED, Kind.HALF_BYE, Kind.FORFEIT_LOSS])
[(3, True), (0, False), (5, True), (4, True)]
"""

from __future__ import annotations

import enum
from collections.abc import Sequence


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

    @property
    def is_forfeit(self) -> bool:
        return self is Kind.FORFEIT_WIN or self is Kind.FORFEIT_LOSS


#: The opponent of a round without one (an index into a sheet's players or teams).
NO_OPPONENT = -1


def categorise(kinds: Sequence[Kind], free: Sequence[bool] = ()) -> list[tuple[int, bool]]:
    """(category, voluntary) of every round, rounds 1..n in order (FIDE C.07 16.1-16.2).

    Category 0 is a game played (or pending); 1 a pairing-allocated or full-point bye
    (16.2.1); 2 a forfeit win (16.2.2); 3 a requested bye followed by a round that is not a
    VUR (16.2.3); 4 a forfeit loss (16.2.4); 5 a requested bye followed only by VURs (16.2.5).
    A voluntary unplayed round (VUR, 16.1) is a requested bye or a forfeit loss.

    ``free`` marks the free rounds of a round robin (the round a player or team sits out in an
    odd field): in a round robin forfeits are the only unplayed rounds (C.07 15.2-15.3,
    RULES.md 3.1), so a free round has category 0 and is no VUR.
    """
    result: list[tuple[int, bool]] = []
    only_vurs_follow = True
    for number in range(len(kinds) - 1, -1, -1):
        kind = kinds[number]
        vur = False
        if kind is Kind.PLAYED or kind is Kind.PENDING or (free and free[number]):
            category = 0
        elif kind is Kind.FORFEIT_WIN:
            category = 2
        elif kind is Kind.FORFEIT_LOSS:
            category, vur = 4, True
        elif kind is Kind.PAIRING_BYE or kind is Kind.FULL_BYE:
            category = 1
        else:
            category, vur = (5 if only_vurs_follow else 3), True
        if not vur:
            only_vurs_follow = False
        result.append((category, vur))
    result.reverse()
    return result
