"""A scoresheet's rounds as the standings engine's columns: the registry's tie-breaks
(``ranking.tiebreaks.individual``) compute on the columns of ``ranking.crosstable_standings``, fed
here from a ``ranking.scoring.scoresheet.Scoresheet`` (a tournament from any file, the store or
the bot) as ``tiebreak standings FILE`` feeds them from the file's text."""

from __future__ import annotations

from ranking.crosstable import Crosstable
from ranking.crosstable_standings import ColumnSheet
from ranking.event.players import pairing_numbers
from ranking.event.rounds import Kind

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from ranking.scoring.scoresheet import Scoresheet

#: The letter of an unplayed or pending round (``ranking.crosstable``).
_KIND_LETTERS = {Kind.FORFEIT_WIN: "+", Kind.FORFEIT_LOSS: "-", Kind.PAIRING_BYE: "U", Kind.FULL_BYE: "F",
                 Kind.HALF_BYE: "H", Kind.ZERO_BYE: "Z", Kind.PENDING: " "}
#: The letter of a game played, by (outcome, rated).
_PLAYED_LETTERS = {(2, True): "1", (1, True): "=", (0, True): "0", (2, False): "W", (1, False): "D", (0, False): "L"}
_SHADES = {True: "w", False: "b", None: "-"}


def crosstable_of(sheet: Scoresheet) -> Crosstable:
    """The crosstable of a ``ranking.scoring.scoresheet.Scoresheet``: each round as the scoresheet
    decided it (withdrawals applied, matches of several games made one round, every scoring's
    points), so that the standings engine (``ranking.crosstable_standings``) reads a tournament
    built from any file, the store or the bot as it reads a file straight.  The points, game
    points and rated flags of each round are the scoresheet's (``Crosstable.points``)."""
    letters, colours, opponents, fouls, points, game_points, rated = [], [], [], [], [], [], []
    any_fouls = False
    for rows in sheet.records:
        letters.append("".join(_PLAYED_LETTERS[record.outcome, record.rated] if record.kind is Kind.PLAYED
                               else _KIND_LETTERS[record.kind] for record in rows))
        colours.append("".join(_SHADES[record.first_mover] for record in rows))
        opponents.append([record.opponent for record in rows])
        fouls.append([record.fouls for record in rows])
        any_fouls = any_fouls or any(fouls[-1])
        points.append([record.points for record in rows])
        game_points.append([record.game_points for record in rows])
        rated.append([record.rated for record in rows])
    players = sheet.players
    last_bye = max((number for rows in sheet.records for number, record in enumerate(rows, start=1)
                    if record.opponent < 0 and record.kind is not Kind.ZERO_BYE), default=0)
    table = Crosstable(sheet.tournament.name, [player.id for player in players], [player.name for player in players],
                       [player.rating for player in players], [player.federation for player in players], sheet.rounds,
                       letters, colours, opponents, fouls if any_fouls else None,
                       "round-robin" if sheet.round_robin else "swiss", None, (), last_bye)
    table.points, table.game_points, table.rated = points, game_points, rated
    tpn = pairing_numbers(sheet.tournament)
    table.tpn = [tpn[player.id] for player in players]
    return table


#: ``ranking.scoring.rules.Scoring``'s fields, as a sheet reads them.
_SCORING_FIELDS = ("win", "draw", "loss", "draw_first", "draw_second", "pairing_bye", "full_bye", "half_bye",
                   "zero_bye", "forfeit_win", "forfeit_loss", "match")


def engine_of(scoresheet: Scoresheet) -> ColumnSheet:
    """The columnar sheet of a ``ranking.scoring.scoresheet.Scoresheet`` (kept in its cache): the
    registry's tie-breaks (``ranking.tiebreaks.individual``) compute on it, with the rounds, points,
    totals and options the scoresheet holds, exactly as ``tiebreak standings FILE`` computes on
    the columns of a file."""
    found = scoresheet.cache.get("engine")
    if found is None:
        options = scoresheet.options
        bye_value = str(options.bye_value_in_bh)
        found = scoresheet.cache["engine"] = ColumnSheet(
            crosstable_of(scoresheet), {name: getattr(scoresheet.scoring, name) for name in _SCORING_FIELDS},
            str(options.fide_edition), scoresheet.rounds, bye_value=bye_value,
            lowest_score=scoresheet.lowest_score if bye_value == "lowest-score" else 0.0,
            keep_rounds=options.keep_rounds, de_mode=str(options.de_mode), scores=scoresheet.scores,
            adjusted=scoresheet.adjusted_scores)
    return found
