"""The event's clock: which rounds are paired, which are complete, the current round and
whether the event is finished, decided here once for the command line, the bot, the site and
the tests.

- A round is **paired** when it has a board (a game) or a pairing-allocated bye; byes entered
  ahead for a round not paired yet do not make it paired.  Team matches given by their totals
  count as boards.
- A board is **decided** when it has a result, or when the withdrawal rule makes one of it: a
  withdrawn player's later board is a forfeit, or annulled in a round robin under
  ``rr_withdrawal`` (C.07 15.2, VN 21.5.1; ``ranking.event.withdrawals``).  A round is **complete**
  when every board of it is decided.
- The **current round** is the lowest paired round with a board not decided, else the latest
  paired round; None before round 1 is paired.
- The event is **finished** when its last round is paired and every paired round is complete
  (a round robin only once every game has a result).
- A round **may be paired** when it is one of the event's rounds (``round_limit``): 1 to the
  ``rounds`` of a Swiss, any from 1 while they are not known (``rounds == 0``); a round robin's
  Berger schedule, or fewer when ``rounds`` says so.

>>> from ranking.event.model import Game, Player, Result, Tournament
>>> t = Tournament("Open", tuple(Player(i, f"P{i}") for i in range(1, 5)), 2,
...                (Game(1, 1, 3, Result.WHITE_WINS, 1), Game(1, 4, 2, None, 2)))
>>> c = clock_of(t)
>>> c.paired, c.complete, c.current, c.finished, c.open_boards
((1,), (), 1, False, ((1, 2),))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from ranking.event.model import ByeKind, Game, Result, Tournament, numbered_boards

__all__ = ["Clock", "DecidedGame", "board_results", "clock_of", "decided_games", "next_round", "paired_rounds",
           "round_limit"]


@dataclass(frozen=True)
class Clock:
    """Where an event stands: its ``rounds``, the rounds ``paired`` and ``complete`` (ascending),
    the ``current`` round, the boards not decided yet as (round, board), how many boards are
    ``decided`` (a result, or what the withdrawal rule makes of them), and the ``limit``, the
    last round that may be paired (``round_limit``: None while a Swiss's rounds are not known)."""

    rounds: int
    paired: tuple[int, ...]
    complete: tuple[int, ...]
    current: int | None
    open_boards: tuple[tuple[int, int], ...]
    decided: int
    limit: int | None = None

    @property
    def finished(self) -> bool:
        """The last round is paired and every paired round is complete."""
        last = self.last_paired
        return bool(self.rounds) and last is not None and last >= self.rounds and self.complete == self.paired

    @property
    def last_paired(self) -> int | None:
        return self.paired[-1] if self.paired else None

    @property
    def next_round(self) -> int:
        """The round to pair next: the one after the latest paired round (``next_round``)."""
        return (self.paired[-1] if self.paired else 0) + 1

    def may_pair(self, number: int) -> bool:
        """Round ``number`` is one of the event's rounds (``round_limit``), so it may be paired
        (whether it is paired already is ``paired``'s)."""
        return number >= 1 and (self.limit is None or number <= self.limit)

    @property
    def started(self) -> bool:
        return bool(self.paired)

    def open_in(self, number: int) -> tuple[int, ...]:
        """The boards of round ``number`` not decided yet."""
        return tuple(board for round_number, board in self.open_boards if round_number == number)


class DecidedGame(NamedTuple):
    """A game as the clock decides it: ``game`` with its board (``numbered_boards``) and the
    result it holds: the one entered, or the forfeit the withdrawal rule makes of a board without
    one (C.07 16.1, VN 21.5.2); ``annulled`` when a round robin's ``rr_withdrawal`` annuls it (VN
    21.5.1: it counts nothing; ``game`` keeps the result entered); ``listed`` is False for a
    forfeit the file never listed (VN 21.5.1), which has no board.

    A named tuple, as ``ranking.standings.scorecards.CardRound``: one is made per game of the
    event each time a page, a view or an export asks, and a tuple costs a third of a frozen
    dataclass to make."""

    game: Game
    annulled: bool = False
    listed: bool = True


def decided_games(tournament: Tournament, number: int | None = None) -> tuple[DecidedGame, ...]:
    """Every game of round ``number`` (every round when None) as the clock decides it: the
    file's games in their order, then the forfeits it never listed.  The one overlay of the
    withdrawal rule on the results that the round views, the player's card, the exports and
    ``board_results`` read.

    >>> from ranking.event.model import Player, Withdrawal
    >>> t = Tournament("Open", tuple(Player(i, f"P{i}") for i in range(1, 5)), 2,
    ...                (Game(1, 1, 3, Result.WHITE_WINS, 1), Game(1, 4, 2, Result.DRAW, 2),
    ...                 Game(2, 1, 4, None, 1), Game(2, 3, 2, None, 2)), withdrawals=(Withdrawal(3, 1),))
    >>> [(d.game.board, d.game.result.value if d.game.result else None) for d in decided_games(t, 2)]
    [(1, None), (2, '-+')]
    """
    games = tuple(numbered_boards(tournament.games))
    if not tournament.withdrawals:
        decided = tuple(DecidedGame(game) for game in games)
    else:
        from ranking.event.withdrawals import apply_withdrawals  # only when someone withdrew
        from ranking.standings.individual import default_rules  # the rules only when someone withdrew

        effects = apply_withdrawals(replace(tournament, games=games), default_rules(tournament))
        forfeits = {(g.round, g.white, g.black): g for g in effects.forfeited}
        annulled = {(g.round, g.white, g.black) for g in effects.annulled}
        decided = tuple(DecidedGame(game, annulled=True) if (game.round, game.white, game.black) in annulled
                        else DecidedGame(forfeits.pop((game.round, game.white, game.black), game))
                        for game in games)
        decided += tuple(DecidedGame(game, listed=False) for game in forfeits.values())  # VN 21.5.1
    return decided if number is None else tuple(item for item in decided if item.game.round == number)


def board_results(tournament: Tournament) -> dict[tuple[int, int], Result | str | None]:
    """Every board by (round, board): its result; for a board the withdrawal rule decides, the
    forfeit it makes of it, or ``"annulled"`` (a round robin's ``rr_withdrawal``); None while
    the board waits for its result (``decided_games``).  A game without a board number gets the
    next free one of its round, as the event log numbers it (``ranking.event.model.numbered_boards``)."""
    return {(item.game.round, item.game.board): "annulled" if item.annulled else item.game.result
            for item in decided_games(tournament) if item.listed}


def paired_rounds(tournament: Tournament) -> tuple[int, ...]:
    """The rounds paired (see the module's docstring), in order: with a game (forfeited or not),
    a team match, or a pairing-allocated bye; a round with only requested byes or absences is not
    paired yet.  ``Clock.paired`` without the rest of the clock."""
    rounds = {game.round for game in tournament.games}
    rounds |= {bye.round for bye in tournament.byes if bye.kind is ByeKind.PAIRING}
    rounds |= {match.round for match in tournament.team_matches}
    return tuple(sorted(rounds))


def round_limit(tournament: Tournament) -> int | None:
    """The last round of ``tournament`` that may be paired.  A Swiss has the ``rounds`` declared
    beforehand (FIDE C.04.1 a); when the file does not say how many (``rounds == 0``) it is None,
    and the event is paired round after round as the arbiter goes on.  A round robin has its
    Berger schedule's rounds (FIDE C.05 Annex 1: n - 1, n in an odd field, twice that in a double
    round robin; n counts the teams in a team event), or fewer when ``rounds`` says so.

    >>> from ranking.event.model import Player, System
    >>> field = tuple(Player(i, f"P{i}") for i in range(1, 6))
    >>> round_limit(Tournament("Open", field, 0)), round_limit(Tournament("Open", field, 7))
    (None, 7)
    >>> round_limit(Tournament("RR", field, 0, system=System.ROUND_ROBIN))
    5
    >>> round_limit(Tournament("RR", field, 3, system=System.DOUBLE_ROUND_ROBIN))
    3
    """
    if not tournament.system.is_round_robin:
        return tournament.rounds or None
    scheduled = tournament.system.scheduled_rounds(len(tournament.teams or tournament.players))
    return min(scheduled, tournament.rounds) if tournament.rounds > 0 else scheduled


def next_round(tournament: Tournament) -> int:
    """The round to pair next, the one after the latest paired round: ``Clock.next_round``
    without the rest of the clock (the Dutch engine pairs it by default).

    >>> from ranking.event.model import Game
    >>> next_round(Tournament("Open", (), 5)), next_round(Tournament("Open", (), 5, (Game(2, 1, 2, None),)))
    (1, 3)
    """
    paired = paired_rounds(tournament)
    return (paired[-1] if paired else 0) + 1


def clock_of(tournament: Tournament,
             results: dict[tuple[int, int], Result | str | None] | None = None) -> Clock:
    """The clock of ``tournament`` (see the module's docstring); ``results`` saves computing its
    ``board_results`` again when the caller has them."""
    results = board_results(tournament) if results is None else results
    paired = paired_rounds(tournament)
    open_boards = sorted(key for key, result in results.items() if result is None)
    open_rounds = {number for number, _ in open_boards}
    open_rounds |= {match.round for match in tournament.team_matches if not match.boards and not match.is_finished}
    complete = tuple(number for number in paired if number not in open_rounds)
    current = min(open_rounds) if open_rounds else (paired[-1] if paired else None)
    return Clock(tournament.rounds, paired, complete, current, tuple(open_boards), len(results) - len(open_boards),
                 round_limit(tournament))
