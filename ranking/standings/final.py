"""The final standings: what every presenter shows (the command line, the bot, the site and
the exported files), computed in this one place.

They are the standings of the tie-break chain (``ranking.standings.individual``, C.07 4.2) with the places
a play-off decided applied on top, when the rules name play-off places (docs/rules.md#play-offs, C.07 3).

>>> from ranking.event.model import Player, Game, Result, Tournament
>>> t = Tournament("Mini", (Player(1, "A"), Player(2, "B")), 1, (Game(1, 1, 2, Result.BLACK_WINS),))
>>> [(row.rank, row.player.name) for row in final_standings(t).rows]
[(1, 'B'), (2, 'A')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ranking.event.model import Tournament
from ranking.scoring.rules import Rules
from ranking.scoring.scoresheet import Scoresheet
from ranking.standings.individual import StandingRow, Standings, compute_standings, default_rules

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from ranking.standings.playoffs import PlayoffStandings


@dataclass(frozen=True)
class FinalStandings:
    """The standings in their final order, and the play-offs behind it.

    ``standings.rows`` are in place order, with the play-off places applied; ``playoffs`` is None
    when the rules name no play-off places.
    """

    standings: Standings
    playoffs: PlayoffStandings | None = None

    @property
    def rows(self) -> tuple[StandingRow, ...]:
        return self.standings.rows

    @property
    def required(self) -> frozenset[int]:
        """The players whose place still waits for a play-off."""
        return self.playoffs.required if self.playoffs is not None else frozenset()

    def points(self) -> dict[int, float]:
        """Each player's points, by starting number."""
        return {row.player.id: row.points for row in self.rows}

    def ranks(self) -> dict[int, int]:
        """Each player's place, by starting number."""
        return {row.player.id: row.rank for row in self.rows}

    def as_json(self) -> dict[str, Any]:
        """The JSON shape of docs/architecture.md#json, with the play-off keys when there is a play-off rule."""
        return self.playoffs.as_json() if self.playoffs is not None else self.standings.as_json()


def final_standings(tournament: Tournament, rules: Rules | None = None,
                    after_round: int | None = None, *, sheet: Scoresheet | None = None) -> FinalStandings:
    """The standings after ``after_round`` (default: the last round with a result) under
    ``rules`` (default: the tournament's own, completed by the FIDE default chain), with the
    places decided by a play-off applied (docs/rules.md#play-offs); ``sheet`` as
    ``compute_standings``'s."""
    rules = rules or default_rules(tournament)
    standings = compute_standings(tournament, rules, after_round, sheet=sheet)
    if rules.playoff is None:
        return FinalStandings(standings)
    from ranking.standings.playoffs import apply_playoffs  # only under a play-off rule (start-up time)

    playoffs = apply_playoffs(standings, rules.playoff, tournament.playoff_games)
    return FinalStandings(playoffs.standings, playoffs)
