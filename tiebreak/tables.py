"""The tables the ``tiebreak`` command prints of a tournament: the standings (with the heading
naming the scoring, ``scoring_words``, and the chain), the teams, and the play-offs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ranking.event.model import Result
from ranking.scoring.points import board_points
from ranking.scoring.spelling import written_points
from tiebreak.columns import format_column, render_table
from tiebreak.control_characters import printable

if TYPE_CHECKING:
    from ranking.scoring.rules import Scoring
    from ranking.standings.individual import Standings


def team_table(teams) -> str:
    """The team standings as an aligned table: match points and game points, the one that ranks
    first first (each once: a chain that ranks by GP shows it in the GP column; an individual
    event's team classification has neither), then the rest of the team chain."""
    chain = list(teams.tiebreaks)
    scores = list(teams.scores)
    codes = [code for code in chain if code.upper() not in scores]
    columns = [format_column([getattr(row, _SCORE_FIELDS[score]) for row in teams.rows]) for score in scores]
    columns += [format_column([row.values[code] for row in teams.rows]) for code in codes]
    rows = [[str(row.rank), row.team.name, *(column[index] for column in columns)]
            for index, row in enumerate(teams.rows)]
    header = ["#", "Team", *scores, *codes]
    return f"Teams after round {teams.after_round}; tie-breaks: {', '.join(chain) or 'none'}\n\n" + render_table(
        header, rows, [True, False, *([True] * (len(scores) + len(codes)))])


_SCORE_FIELDS = {"MP": "match_points", "GP": "game_points"}

def playoff_lines(playoffs, standings: Standings) -> str:
    """What the play-offs of docs/rules.md#play-offs still need, or how they decided the places."""
    names = {row.player.id: row.player.name for row in standings.rows}
    lines = []
    for group in playoffs.groups:
        who = printable(", ".join(names[player] for player in group.players))
        places = "-".join(str(place) for place in (group.first_place, group.first_place + len(group.players) - 1))
        if group.decided:
            result = "; ".join(_stage_result(stage.points(standings.rules.scoring), names) for stage in group.stages)
            order = ", ".join(f"{place}. {names[player]}"
                              for place, player in enumerate(group.order, group.first_place))
            lines.append(printable(f"places {places} decided by the play-off ({group.format}: {result}): {order}"))
            continue
        lines.append(f"play-off required for places {places} ({group.format}): {who}")
        for game in group.pending:
            lines.append(printable(f"  play-off round {game.round}: {names[game.white]} - {names[game.black]}"))
    return "\n".join(lines)

def win_draw_loss(win: float, draw: float, loss: float) -> str:
    """The points of a win, a draw and a loss as ``scoring_words`` writes them: ``2/1/0``, ``1/0.5/0``."""
    return "/".join(written_points(value, half=None) for value in (win, draw, loss))


def scoring_words(scoring: Scoring, first_colour: str = "white") -> str:
    """The scoring in words, the one description of it the command line and the docs give (the
    standings' heading, ``tiebreak show``, ``tiebreak presets``, the README's presets table):
    ``points 2/1/0``; colour-dependent draws
    (CXA 13.3) ``points 3/1/0 (a draw: red 1, black 2)``; two-game matches (VN 21.2) ``match
    points 1/0.5/0, game points 2/1/0``.  ``first_colour`` is the first mover's colour word.

    >>> from ranking.scoring.rules import THREE_POINT_COLOUR
    >>> scoring_words(THREE_POINT_COLOUR, "red")
    'points 3/1/0 (a draw: red 1, black 2)'
    """
    game = win_draw_loss(scoring.win, scoring.draw, scoring.loss)
    if scoring.match is not None:
        return f"match points {win_draw_loss(*scoring.match)}, game points {game}"
    text = f"points {game}"
    if scoring.draw_first is not None or scoring.draw_second is not None:
        first, second = board_points(scoring, Result.DRAW)
        text += (f" (a draw: {first_colour} {written_points(first, half=None)}, "
                 f"black {written_points(second, half=None)})")
    return text


def _stage_result(points: tuple[tuple[int, float], ...], names: dict[int, str]) -> str:
    """A play-off stage's result: ``A 1.5-0.5 B`` for two players, ``A 2, B 1, C 0`` for more."""
    if len(points) == 2:
        (first, mine), (second, theirs) = points
        return f"{names[first]} {written_points(mine, half=None)}-{written_points(theirs, half=None)} {names[second]}"
    return ", ".join(f"{names[player]} {written_points(value, half=None)}" for player, value in points)


def standings_table(standings: Standings) -> str:
    """The standings as an aligned table, with a heading naming the rules used: the scoring
    (match points where they are the score, VN 21.2), the chain, and the rules it follows (the
    C.07 edition for FIDE chains only, a CXA, ZS or VN preset's own article)."""
    from ranking.tiebreaks.presets import rules_source  # the table only (start-up time)

    codes = list(standings.tiebreaks)
    header = ["#", "No", "Name", "Fed", "Rtg", "MP" if standings.rules.scoring.match else "Pts", *codes]
    numeric = [True, True, False, False, True, True, *([True] * len(codes))]
    columns = [format_column([row.points for row in standings.rows])]
    columns += [format_column([row.values[code] for row in standings.rows]) for code in codes]
    rows = [
        [str(row.rank), str(row.player.id), row.player.name, row.player.federation,
         str(row.player.rating or ""), *(column[number] for column in columns)]
        for number, row in enumerate(standings.rows)
    ]
    source = rules_source(standings.rules)
    lines = [
        printable(standings.tournament.name),
        f"after round {standings.after_round}; "
        f"{scoring_words(standings.rules.scoring, standings.tournament.game.first_colour)}; "
        f"tie-breaks: {', '.join(codes) or 'none'}" + (f"; {source}" if source else ""),
    ]
    if standings.lots_seed:
        lines.append(f"lots drawn with seed {standings.lots_seed!r}")
    lines.append("")
    lines.append(render_table(header, rows, numeric))
    return "\n".join(lines)
