"""What a game or a bye is worth in points, decided here once for the scoresheets, the team
sheets, the play-offs, the bot, the site and the tests (docs/rules.md#scoring).

- A played game gives each side the scoring's win, draw or loss value; a draw may be worth
  more to one colour (CXA 13.3: first mover 1, second mover 2).
- A forfeit gives the winner the forfeit-win value and the loser (each side of a double
  forfeit) the forfeit-loss value, by default a win and a loss (FIDE C.07 16.2).
- A pairing-allocated bye and a full-point bye are worth a win, a half-point bye a draw, a
  zero-point bye nothing, unless the scoring names other values (FIDE C.07 16.2.1, C.04.1 c).

>>> from ranking.scoring.rules import XIANGQI
>>> game_points(XIANGQI, Result.DRAW, white=True), bye_points(XIANGQI, ByeKind.HALF)
(1.0, 1.0)
>>> board_points(XIANGQI, Result.BLACK_WINS_FORFEIT)
(0.0, 2.0)
"""

from __future__ import annotations

from ranking.event.model import ByeKind, Result
from ranking.scoring.rules import Outcome, Scoring

__all__ = ["board_points", "bye_points", "game_points"]


def game_points(scoring: Scoring, result: Result, white: bool) -> float:
    """The points ``result`` gives the first mover (``white``) or the second mover, forfeits
    included (docs/rules.md#scoring).

    >>> from ranking.scoring.rules import CHESS
    >>> game_points(CHESS, Result.DRAW, white=False), game_points(CHESS, Result.WHITE_WINS_FORFEIT, white=True)
    (0.5, 1.0)
    """
    outcome = Outcome(result.outcomes[0 if white else 1])
    if result.is_forfeit:
        return scoring.forfeit_win_points if outcome is Outcome.WIN else scoring.forfeit_loss_points
    return scoring.game_points(outcome, white)


def board_points(scoring: Scoring, result: Result | None) -> tuple[float, float]:
    """(first mover's, second mover's) points of one board, CXA 13.3 colour-dependent draws
    included; (0, 0) while the board has no result."""
    if result is None:
        return 0.0, 0.0
    return game_points(scoring, result, True), game_points(scoring, result, False)


def bye_points(scoring: Scoring, kind: ByeKind) -> float:
    """The points of a bye of ``kind`` (FIDE C.07 16.2.1: a pairing-allocated or full-point bye
    is worth a win, a half-point bye a draw, a zero-point bye nothing, unless the scoring says
    otherwise)."""
    if kind is ByeKind.PAIRING:
        return scoring.pairing_bye_points
    if kind is ByeKind.FULL:
        return scoring.full_bye_points
    if kind is ByeKind.HALF:
        return scoring.half_bye_points
    return scoring.zero_bye
