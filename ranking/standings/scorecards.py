"""Scorecards: what a results service shows for one player or team beside the standings.

A player's scorecard is the card chess-results shows: per round the opponent, colour, result
and points, and the running score, with the performance figures of FIDE C.07 10 (ARO, TPR).
A team's scorecard gives each round's opponent and its match and game points.  Both are read
from the same scoresheets as the standings (withdrawals applied first, docs/rules.md#withdrawals), so a card
cannot disagree with them.  ``legend`` and ``team_legend`` say what each code of a chain is.

>>> from ranking.event.model import Player, Game, Result, Tournament
>>> t = Tournament("Mini", (Player(1, "A", 2000), Player(2, "B", 1800)), 2,
...                (Game(1, 1, 2, Result.DRAW), Game(2, 2, 1, Result.BLACK_WINS)))
>>> card = player_scorecards(t)[1]
>>> [(r.round, r.opponent, r.white, r.points, r.score) for r in card.rounds]
[(1, 2, True, 0.5, 0.5), (2, 2, False, 1.0, 1.5)]
>>> card.aro, card.tpr  # 1½ of 2 against 1800: 1800 + 193 (FIDE B.02 8.1.1)
(1800, 1993)
>>> [(entry.code, entry.name, entry.description) for entry in legend(["BH-C1"])]
[('BH-C1', 'Buchholz', "Buchholz without the lowest opponent's score")]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from ranking.event.model import Bye, ByeKind, Game, Player, Result, Team, TeamEvent, Tournament
from ranking.event.rounds import NO_OPPONENT, Kind
from ranking.event.withdrawals import apply_withdrawals
from ranking.scoring.rules import Rules
from ranking.scoring.scoresheet import Scoresheet
from ranking.scoring.team_sheet import TeamSheet
from ranking.standings.individual import default_rules
from ranking.tiebreaks.codes import TiebreakSpec
from ranking.tiebreaks.individual import REGISTRY, average_rating_of_opponents, tournament_performance
from ranking.tiebreaks.registry import Registry
from ranking.tiebreaks.team import TEAM_REGISTRY


class CardRound(NamedTuple):
    """One round of a player's scorecard.

    ``board``, ``opponent`` (a starting number), ``white`` (True: the player had white, red in
    xiangqi) and ``result`` (from white's side, None while unfinished) describe the round's game
    as the standings count it: a game left unplayed by a withdrawal is a forfeit
    (docs/rules.md#withdrawals), and so is one the file never listed (VN 21.5.1); ``annulled``
    marks a game a withdrawal annulled (VN 21.5.1), which counts nothing.  ``bye`` is the round's
    bye when there is no game.  ``points`` are what the round counts in the standings and
    ``score`` the running score after it; both are None while the game is unfinished.  A round
    without game or bye (an absence) has neither ``opponent`` nor ``bye``.

    A named tuple, as ``ranking.scoring.scoresheet.RoundRecord``: a site builds one per player and
    round, and a tuple costs a tenth of a frozen dataclass to make and to pickle.
    """

    round: int
    board: int | None = None
    opponent: int | None = None
    white: bool | None = None
    result: Result | None = None
    bye: ByeKind | None = None
    points: float | None = None
    score: float | None = None
    annulled: bool = False


@dataclass(frozen=True, slots=True)
class Scorecard:
    """A player's rounds 1, 2, ... and performance: ``aro`` the average rating of the opponents
    (C.07 10.1) and ``tpr`` the tournament performance rating (C.07 10.2), None without a rated
    game over the board."""

    player: Player
    rounds: tuple[CardRound, ...]
    aro: int | None = None
    tpr: int | None = None

    @property
    def points(self) -> float:
        """The points of the rounds on the card."""
        return sum(entry.points for entry in self.rounds if entry.points is not None)


def player_scorecards(tournament: Tournament, rules: Rules | None = None,
               after_round: int | None = None, *, sheet: Scoresheet | None = None) -> dict[int, Scorecard]:
    """Every player's scorecard for rounds 1 to ``after_round`` (default: the last round with a
    result, as for the standings) under ``rules`` (default: the tournament's own, completed by
    the FIDE default chain), by starting number.  Where a round holds more than one game of a
    player (a mini-match), the card shows the last one entered and the points of them all.
    ``sheet``: ``played_sheet(tournament, rules, after_round)`` when the caller has it (the one
    its standings read: ``compute_standings``)."""
    rules = rules or default_rules(tournament)
    effects = apply_withdrawals(tournament, rules)
    sheet = sheet or Scoresheet(effects.tournament, rules, after_round)
    aro = average_rating_of_opponents(sheet, TiebreakSpec("ARO", "ARO"))
    tpr = tournament_performance(sheet, TiebreakSpec("TPR", "TPR"))
    games: dict[tuple[int, int], Game] = {}
    for game in (*effects.annulled, *effects.tournament.games):
        games[game.white, game.round] = games[game.black, game.round] = game
    annulled = set(map(id, effects.annulled))
    byes: dict[tuple[int, int], Bye] = {(bye.player, bye.round): bye for bye in tournament.byes}
    # a thousand players of eleven rounds at every result on the site: names bound once, each
    # round's tuple made whole (tuple.__new__: no call through the defaults of CardRound's fields)
    pending, find_game, find_bye, make = Kind.PENDING, games.get, byes.get, tuple.__new__
    cards = {}
    for index, player in enumerate(sheet.players):
        rounds = []
        score = 0.0
        me = player.id
        for record in sheet.records[index]:
            points = None if record.kind is pending else record.points
            if points is None:
                running = None
            else:
                score += points
                running = score
            number = record.round
            game = find_game((me, number))
            if game is not None:
                white = game.white == me
                rounds.append(make(CardRound, (number, game.board, game.black if white else game.white, white,
                                               game.result, None, points, running, id(game) in annulled)))
            else:
                bye = find_bye((me, number))
                rounds.append(make(CardRound, (number, None, None, None, None, bye.kind if bye else None, points,
                                               running, False)))
        cards[me] = Scorecard(player, tuple(rounds), aro[index], tpr[index])  # type: ignore[arg-type]
    return cards


class TeamCardRound(NamedTuple):
    """One round of a team's scorecard: the opponent team (None for a bye or an absence) and the
    match and game points the round counts (None while the match is unfinished)."""

    round: int
    opponent: int | None = None
    match_points: float | None = None
    game_points: float | None = None


@dataclass(frozen=True, slots=True)
class TeamScorecard:
    team: Team
    rounds: tuple[TeamCardRound, ...]


def team_scorecards(event: TeamEvent, after_round: int | None = None) -> dict[int, TeamScorecard]:
    """Every team's scorecard for rounds 1 to ``after_round`` (default: the last round with a
    finished match, as for the team standings), by team number."""
    sheet = TeamSheet(event, after_round)
    cards = {}
    for team, records in zip(sheet.teams, sheet.records, strict=True):
        rounds = []
        for record in records:
            opponent = None if record.opponent == NO_OPPONENT else sheet.teams[record.opponent].id
            if record.kind is Kind.PENDING:
                rounds.append(TeamCardRound(record.round, opponent))
            else:
                rounds.append(TeamCardRound(record.round, opponent, record.mp, record.gp))
        cards[team.id] = TeamScorecard(team, tuple(rounds))
    return cards


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """What one code of a chain is: the tie-break's name, one-line definition and source article;
    ``orders`` for criteria that order a tied group (and report places) rather than score."""

    code: str  # as given in the chain
    name: str
    definition: str
    article: str
    orders: bool = False
    lower_is_better: bool = False
    description: str = ""  # the code in words, its modifiers too (``Registry.describe``): "Buchholz without ..."


def legend(codes: Iterable[str]) -> tuple[LegendEntry, ...]:
    """The legend of an individual chain (codes as ``tiebreak tiebreaks`` lists them)."""
    return _legend(codes, REGISTRY)


def team_legend(codes: Iterable[str]) -> tuple[LegendEntry, ...]:
    """The legend of a team chain (team codes, e.g. ``MPVGP``, ``BH:MP/C1``)."""
    return _legend(codes, TEAM_REGISTRY)


def _legend(codes: Iterable[str], registry: Registry) -> tuple[LegendEntry, ...]:
    entries = []
    for code in codes:
        spec = registry.parse(code)
        entry = registry[spec.name]
        entries.append(LegendEntry(code, entry.name, entry.definition, entry.article, entry.orders,
                                   entry.lower_is_better, registry.describe(spec)))
    return tuple(entries)
