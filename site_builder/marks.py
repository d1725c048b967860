"""How the pages write a game, a bye and a match score in the event's own terms: a side's
points as the event scores them (1, ½, 0; 2, 1, 0 under 2/1/0 scoring, CXA 13.3), a board's
result, a forfeit's + and −, a bye's FIDE name (C.07), a wall chart's cell."""

from __future__ import annotations

import functools

from ranking import Outcome, Result, Scoring, game_points, written_points, written_result

#: A bye in the crosstable, wall chart and player page: FIDE C.07's names for them.
BYE_MARKS = {"U": "PAB", "F": "FPB", "H": "HPB", "Z": "ZPB"}


def half_text(value: float | None) -> str | None:
    """Game points as a match score shows them (2½, ½, 3); None when not a multiple of ½."""
    if value is None or not float(value * 2).is_integer():
        return None
    return written_points(value)


@functools.cache
def side_text(result: Result | None, white: bool, scoring: Scoring) -> str:
    """A game from one side: the points it scored as the event scores them (1, ½, 0 in chess;
    2, 1, 0 under 2/1/0; the colour's draw value with colour-dependent draws), + or − for a
    forfeit won or lost, … while unfinished."""
    if result is None:
        return "…"
    if result.is_forfeit:
        return "+" if result.outcomes[0 if white else 1] == Outcome.WIN else "−"
    return written_points(game_points(scoring, result, white))


@functools.cache
def board_text(result: Result | None, scoring: Scoring) -> str | None:
    """A board's result in the event's own terms: first mover's points, a dash, second mover's
    (``1-0``, ``½-½``; ``2-0``, ``1-1`` under 2/1/0: ``ranking.scoring.spelling.written_result``);
    forfeits as ``+ -``, ``- +``, ``- -``."""
    if result is None:
        return None
    if result.is_forfeit:
        return {Result.WHITE_WINS_FORFEIT: "+ −", Result.BLACK_WINS_FORFEIT: "− +"}.get(result, "− −")
    return written_result(result, scoring, "½")


#: A wall chart's cell is (the opponent's place, colour letter w/b, score, note): ("16", "w", "1", "")
#: against the player in place 16, with white, won; a bye has no opponent ("") nor colour; the note
#: names what a withdrawal made of the game (``annulled``, ``withdrawal``).  This one: a round
#: without game or bye.
NO_CELL = ("", "", "", "")


def marks_legend(scoring: Scoring, used: set[str], notes: set[str] | None = None) -> list[dict]:
    """The legend of the crosstable's or wall chart's marks that appear in it: each game's
    points as the event scores them, forfeits, byes, unfinished games, and the games a
    withdrawal changed (``notes``: annulled, VN forfeits against a withdrawn player)."""
    marks = []
    for note in ("annulled", "withdrawal"):
        if note in (notes or ()):
            marks.append({"mark": "X", "kind": note})
    for outcome, kind in ((Outcome.WIN, "win"), (Outcome.DRAW, "draw"), (Outcome.LOSS, "loss")):
        values = sorted({scoring.game_points(outcome, first) for first in (True, False)})
        texts = [written_points(value) for value in values]
        if any(text in used for text in texts):
            marks.append({"mark": " / ".join(texts), "kind": kind})
    for mark, kind in (("+", "forfeit-win"), ("−", "forfeit-loss"), ("PAB", "U"), ("FPB", "F"), ("HPB", "H"),
                       ("ZPB", "Z"), ("…", "unfinished")):
        if mark in used:
            marks.append({"mark": mark, "kind": kind})
    return marks
