"""Play-offs for named places (docs/rules.md#play-offs, FIDE C.07 art. 3, seed 001).

Event rules may decide some places (usually 1st) by play-off, before or after tie-breaks
(C.07 3.1.1-3.1.2).  C.07 only lists what the rules must say; the format is the seed
procedure (seed 001, the Spanish regulations' "desempate mediante partidas"):

* 2 tied: a two-game match (1.a);
* 3 tied: a single round robin (2.a); if all three tie again, the next tie-break
  eliminates the lowest and the other two play the procedure of 1.a (2.b);
* 4 tied: a knock-out of two-game matches, pairings drawn by lot (3);
* 5 or more: ranked by the tie-breaks, all but the top four eliminated (4), then 3.

Play-off games are plain ``ranking.event.model.Game`` values numbered by the play-off's own
rounds (1, 2, ...), separate from the tournament's rounds: the arbiter enters them like any
result.  Everything here is a pure function of the standings, a ``PlayoffRule`` and those
games; lots are reproducible (SHA-256 of the lots seed, as the ``LOT`` tie-break).

Where the seed is silent (its item 1.b, a drawn two-game match, is not in the seed text)
the choices are explicit: ``DrawnMatch`` (default an Armageddon game, a draw counting as a
win for black), a two-way tie the round robin leaves on a named place is played off as a
match (1.a), a knock-out gets a third-place match only when a named place needs it, and
ties inside a play-off that no named place depends on are ordered by the tie-breaks (then
lots).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ranking.event.clock import clock_of
from ranking.event.model import Game
from ranking.scoring.points import board_points
from ranking.scoring.rules import DrawnMatch, PlayoffFormat, PlayoffRule, PlayoffWhen, Scoring
from ranking.standings.individual import StandingRow, Standings
from ranking.tiebreaks.lots import results_seed

KNOCKOUT_SIZE = 4  # seed 001 item 4: all but the top four are eliminated


@dataclass(frozen=True)
class PlayoffStage:
    """One part of a play-off: a match, an Armageddon game, the round robin, a semi-final..."""

    name: str
    players: tuple[int, ...]
    games: tuple[Game, ...]  # scheduled pairings; a game without a result is still to play
    decided: bool

    def points(self, scoring: Scoring) -> tuple[tuple[int, float], ...]:
        """The stage's result: each player's points in its finished games under the event's
        game scoring (a two-game match 1½-½ under 1/½/0, 3-1 under 2/1/0), best first (ties
        in the stage's order).

        >>> from ranking.event.model import Result
        >>> from ranking.scoring.rules import XIANGQI
        >>> stage = PlayoffStage("match", (7, 3), (Game(1, 7, 3, Result.DRAW), Game(2, 3, 7, Result.BLACK_WINS)), True)
        >>> stage.points(XIANGQI)
        ((7, 3.0), (3, 1.0))
        """
        totals = dict.fromkeys(self.players, 0.0)
        for game in self.games:
            white, black = board_points(scoring, game.result)
            totals[game.white] = totals.get(game.white, 0.0) + white
            totals[game.black] = totals.get(game.black, 0.0) + black
        return tuple(sorted(totals.items(), key=lambda item: -item[1]))

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "players": list(self.players),
            "decided": self.decided,
            "games": [_game_json(game) for game in self.games],
        }


@dataclass(frozen=True)
class PlayoffGroup:
    """The players tied for one or more play-off places and the state of their play-off.

    ``tiers`` is the order so far, best first: a tier of several players still awaits
    (part of) the play-off; the group is decided when every tier is a single player.
    """

    places: tuple[int, ...]  # the named play-off places this group covers
    first_place: int  # the best place the group occupies
    players: tuple[int, ...]  # the tied players, in standings (tie-break) order
    format: PlayoffFormat
    entrants: tuple[int, ...]  # who plays: the top four by tie-breaks when 5 or more tie
    eliminated: tuple[int, ...]  # seed item 4: the rest, in tie-break order
    stages: tuple[PlayoffStage, ...]
    tiers: tuple[tuple[int, ...], ...]

    @property
    def decided(self) -> bool:
        return all(len(tier) == 1 for tier in self.tiers)

    @property
    def order(self) -> tuple[int, ...]:
        """The resulting order of the group once decided, else ()."""
        return tuple(tier[0] for tier in self.tiers) if self.decided else ()

    @property
    def required(self) -> tuple[int, ...]:
        """Players whose place still awaits the play-off ("play-off required")."""
        return tuple(player for tier in self.tiers if len(tier) > 1 for player in tier)

    @property
    def schedule(self) -> tuple[Game, ...]:
        return tuple(game for stage in self.stages for game in stage.games)

    @property
    def pending(self) -> tuple[Game, ...]:
        """Scheduled games still without a result."""
        return tuple(game for game in self.schedule if game.result is None)

    def as_json(self) -> dict[str, Any]:
        return {
            "places": list(self.places),
            "first_place": self.first_place,
            "players": list(self.players),
            "format": str(self.format),
            "entrants": list(self.entrants),
            "eliminated": list(self.eliminated),
            "decided": self.decided,
            "order": list(self.order),
            "required": list(self.required),
            "stages": [stage.as_json() for stage in self.stages],
        }


@dataclass(frozen=True)
class PlayoffStandings:
    """Standings with the play-off places applied.

    ``standings.rows`` are reordered where a play-off decided places; players still waiting
    for a play-off share the group's best place (as players tied on everything do) and are
    listed in ``required``.  Players outside the groups keep their rows.
    """

    standings: Standings
    rule: PlayoffRule
    groups: tuple[PlayoffGroup, ...]
    unexpected: tuple[Game, ...] = field(default=())  # entered games no play-off scheduled
    due: bool = True  # the event is over, so a play-off may be due (``event_over``)

    @property
    def rows(self) -> tuple[StandingRow, ...]:
        return self.standings.rows

    @property
    def required(self) -> frozenset[int]:
        return frozenset(player for group in self.groups for player in group.required)

    def playoff_required(self, player_id: int) -> bool:
        return player_id in self.required

    def pending_game(self, first: int, second: int, round_number: int | None = None) -> Game | None:
        """The scheduled play-off game of ``first`` and ``second`` (either colour) still waiting
        for a result, in play-off round ``round_number`` or else the earliest; None when the
        play-off schedules no such game: the one test of whether a play-off result may be
        recorded, for the command line and the bot (docs/rules.md#play-offs)."""
        pair = {first, second}
        waiting = [game for group in self.groups for game in group.pending
                   if {game.white, game.black} == pair and round_number in (None, game.round)]
        return min(waiting, key=lambda game: game.round, default=None)

    def as_json(self) -> dict[str, Any]:
        """``Standings.as_json`` plus a ``"playoff"`` key on the rows of play-off groups
        (``"required"`` or ``"decided"``) and a top-level ``"playoffs"`` list."""
        data = self.standings.as_json()
        required = self.required
        decided = {player for group in self.groups for player in group.players} - required
        for row in data["standings"]:
            if row["id"] in required:
                row["playoff"] = "required"
            elif row["id"] in decided:
                row["playoff"] = "decided"
        data["playoff_rule"] = self.rule.as_json()
        data["playoffs"] = [group.as_json() for group in self.groups]
        return data


# -- the public functions ---------------------------------------------------------------------

def playoff_status(standings: Standings, rule: PlayoffRule, games: Iterable[Game] = (),
                   *, only_when_complete: bool = True) -> list[PlayoffGroup]:
    """The play-off groups for the rule's places, their schedules and results so far.

    A group is the set of players tied on points ("before-tiebreaks") or on points and
    every tie-break ("after-tiebreaks") that covers a named place, when it has two or
    more players (docs/rules.md#play-offs).  With ``only_when_complete`` (the default) nothing is
    reported before the event is over (``event_over``): a play-off follows the tournament.
    """
    return list(_evaluate(standings, rule, games, not only_when_complete or event_over(standings))[0])


def apply_playoffs(standings: Standings, rule: PlayoffRule, games: Iterable[Game] = (),
                   *, only_when_complete: bool = True) -> PlayoffStandings:
    """Standings with decided play-offs ranking their places (docs/rules.md#play-offs, C.07 3).

    Each group's rows are reordered by its tiers; a tier of several players (play-off not
    yet decided) shares the best place of the tier and is marked "play-off required".
    """
    due = not only_when_complete or event_over(standings)
    groups, unexpected = _evaluate(standings, rule, games, due)
    rows = list(standings.rows)
    index = {row.player.id: position for position, row in enumerate(rows)}
    for group in groups:
        start = group.first_place - 1
        original = {player: rows[index[player]] for player in group.players}
        position = start
        for tier in group.tiers:
            for offset, player in enumerate(tier):
                rows[position + offset] = replace(original[player], rank=position + 1)
            position += len(tier)
    return PlayoffStandings(replace(standings, rows=tuple(rows)), rule, groups, unexpected, due)


def event_over(standings: Standings) -> bool:
    """Whether ``standings`` are the event's last, so a play-off may be due: the event is
    finished by its clock (its last round paired and every board decided,
    ``ranking.event.clock``) and the standings are after the last round.  Results entered in
    the last round while another board waits do not end the event: a play-off follows the
    tournament (docs/rules.md#play-offs)."""
    return standings.after_round >= standings.tournament.rounds and clock_of(standings.tournament).finished


# -- finding the groups -----------------------------------------------------------------------

def _evaluate(standings: Standings, rule: PlayoffRule, games: Iterable[Game],
              due: bool) -> tuple[tuple[PlayoffGroup, ...], tuple[Game, ...]]:
    entered = list(games)
    if not due:
        return (), tuple(entered)
    rows = standings.rows
    options = standings.rules.options
    seed = options.lots_seed or standings.lots_seed or results_seed(standings.tournament)
    board = _Board(entered)
    groups = []
    covered: set[int] = set()
    for place in rule.places:
        if place > len(rows) or place - 1 in covered:
            continue
        start, stop = _tied_run(rows, place - 1, rule.when)
        covered.update(range(start, stop))
        if stop - start < 2:
            continue
        places = tuple(p for p in rule.places if start < p <= stop)
        needed = frozenset(p - 1 - start for p in places)
        ctx = _Context(board, seed, start + 1, rows, needed, rule.drawn_match)
        groups.append(_group(rows[start:stop], start + 1, places, ctx))
    return tuple(groups), board.unexpected()


def _tied_run(rows: Sequence[StandingRow], position: int, when: PlayoffWhen) -> tuple[int, int]:
    """The run of rows around ``position`` tied on points (before) or on everything (after)."""
    if when is PlayoffWhen.BEFORE_TIEBREAKS:
        def key(row: StandingRow) -> object:
            return row.points
    else:
        def key(row: StandingRow) -> object:
            return row.rank
    target = key(rows[position])
    start = position
    while start > 0 and key(rows[start - 1]) == target:
        start -= 1
    stop = position + 1
    while stop < len(rows) and key(rows[stop]) == target:
        stop += 1
    return start, stop


class _Board:
    """The entered play-off games, found by play-off round and pair of players."""

    def __init__(self, games: list[Game]) -> None:
        self.games = games
        self.by_key = {(game.round, frozenset((game.white, game.black))): game for game in games}
        self.used: set[tuple[int, frozenset[int]]] = set()

    def fill(self, scheduled: Game) -> Game:
        """The entered game for a scheduled pairing (its colours as entered), else the pairing."""
        key = (scheduled.round, frozenset((scheduled.white, scheduled.black)))
        found = self.by_key.get(key)
        if found is None:
            return scheduled
        self.used.add(key)
        return found

    def unexpected(self) -> tuple[Game, ...]:
        return tuple(game for game in self.games
                     if (game.round, frozenset((game.white, game.black))) not in self.used)


@dataclass
class _Context:
    """What one group's play-off needs: entered games, lots, tie-break order, needed places."""

    board: _Board
    seed: str
    first_place: int
    rows: Sequence[StandingRow]
    needed: frozenset[int]  # named places, relative to the group (0 = its best)
    drawn_match: DrawnMatch

    def __post_init__(self) -> None:
        self.rank = {row.player.id: row.rank for row in self.rows}
        self.position = {row.player.id: index for index, row in enumerate(self.rows)}

    def lot(self, player: int, label: str) -> str:
        text = f"{self.seed}|play-off {self.first_place}|{label}|{player}"
        return hashlib.sha256(text.encode()).hexdigest()

    def by_lot(self, players: Iterable[int], label: str) -> list[int]:
        return sorted(players, key=lambda player: self.lot(player, label))

    def by_tiebreaks(self, players: Iterable[int]) -> list[int]:
        """Best first by points and tie-breaks (the standings' rank), equal ranks by lot (C.07 4.2)."""
        return sorted(players, key=lambda player: (self.rank[player], self.lot(player, "tie-breaks")))

    def needs(self, start: int, stop: int) -> bool:
        """Does a named place fall in the group positions [start, stop)?"""
        return any(start <= place < stop for place in self.needed)


def _group(rows: Sequence[StandingRow], first_place: int, places: tuple[int, ...],
           ctx: _Context) -> PlayoffGroup:
    players = tuple(row.player.id for row in rows)
    eliminated: tuple[int, ...] = ()
    if len(players) == 2:
        form = PlayoffFormat.MATCH
        entrants = players
        stages, tiers, _ = _match(ctx, entrants, 1, "match")
    elif len(players) == 3:
        form = PlayoffFormat.ROUND_ROBIN
        entrants = players
        stages, tiers = _round_robin(ctx, entrants)
    else:
        form = PlayoffFormat.KNOCKOUT
        ranked = ctx.by_tiebreaks(players)
        entrants = tuple(ranked[:KNOCKOUT_SIZE])
        eliminated = tuple(ranked[KNOCKOUT_SIZE:])
        stages, tiers = _knockout(ctx, entrants)
        tiers = tiers + [[player] for player in eliminated]
    return PlayoffGroup(places, first_place, players, form, entrants, eliminated, tuple(stages),
                        tuple(tuple(tier) for tier in tiers))


# -- the formats ------------------------------------------------------------------------------

def _scores(games: Iterable[Game]) -> dict[int, int]:
    """Half-points per player (2 win, 1 draw, 0 loss), whatever the tournament's scoring."""
    totals: dict[int, int] = {}
    for game in games:
        white, black = game.result.outcomes if game.result is not None else (0, 0)
        totals[game.white] = totals.get(game.white, 0) + white
        totals[game.black] = totals.get(game.black, 0) + black
    return totals


def _match(ctx: _Context, pair: Sequence[int], start: int,
           name: str) -> tuple[list[PlayoffStage], list[list[int]], int]:
    """Seed 1.a: a two-game match from play-off round ``start``, each player white once (who
    starts with white by lot); a drawn match goes on as ``DrawnMatch`` says.

    Returns the stages, the tiers of the pair (one tier while undecided) and the last
    play-off round used.
    """
    first, second = ctx.by_lot(pair, f"{name} colours")
    games = (ctx.board.fill(Game(start, first, second, None)),
             ctx.board.fill(Game(start + 1, second, first, None)))
    waiting = [ctx.by_tiebreaks(pair)]
    if any(game.result is None for game in games):
        return [PlayoffStage(name, (first, second), games, False)], waiting, start + 1
    scores = _scores(games)
    if scores[first] != scores[second]:
        winner, loser = (first, second) if scores[first] > scores[second] else (second, first)
        return [PlayoffStage(name, (first, second), games, True)], [[winner], [loser]], start + 1
    if ctx.drawn_match is DrawnMatch.TIEBREAKS:
        stage = PlayoffStage(name, (first, second), games, True)
        return [stage], [[player] for player in ctx.by_tiebreaks(pair)], start + 1
    stage = PlayoffStage(name, (first, second), games, True)
    white, black = ctx.by_lot(pair, f"{name} armageddon")
    decider = ctx.board.fill(Game(start + 2, white, black, None))
    if decider.result is None:
        return [stage, PlayoffStage(f"{name} armageddon", (white, black), (decider,), False)], waiting, start + 2
    outcome_white, outcome_black = decider.result.outcomes
    order = [decider.white, decider.black] if outcome_white > outcome_black else [decider.black, decider.white]
    armageddon = PlayoffStage(f"{name} armageddon", (white, black), (decider,), True)
    return [stage, armageddon], [[order[0]], [order[1]]], start + 2


# Berger table for three players (the fourth number is the bye): (white, black) per round.
_THREE_PLAYER_ROUNDS = ((1, 2), (0, 1), (2, 0))


def _round_robin(ctx: _Context, players: Sequence[int]) -> tuple[list[PlayoffStage], list[list[int]]]:
    """Seed 2.a: a single round robin, pairing numbers by lot (C.07 3.1.4).

    If all three tie again (2.b) the next tie-break eliminates the lowest and the other two
    play a match (1.a); two still tied for a named place also play a match (1.a).
    """
    numbered = ctx.by_lot(players, "round robin")
    games = tuple(ctx.board.fill(Game(number + 1, numbered[white], numbered[black], None))
                  for number, (white, black) in enumerate(_THREE_PLAYER_ROUNDS))
    if any(game.result is None for game in games):
        return [PlayoffStage("round robin", tuple(numbered), games, False)], [ctx.by_tiebreaks(players)]
    stages = [PlayoffStage("round robin", tuple(numbered), games, True)]
    scores = _scores(games)
    ranked = sorted(players, key=lambda player: -scores[player])
    runs: list[list[int]] = []
    for player in ranked:
        if runs and scores[runs[-1][0]] == scores[player]:
            runs[-1].append(player)
        else:
            runs.append([player])
    tiers: list[list[int]] = []
    offset = 0
    next_round = len(games) + 1
    for run in runs:
        if len(run) == 3:  # 2.b: the next tie-break eliminates the lowest placed
            *rest, lowest = ctx.by_tiebreaks(run)
            run_tiers = [*_tied_pair(ctx, rest, offset, next_round, stages), [lowest]]
        elif len(run) == 2:
            run_tiers = _tied_pair(ctx, run, offset, next_round, stages)
        else:
            run_tiers = [run]
        tiers.extend(run_tiers)
        offset += len(run)
    return stages, tiers


def _tied_pair(ctx: _Context, pair: list[int], offset: int, start: int,
               stages: list[PlayoffStage]) -> list[list[int]]:
    """Two players still tied: a match (1.a) if a named place depends on them, else tie-breaks."""
    if not ctx.needs(offset, offset + 2):
        return [[player] for player in ctx.by_tiebreaks(pair)]
    more, tiers, _ = _match(ctx, pair, start, "match")
    stages.extend(more)
    return tiers


def _knockout(ctx: _Context, players: Sequence[int]) -> tuple[list[PlayoffStage], list[list[int]]]:
    """Seed 3: two-game knock-out matches, the pairings drawn by lot.

    The final decides the group's first two places; the losing semi-finalists play for
    third place only when a named place depends on it (else the tie-breaks order them, as
    they do the finalists if no named place is among the first two).
    """
    if not ctx.needs(0, len(players)):  # seed 4: only places among the eliminated are named
        return [], [[player] for player in ctx.by_tiebreaks(players)]
    drawn = ctx.by_lot(players, "knock-out draw")
    semis = [_match(ctx, drawn[0:2], 1, "semi-final 1"), _match(ctx, drawn[2:4], 1, "semi-final 2")]
    stages = [stage for semi in semis for stage in semi[0]]
    if any(len(semi[1]) == 1 for semi in semis):
        return stages, [ctx.by_tiebreaks(players)]
    start = max(semi[2] for semi in semis) + 1
    finalists = [semi[1][0][0] for semi in semis]
    losers = [semi[1][1][0] for semi in semis]
    if ctx.needs(0, 2):
        final_stages, final_tiers, _ = _match(ctx, finalists, start, "final")
        stages.extend(final_stages)
    else:
        final_tiers = [[player] for player in ctx.by_tiebreaks(finalists)]
    if ctx.needs(2, 4):
        third_stages, third_tiers, _ = _match(ctx, losers, start, "third place")
        stages.extend(third_stages)
    else:
        third_tiers = [[player] for player in ctx.by_tiebreaks(losers)]
    return stages, final_tiers + third_tiers


def _game_json(game: Game) -> dict[str, Any]:
    return {"round": game.round, "white": game.white, "black": game.black,
            "result": None if game.result is None else str(game.result)}

