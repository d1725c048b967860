"""A scoresheet's rounds as the standings engine's columns: the registry's tie-breaks
(``ranking.tiebreaks.individual``) compute on the columns of ``ranking.standings.engine``, fed
here from a ``ranking.scoring.scoresheet.Scoresheet`` (a tournament from any file, the store or
the bot) as ``tiebreak standings FILE`` feeds them from the file's text."""

from __future__ import annotations

from ranking.event.players import pairing_numbers
from ranking.event.rounds import Kind
from ranking.formats.crosstable import Crosstable
from ranking.standings.engine import CHESS_SCORING, ColumnSheet

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from ranking.scoring.scoresheet import Scoresheet

#: A round's letter (``ranking.formats.crosstable``) by (kind, outcome, rated): a game played by its outcome
#: and whether it is rated, any other round by its kind.
_LETTERS = {(kind, outcome, rated): letter
            for kind, letter in ((Kind.FORFEIT_WIN, "+"), (Kind.FORFEIT_LOSS, "-"), (Kind.PAIRING_BYE, "U"),
                                 (Kind.FULL_BYE, "F"), (Kind.HALF_BYE, "H"), (Kind.ZERO_BYE, "Z"), (Kind.PENDING, " "))
            for outcome in (0, 1, 2) for rated in (False, True)}
_LETTERS.update({(Kind.PLAYED, 2, True): "1", (Kind.PLAYED, 1, True): "=", (Kind.PLAYED, 0, True): "0",
                 (Kind.PLAYED, 2, False): "W", (Kind.PLAYED, 1, False): "D", (Kind.PLAYED, 0, False): "L"})
_RATED_GAMES = "0=1"  # a rated game's letter by its outcome
_SHADES = {True: "w", False: "b", None: "-"}


def crosstable_of(sheet: Scoresheet) -> Crosstable:
    """The crosstable of a ``ranking.scoring.scoresheet.Scoresheet``: each round as the scoresheet
    decided it (withdrawals applied, matches of several games made one round, every scoring's
    points), so that the standings engine (``ranking.standings.engine``) reads a tournament
    built from any file, the store or the bot as it reads a file straight.  The points, game
    points, outcomes and rated flags of each round are the scoresheet's (``Crosstable.points``)."""
    letters, colours, opponents, fouls, points, game_points, rated, results = [], [], [], [], [], [], [], []
    letter, shade = _LETTERS.__getitem__, _SHADES.__getitem__
    for rows in sheet.records:
        if not rows:
            for column in (opponents, fouls, points, game_points, rated, results):
                column.append([])
            letters.append("")
            colours.append("")
            continue
        _, kinds, against, first, outcomes, worth, games_worth, counted, fouled, _, _ = zip(*rows, strict=True)
        if kinds.count(Kind.PLAYED) == len(kinds) and all(counted):  # rated games only (the usual row)
            letters.append("".join(map(_RATED_GAMES.__getitem__, outcomes)))
        else:
            letters.append("".join(map(letter, zip(kinds, outcomes, counted, strict=True))))
        colours.append("".join(map(shade, first)))
        opponents.append(list(against))
        fouls.append(list(fouled))
        points.append(list(worth))
        game_points.append(list(games_worth))
        rated.append(list(counted))
        results.append(list(outcomes))
    players = sheet.players
    last_bye = max((max(row.rfind("U"), row.rfind("F"), row.rfind("H")) + 1 for row in letters), default=0)
    table = Crosstable(sheet.tournament.name, [player.id for player in players], [player.name for player in players],
                       [player.rating for player in players], [player.federation for player in players], sheet.rounds,
                       letters, colours, opponents, fouls if any(map(any, fouls)) else None,
                       "round-robin" if sheet.round_robin else "swiss", None, (), last_bye)
    table.points, table.game_points, table.rated, table.outcomes = points, game_points, rated, results
    tpn = pairing_numbers(sheet.tournament)
    table.tpn = [tpn[player.id] for player in players]
    return table


#: ``ranking.scoring.rules.Scoring``'s fields, as a sheet reads them.
_SCORING_FIELDS = (*CHESS_SCORING, "match")


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
