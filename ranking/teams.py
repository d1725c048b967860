"""Team events: teams with ordered rosters, team matches made of board games, team standings.

RULES.md 1 "Teams": game points (GP, 局分) are the sum of the board results; match points
(MP, 场分) go to the team with more game points, 2/1/0 by default (CXA 13.2, FIDE C.07 11.1).
Team tie-breaks live in ``ranking.team_tiebreaks``.  Everything here is a frozen dataclass or a
plain function; nothing changes the individual model (``ranking.model``).

>>> event = TeamEvent("Mini", (Team(1, "A"), Team(2, "B")), 1,
...                   (TeamMatch(1, 1, 2, first_points=2.5, second_points=1.5),))
>>> [(row.rank, row.team.name, row.match_points, row.game_points) for row in team_standings(event).rows]
[(1, 'A', 2.0, 2.5), (2, 'B', 0.0, 1.5)]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ranking.errors import InputError
from ranking.model import Game, GameKind, Player, Result, Tournament
from ranking.presets import PRESETS
from ranking.rules import CHESS, XIANGQI, Options, Outcome, Rules, Scoring
from ranking.scoresheet import NO_OPPONENT, Kind

# -- the model ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Team:
    """A team; ``roster`` holds player ids in board order, the ones after the boards are reserves."""

    id: int
    name: str
    roster: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """One team match of a round.

    ``first`` is the team with white (red) on board 1.  Game points come from the board
    ``boards`` (``Game``s between members, scored with the event's game scoring), or from the
    explicit ``first_points``/``second_points`` when only totals are known (which win when both
    are given).  ``forfeit`` marks a whole forfeited match: ``"+-"`` (first wins), ``"-+"``
    (second wins) or ``"--"`` (both lose).  A match with neither boards, totals nor forfeit, or
    with a board still without a result, is pending.
    """

    round: int
    first: int
    second: int
    boards: tuple[Game, ...] = ()
    first_points: float | None = None
    second_points: float | None = None
    forfeit: str | None = None


class TeamByeKind(enum.StrEnum):
    """An unplayed round of a team (FIDE C.07 16.1-16.2; TRF-2026 record 320/240)."""

    PAB = "PAB"  # pairing-allocated bye (16.2.1)
    HPB = "HPB"  # requested half-point bye
    ZPB = "ZPB"  # requested zero-point bye, absence, or after withdrawal
    FORFEIT_WIN = "+F"  # a forfeit win whose scheduled opponent is not recorded
    FORFEIT_LOSS = "-F"  # a forfeit loss whose scheduled opponent is not recorded


@dataclass(frozen=True, slots=True)
class TeamBye:
    round: int
    team: int
    kind: TeamByeKind = TeamByeKind.PAB


@dataclass(frozen=True)
class TeamScoring:
    """Match points 2/1/0 by default (CXA 13.2, FIDE), board games scored by ``game``.

    Unplayed matches score (MP, GP); when not given: a pairing-allocated bye and a forfeit win
    count as a won match with every board won, a half-point bye as a drawn match with every
    board drawn, a zero-point bye and a forfeit loss as a lost match with nothing
    (RULES.md 1; FIDE C.07 12: "PAB counts as a win on every board").
    """

    match_win: float = 2.0
    match_draw: float = 1.0
    match_loss: float = 0.0
    game: Scoring = CHESS
    boards: int = 4
    pab: tuple[float, float] | None = None
    hpb: tuple[float, float] | None = None
    zpb: tuple[float, float] | None = None
    forfeit_win: tuple[float, float] | None = None
    forfeit_loss: tuple[float, float] | None = None

    def unplayed(self, kind: Kind) -> tuple[float, float]:
        """(MP, GP) of an unplayed match of the given kind."""
        boards, game = self.boards, self.game
        table = {
            Kind.PAIRING_BYE: (self.pab, (self.match_win, boards * game.pairing_bye_points)),
            Kind.HALF_BYE: (self.hpb, (self.match_draw, boards * game.half_bye_points)),
            Kind.ZERO_BYE: (self.zpb, (self.match_loss, boards * game.zero_bye)),
            Kind.FORFEIT_WIN: (self.forfeit_win, (self.match_win, boards * game.forfeit_win_points)),
            Kind.FORFEIT_LOSS: (self.forfeit_loss, (self.match_loss, boards * game.forfeit_loss_points)),
        }
        given, default = table[kind]
        return given if given is not None else default

    def match_points(self, own: float, other: float) -> float:
        """CXA 13.2: the team with more game points wins the match."""
        if own > other:
            return self.match_win
        if own < other:
            return self.match_loss
        return self.match_draw

    def outcome_of(self, match_points: float) -> Outcome:
        if match_points >= self.match_win:
            return Outcome.WIN
        if match_points > self.match_loss:
            return Outcome.DRAW
        return Outcome.LOSS

    def win_value(self, score: str) -> float:
        """A won match's worth in MP, or in GP (every board won)."""
        return self.match_win if score == "MP" else self.boards * self.game.win

    def draw_value(self, score: str) -> float:
        return self.match_draw if score == "MP" else self.boards * self.game.draw


class ShortTeams(enum.StrEnum):
    """CXA 14.8 member places: a team with fewer ranked members than required."""

    UNRANKED = "unranked"  # no SUMRANK value: ranked after every complete team
    LAST_PLACE = "last-place"  # each missing member counts as the last place


@dataclass(frozen=True)
class TeamRules:
    """The primary score (``"MP"`` then GP, or ``"GP"`` then MP), the team tie-break chain and options.

    ``options`` are the individual ones of RULES.md 3 that apply (``fide_edition``,
    ``de_mode``, ``keep_rounds``).  ``individual`` ranks the members for SUMPTS/SUMRANK
    (default: the game scoring with the FIDE Swiss chain); ``members`` is how many members'
    places SUMRANK adds (0: the number of boards).  ``round_robin``: forfeits count as played
    matches (C.07 15.2).
    """

    tiebreaks: tuple[str, ...] = ()
    primary: str = "MP"
    options: Options = field(default_factory=Options)
    individual: Rules | None = None
    members: int = 0
    short_teams: ShortTeams = ShortTeams.UNRANKED
    round_robin: bool = False
    description: str = ""

    @property
    def secondary(self) -> str:
        return "GP" if self.primary == "MP" else "MP"


@dataclass(frozen=True)
class TeamEvent:
    """A team tournament: teams, matches and byes; ``players`` name the members (for SUMRANK)."""

    name: str
    teams: tuple[Team, ...]
    rounds: int
    matches: tuple[TeamMatch, ...] = ()
    byes: tuple[TeamBye, ...] = ()
    scoring: TeamScoring = field(default_factory=TeamScoring)
    rules: TeamRules = field(default_factory=TeamRules)
    players: tuple[Player, ...] = ()

    def team(self, team_id: int) -> Team:
        for team in self.teams:
            if team.id == team_id:
                return team
        raise KeyError(team_id)

    @property
    def rounds_with_results(self) -> int:
        """The last round with a finished match (or, with no match yet, the last bye)."""
        finished = [match.round for match in self.matches if _is_finished(match)]
        if finished:
            return max(finished)
        return max((bye.round for bye in self.byes), default=0) if not self.matches else 0


@dataclass(frozen=True)
class TeamPreset:
    scoring: TeamScoring
    rules: TeamRules
    description: str


#: RULES.md 4 team presets.
TEAM_PRESETS: dict[str, TeamPreset] = {
    "fide-team": TeamPreset(
        TeamScoring(), TeamRules(("GP", "EDE", "EMGSB")),
        "FIDE C.07 11-13 team events: match points, then game points, extended direct "
        "encounter (13.3), extended Sonneborn-Berger opponents' MP x own GP (13.2)"),
    "cxa-team": TeamPreset(
        TeamScoring(game=XIANGQI), TeamRules(("GP", "EDE", "BH:MP")),
        "CXA 13.2 / ZS team events: match points 2/1/0 from board totals, then game points, "
        "direct encounter, Buchholz on match points"),
    "cxa-team-places": TeamPreset(
        TeamScoring(game=XIANGQI), TeamRules(("SUMRANK",), primary="PLACES"),
        "CXA 14.8 (WXF team championship): the sum of the members' individual places, "
        "then the best single place"),
}

#: VN 21.2 two-game individual matches: an individual preset (``ranking.presets``, "vn-match").
VN_MATCH = PRESETS["vn-match"]


def vn_absence_games(round_number: int, present: int, absent: int) -> tuple[Game, Game]:
    """VN 21.2: an absent player loses both games by forfeit, so the opponent scores 1 match
    point and 4 game points (two forfeit wins of 2)."""
    return (Game(round_number, present, absent, Result.WHITE_WINS_FORFEIT),
            Game(round_number, absent, present, Result.BLACK_WINS_FORFEIT))


def get_team_preset(name: str) -> TeamPreset:
    try:
        return TEAM_PRESETS[name]
    except KeyError:
        raise InputError(f"unknown team preset {name!r}: expected one of {', '.join(TEAM_PRESETS)}") from None


# -- each team's rounds ------------------------------------------------------------------------


class TeamRecord(NamedTuple):
    """One team's round, as team tie-breaks see it.

    ``opponent`` indexes ``TeamSheet.teams`` (or NO_OPPONENT); ``boards`` is ((board, own game
    points), ...) for matches with board results; ``category`` is the FIDE C.07 16.2 category of
    an unplayed round (0 for a match played) and ``vur`` marks a voluntary unplayed round.
    """

    round: int
    kind: Kind
    opponent: int
    first: bool | None
    mp: float
    gp: float
    outcome: Outcome
    boards: tuple[tuple[int, float], ...]
    fouls: int
    category: int
    vur: bool

    def score(self, which: str) -> float:
        return self.mp if which == "MP" else self.gp


_BYE_KINDS = {TeamByeKind.PAB: Kind.PAIRING_BYE, TeamByeKind.HPB: Kind.HALF_BYE, TeamByeKind.ZPB: Kind.ZERO_BYE,
              TeamByeKind.FORFEIT_WIN: Kind.FORFEIT_WIN, TeamByeKind.FORFEIT_LOSS: Kind.FORFEIT_LOSS}


def _is_finished(match: TeamMatch) -> bool:
    if match.forfeit is not None or (match.first_points is not None and match.second_points is not None):
        return True
    return bool(match.boards) and all(game.result is not None for game in match.boards)


class TeamSheet:
    """Every team's rounds 1..``rounds`` with MP and GP; built once per standings."""

    def __init__(self, event: TeamEvent, after_round: int | None = None) -> None:
        self.event = event
        self.scoring = event.scoring
        self.rules = event.rules
        self.options = event.rules.options
        self.teams = event.teams
        self.index = {team.id: number for number, team in enumerate(self.teams)}
        if len(self.index) != len(self.teams):
            raise InputError("two teams share a number")
        last = event.rounds_with_results if after_round is None else after_round
        if last < 0 or last > max(event.rounds, event.rounds_with_results):
            raise InputError(f"--after-round {last}: the event has {event.rounds} rounds")
        self.rounds = last
        self.cache: dict[object, object] = {}
        self.records = self._build()
        self.mp = [sum(record.mp for record in rows) for rows in self.records]
        self.gp = [sum(record.gp for record in rows) for rows in self.records]

    def score(self, which: str) -> list[float]:
        return self.mp if which == "MP" else self.gp

    def seen(self, which: str) -> list[float]:
        """Scores as opponents see them (C.07 16.3): category-5 rounds count as drawn matches."""
        key = ("seen", which)
        if key not in self.cache:
            draw = self.scoring.draw_value(which)
            self.cache[key] = [
                score + sum(draw - record.score(which) for record in rows if record.category == 5)
                for score, rows in zip(self.score(which), self.records, strict=True)]
        return self.cache[key]  # type: ignore[return-value]

    def is_free_round(self, record: TeamRecord) -> bool:
        """The round a team sits out in a round robin (C.07 15.2-15.3, RULES.md 3.1): no
        unplayed round; it adds nothing to BH:MP, BH:GP, the ESB family or the board
        tie-breaks (any points the event awards for it count in MP and GP)."""
        return (self.rules.round_robin and record.opponent == NO_OPPONENT and record.kind is not Kind.PENDING
                and not record.kind.is_forfeit)  # a forfeit recorded without its opponent stays one

    def counts_as_played(self, record: TeamRecord, forfeits_played: bool) -> bool:
        """A match over the board, or a forfeited one in a round robin (C.07 15.2) or with /P."""
        if record.kind is Kind.PLAYED:
            return True
        return record.kind.is_forfeit and record.opponent != NO_OPPONENT and (
            self.rules.round_robin or forfeits_played)

    # -- building ------------------------------------------------------------------------------

    def _team_index(self, team_id: int) -> int:
        try:
            return self.index[team_id]
        except KeyError:
            raise InputError(f"team {team_id} is not in the event") from None

    def _build(self) -> list[list[TeamRecord]]:
        Side = tuple  # (kind, opponent, first, mp, gp, boards, fouls)
        sides: list[list[Side | None]] = [[None] * self.rounds for _ in self.teams]
        for match in self.event.matches:
            if match.round > self.rounds:
                continue
            first, second = self._team_index(match.first), self._team_index(match.second)
            if first == second:
                raise InputError(f"round {match.round}: team {match.first} is paired with itself")
            for me, side in zip((first, second), self._match_sides(match, first, second), strict=True):
                if sides[me][match.round - 1] is not None:
                    raise InputError(f"round {match.round}: team {self.teams[me].id} plays twice")
                sides[me][match.round - 1] = side
        for bye in self.event.byes:
            if bye.round > self.rounds:
                continue
            me = self._team_index(bye.team)
            if sides[me][bye.round - 1] is not None:
                if bye.kind is TeamByeKind.ZPB:
                    continue
                raise InputError(f"round {bye.round}: team {bye.team} has a bye and a match")
            kind = _BYE_KINDS[TeamByeKind(bye.kind)]
            sides[me][bye.round - 1] = (kind, NO_OPPONENT, None, *self.scoring.unplayed(kind), (), 0)
        absent = (Kind.ZERO_BYE, NO_OPPONENT, None, *self.scoring.unplayed(Kind.ZERO_BYE), (), 0)
        return [self._categorise([side or absent for side in row]) for row in sides]

    def _match_sides(self, match: TeamMatch, first: int, second: int) -> tuple[tuple, tuple]:
        scoring = self.scoring
        if match.forfeit is not None:
            kinds = {"+-": (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS), "-+": (Kind.FORFEIT_LOSS, Kind.FORFEIT_WIN),
                     "--": (Kind.FORFEIT_LOSS, Kind.FORFEIT_LOSS)}.get(match.forfeit)
            if kinds is None:
                raise InputError(f"round {match.round}: forfeit {match.forfeit!r}: expected +-, -+ or --")
            return ((kinds[0], second, True, *scoring.unplayed(kinds[0]), (), 0),
                    (kinds[1], first, False, *scoring.unplayed(kinds[1]), (), 0))
        if not _is_finished(match):
            return ((Kind.PENDING, second, True, 0.0, 0.0, (), 0), (Kind.PENDING, first, False, 0.0, 0.0, (), 0))
        first_boards, second_boards, fouls, played = self._boards(match)
        if match.first_points is not None and match.second_points is not None:
            own, other = match.first_points, match.second_points
            played = True
        else:
            own, other = sum(p for _, p in first_boards), sum(p for _, p in second_boards)
        kind_first = kind_second = Kind.PLAYED
        if not played:  # every board forfeited: the match is unplayed (C.07 15.1)
            kind_first = Kind.FORFEIT_WIN if own > other else Kind.FORFEIT_LOSS
            kind_second = Kind.FORFEIT_WIN if other > own else Kind.FORFEIT_LOSS
        return ((kind_first, second, True, scoring.match_points(own, other), own, first_boards, fouls[0]),
                (kind_second, first, False, scoring.match_points(other, own), other, second_boards, fouls[1]))

    def _boards(self, match: TeamMatch):
        """Per-board game points of both teams; board n's first team has white when its roster
        says so, otherwise white on odd boards (the usual alternation from board 1)."""
        game_scoring = self.scoring.game
        first_roster = set(self.event.team(match.first).roster)
        second_roster = set(self.event.team(match.second).roster)
        first_boards, second_boards = [], []
        fouls = [0, 0]
        played = False
        for position, game in enumerate(match.boards):
            board = game.board or position + 1
            if game.white in first_roster or game.black in second_roster:
                first_white = True
            elif game.black in first_roster or game.white in second_roster:
                first_white = False
            else:
                first_white = board % 2 == 1
            white_points, black_points = board_points(game_scoring, game.result)
            if game.result is not None and not game.result.is_forfeit:
                played = True
            mine, theirs = (white_points, black_points) if first_white else (black_points, white_points)
            first_boards.append((board, mine))
            second_boards.append((board, theirs))
            white_fouls, black_fouls = game.fouls_white, game.fouls_black
            fouls[0] += white_fouls if first_white else black_fouls
            fouls[1] += black_fouls if first_white else white_fouls
        return tuple(first_boards), tuple(second_boards), fouls, played

    def _categorise(self, sides: list[tuple]) -> list[TeamRecord]:
        """FIDE C.07 16.2 categories, as for players (``ranking.scoresheet``): in a round robin
        forfeits are the only unplayed rounds (15.2-15.3), so the free round of an odd field has
        no category and is not a VUR (RULES.md 3.1)."""
        records: list[TeamRecord] = []
        only_vurs_follow = True
        round_robin = self.rules.round_robin
        for number in range(len(sides), 0, -1):
            kind, opponent, first, mp, gp, boards, fouls = sides[number - 1]
            vur = False
            if kind in (Kind.PLAYED, Kind.PENDING) or (round_robin and opponent == NO_OPPONENT
                                                       and not kind.is_forfeit):
                category = 0
            elif kind is Kind.FORFEIT_WIN:
                category = 2
            elif kind is Kind.FORFEIT_LOSS:
                category, vur = 4, True
            elif kind is Kind.PAIRING_BYE:
                category = 1
            else:
                category, vur = (5 if only_vurs_follow else 3), True
            if not vur:
                only_vurs_follow = False
            outcome = self.scoring.outcome_of(mp)
            records.append(TeamRecord(number, kind, opponent, first, mp, gp, outcome, boards, fouls, category, vur))
        records.reverse()
        return records


def board_points(scoring: Scoring, result: Result | None) -> tuple[float, float]:
    """(white's, black's) game points of one board (CXA 13.3 colour-dependent draws included)."""
    if result is None:
        return 0.0, 0.0
    white, black = (Outcome(value) for value in result.outcomes)
    if result.is_forfeit:
        points = {Outcome.WIN: scoring.forfeit_win_points, Outcome.LOSS: scoring.forfeit_loss_points}
        return points.get(white, 0.0), points.get(black, 0.0)
    return scoring.game_points(white, True), scoring.game_points(black, False)


# -- standings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamRow:
    rank: int
    team: Team
    match_points: float
    game_points: float
    values: dict[str, Any]


@dataclass(frozen=True)
class TeamStandings:
    event: TeamEvent
    after_round: int
    primary: str
    tiebreaks: tuple[str, ...]
    rows: tuple[TeamRow, ...]

    def as_json(self) -> dict[str, Any]:
        """Shaped like the individual standings' JSON, with match and game points."""
        return {
            "event": self.event.name,
            "after_round": self.after_round,
            "primary": self.primary,
            "tiebreaks": list(self.tiebreaks),
            "standings": [
                {"rank": row.rank, "id": row.team.id, "name": row.team.name,
                 "match_points": row.match_points, "game_points": row.game_points,
                 "tiebreaks": dict(row.values)}
                for row in self.rows
            ],
        }


def team_standings(event: TeamEvent, codes: tuple[str, ...] | list[str] | None = None,
                   after_round: int | None = None) -> TeamStandings:
    """Rank the teams: the primary score (MP by default), then each code of the chain inside the
    groups still tied (FIDE C.07 4.2); teams equal on everything share the better place.

    ``codes`` replaces the event's chain.  With ``primary = "PLACES"`` (cxa-team-places) the
    chain alone ranks the teams.
    """
    from ranking.team_tiebreaks import TEAM_REGISTRY, parse_team_code
    from ranking.tiebreaks import runs_of_equal, sort_key

    chain = tuple(event.rules.tiebreaks if codes is None else codes)
    specs = [parse_team_code(code) for code in chain]
    sheet = TeamSheet(event, after_round)
    count = len(sheet.teams)
    ids = [team.id for team in sheet.teams]
    primary = event.rules.primary
    if primary in ("MP", "GP"):
        score = sheet.score(primary)
        order = sorted(range(count), key=lambda me: (-score[me], ids[me]))
        groups = runs_of_equal(order, score.__getitem__)
    else:
        groups = [sorted(range(count), key=ids.__getitem__)]
    columns: dict[str, list[Any]] = {}
    for spec in specs:
        entry = TEAM_REGISTRY[spec.name]
        split: list[list[int]] = []
        if entry.orders:
            places: list[Any] = [0] * count
            for group in groups:
                tiers = entry.compute(sheet, spec, group) if len(group) > 1 else [group]
                if len(tiers) > 1:
                    place = 1
                    for tier in tiers:
                        for member in tier:
                            places[member] = place
                        place += len(tier)
                split.extend(sorted(tier, key=ids.__getitem__) for tier in tiers)
            columns[spec.code] = places
        else:
            values, keys = entry.compute(sheet, spec), None
            if isinstance(values, tuple):  # (reported values, sort keys)
                values, keys = values
            columns[spec.code] = values
            key = (lambda me, keys=keys: keys[me]) if keys is not None else sort_key(values, entry.lower_is_better)
            for group in groups:
                split.extend(runs_of_equal(sorted(group, key=key), key) if len(group) > 1 else [group])
        groups = split
    rows = []
    position = 0
    for group in groups:
        for member in group:
            rows.append(TeamRow(position + 1, sheet.teams[member], sheet.mp[member], sheet.gp[member],
                                {code: column[member] for code, column in columns.items()}))
        position += len(group)
    return TeamStandings(event, sheet.rounds, primary, chain, tuple(rows))


def team_event_of(tournament: Tournament) -> TeamEvent:
    """The team event a tournament file describes: its teams, and a match for every pair of
    teams whose members met in a round (boards in board order), plus the matches given by
    totals or as forfeits and the team byes.  The team preset is ``team_rules`` (default
    ``cxa-team`` for xiangqi, ``fide-team`` for chess); ``team_tiebreaks`` replaces its chain."""
    if not tournament.teams:
        raise InputError("the tournament has no teams: add [[teams]] with id, name and roster")
    name = tournament.team_rules or ("cxa-team" if tournament.game is GameKind.XIANGQI else "fide-team")
    preset = get_team_preset(name)
    member_of = {player: team.id for team in tournament.teams for player in team.roster}
    boards: dict[tuple[int, frozenset[int]], list[Game]] = {}
    for game in tournament.games:
        first, second = member_of.get(game.white), member_of.get(game.black)
        if first is None or second is None or first == second:
            continue
        boards.setdefault((game.round, frozenset((first, second))), []).append(game)
    given = {(match.round, frozenset((match.first, match.second))): match for match in tournament.team_matches}
    matches = list(given.values())
    for key, games in sorted(boards.items(), key=lambda item: (item[0][0], sorted(item[0][1]))):
        if key in given:
            continue
        games.sort(key=lambda game: game.board)
        matches.append(TeamMatch(key[0], member_of[games[0].white], member_of[games[0].black], tuple(games)))
    most_boards = max((len(match.boards) for match in matches), default=0)
    scoring = preset.scoring
    if tournament.rules is not None and scoring.game != tournament.rules.scoring:
        scoring = replace(scoring, game=tournament.rules.scoring)
    if most_boards and most_boards != scoring.boards:
        scoring = replace(scoring, boards=most_boards)
    scoring_record = next((rest for tag, rest in tournament.records if tag == "362"), None)
    if scoring_record is not None:  # TRF-2026 362: the event's own match points
        from ranking.trf import team_match_points

        win, draw, loss = team_match_points(scoring_record)
        scoring = replace(scoring, match_win=win, match_draw=draw, match_loss=loss)
    rules = preset.rules
    if tournament.team_tiebreaks:
        rules = replace(rules, tiebreaks=tuple(tournament.team_tiebreaks))
    rules = replace(rules, round_robin=tournament.system.is_round_robin)
    return TeamEvent(tournament.name, tournament.teams, tournament.rounds, tuple(matches),
                     tuple(tournament.team_byes), scoring, rules, tournament.players)
