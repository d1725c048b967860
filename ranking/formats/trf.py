"""FIDE Tournament Report File: a strict TRF-16 / TRF-2026 reader and writer.

Sources: FIDE C.04 Annex 2 "TRF-16" (Krause 2006, approved Elista 2015) for the ``001``
player record and the ``012``-``132`` tournament records; the TEC's TRF-2026 (approved by
FIDE Council 12/05/2025) for ``###`` comments, ``142`` (rounds), ``162`` (scoring) and
``202``/``212`` (tie-breaks), ``310`` (teams), ``320`` (team pairing-allocated byes),
``240`` (byes), ``330`` (forfeited team matches), ``300`` (out-of-order boards) and ``362``
(team match points); the JaVaFo Advanced User Manual ("TRF(x)") for ``XXR`` (rounds) and
``XXS`` (scoring).

``parse_trf`` turns text into a ``Tournament``; ``write_trf`` turns a ``Tournament`` back
into TRF text (TRF-16, with TRF-2026's records for what TRF-16 cannot hold).  Both are pure:
no file I/O (``tiebreak.files`` reads files).

>>> t = parse_trf('''012 Mini
... 001    1      Alpha, A                          2100                             1.0    1     2 w 1
... 001    2      Beta, B                           2000                             0.0    2     1 b 0
... ''')
>>> t.games[0].result
<Result.WHITE_WINS: '1-0'>
>>> parse_trf(write_trf(t)) == t
True
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from ranking.errors import InputError
from ranking.event.model import (
    Bye,
    ByeKind,
    Game,
    GameKind,
    Player,
    Result,
    System,
    Team,
    TeamBye,
    TeamByeKind,
    TeamMatch,
    Tournament,
)
from ranking.event.rounds import Kind
from ranking.formats.trf_extras import MARK, apply_extras, extra_lines
from ranking.formats.trf_fields import (
    DIGITS,
    FIDE_ID,
    LINE_BREAK,
    MAX_ID,
    NUMBER,
    chain_record,
    check_size,
    parse_162,
    parse_rounds,
    parse_xxs,
    scoring_fields,
    system_named,
    system_scheduled,
)
from ranking.scoring.rules import CHESS, Rules, Scoring

__all__ = ["infer_system", "parse_trf", "system_from_type", "write_trf"]

PLAYER = "001"
NAME = "012"
TYPE = "092"
ENCODED_TYPE = "192"
ROUNDS_TAGS = ("XXR", "142")
SCORING_TAGS = ("XXS", "162")
CHAIN_TAGS = ("202", "212")
TEAM16 = "013"
TEAM26 = "310"
TEAM_PAB = "320"
TEAM_FORFEIT = "330"
TEAM_ORDER = "300"
TEAM_SCORING = "362"
BYES26 = "240"
TEAM_FORFEITS = ("+-", "-+", "--")
_MAX_TEAM = 999

#: The ``092`` text ``write_trf`` writes for each system (and ``parse_trf`` does not keep).
TYPE_NAMES = {
    System.SWISS: "Swiss",
    System.ROUND_ROBIN: "Round Robin",
    System.DOUBLE_ROUND_ROBIN: "Double Round Robin",
}

_ROUND_START = 91  # 0-based index of round 1's block: column 92
_ROUND_WIDTH = 10
_MAX_ID = MAX_ID
_RESULT_LETTERS = frozenset("+-10=WDLHFUZ ")
_COLOURS = {"w": "w", "b": "b", "-": "-", " ": "-"}
_NUMBER, _DIGITS, _FIDE_ID, _LINE_BREAK = NUMBER, DIGITS, FIDE_ID, LINE_BREAK

#: Letters of the two players of one game (this player's, the opponent's) -> result from
#: this player's side as white, and whether the game was rated (W/D/L: under one move).
_PAIRS: dict[tuple[str, str], tuple[Result | None, bool]] = {
    ("1", "0"): (Result.WHITE_WINS, True),
    ("0", "1"): (Result.BLACK_WINS, True),
    ("=", "="): (Result.DRAW, True),
    ("0", "0"): (Result.BOTH_LOSE, True),
    ("=", "0"): (Result.WHITE_HALF, True),
    ("0", "="): (Result.BLACK_HALF, True),
    ("W", "L"): (Result.WHITE_WINS, False),
    ("L", "W"): (Result.BLACK_WINS, False),
    ("D", "D"): (Result.DRAW, False),
    ("L", "L"): (Result.BOTH_LOSE, False),
    ("D", "L"): (Result.WHITE_HALF, False),
    ("L", "D"): (Result.BLACK_HALF, False),
    ("+", "-"): (Result.WHITE_WINS_FORFEIT, True),
    ("-", "+"): (Result.BLACK_WINS_FORFEIT, True),
    ("-", "-"): (Result.DOUBLE_FORFEIT, True),
    (" ", " "): (None, True),
}
_LETTERS = {(result, rated): pair for pair, (result, rated) in _PAIRS.items() if result is not None}

#: A letter without an opponent: the TRF bye letters, and tolerated game letters.
_BYE_LETTERS = {
    "U": ByeKind.PAIRING,
    "F": ByeKind.FULL,
    "H": ByeKind.HALF,
    "Z": ByeKind.ZERO,
    "+": ByeKind.FULL,
    "1": ByeKind.FULL,
    "=": ByeKind.HALF,
    "-": ByeKind.ZERO,
    "0": ByeKind.ZERO,
}


@dataclass(frozen=True, slots=True)
class _Entry:
    """One round block of a ``001`` line."""

    opponent: int | None
    colour: str  # "w", "b" or "-"
    letter: str  # upper case; " " = blank
    line: int
    column: int  # 1-based column of the block


@dataclass(slots=True)
class _PlayerLine:
    player: Player
    line: int
    entries: dict[int, _Entry] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------


def parse_trf(text: str, source: str = "<trf>") -> Tournament:
    """Read a FIDE TRF-16 or TRF-2026 file (C.04 Annex 2; TEC TRF-2026) into a Tournament.

    Player lines (``001``) are read by their fixed columns; trailing blanks and lines that
    end after the last round played are fine, anything else out of place raises
    ``InputError`` naming ``source``, the line and what was expected.  Both players of a
    game must list each other in the same round with fitting colours and results.

    Records: ``012`` name; ``XXR``/``142`` rounds (else the last round column used, and at
    least a round robin's ``System.scheduled_rounds``);
    ``XXS`` (JaVaFo) and ``162`` (TRF-2026) scoring; ``212`` (without its leading ``PTS``),
    else ``202``, the tie-break chain, codes kept verbatim, split on commas (or on blanks
    when there is no comma); in a team file a ``212`` starting with ``PTS:MP``/``PTS:GP``, or
    a record of team codes, is the team chain instead (``_Reading._chains``: ``team_tiebreaks``,
    and ``team_primary`` ``MP``/``GP`` for an event ranked by match or game points first).
    ``092`` (else ``192``) names the system, else
    ``infer_system`` decides.  ``###`` comments and blank lines are skipped, except Tiebreak's
    own ``### tiebreak`` records (``ranking.formats.trf_extras``), which are applied; every other
    record, known or not, is kept in ``Tournament.records`` as ``(tag, rest_of_line)``,
    except a ``092`` that is exactly a canonical name of ``TYPE_NAMES`` ("Swiss", "Round
    Robin", "Double Round Robin"): ``system`` carries it and ``write_trf`` writes it back,
    so that ``parse_trf(write_trf(t)) == t``.  TRF-2026 ``240`` bye records of an individual
    event and NRS records are kept verbatim, not interpreted.  In player lines the start number, rating, FIDE id
    (digits), federation (letters), points and rank must be what their columns hold.

    Teams: TRF-16 ``013`` (name in columns 5-36, start numbers in 4-column fields from
    column 37) gives ``teams`` numbered 1..n in file order, rosters in the listed order;
    TRF-2026 ``310`` (pairing number 5-7, name 9-40, start numbers from column 74 every 5
    columns; nickname, strength, MP, GP and rank are not read) gives teams numbered by their
    pairing number and wins over ``013``, whose lines are then kept in ``records``.  Start
    numbers are read forgivingly as blank-separated numbers after the name (``0000`` = an
    empty slot).  ``320`` (PAB match points 5-8, game points 10-13, the PAB team of each round
    from column 15 every 4, ``000`` = none) gives ``team_byes`` and ``team_pab``, what a PAB is
    worth (every ``320`` must say the same).  A team file's ``240`` (``F``/``H``/``Z`` in 5,
    round 7-9, teams from 11-14 every 5) gives full-, half- and zero-point ``team_byes``; a team
    has one bye a round.  ``330`` (``+-``/``-+``/``--``, round, white team, black team) gives
    forfeited ``team_matches``; its boards may be in the player lines (as FIDE's reference
    program wants them) or missing.  These are read as blank-separated fields.

    Board order of a team match (the games between members of two teams in a round): the
    roster order (``310``/``013``), unless a TRF-2026 ``300`` record (round 5-7, the team
    playing out of order 9-11, its opponent 13-15, then its players on board 1, 2, ... from
    column 17 every 5, ``0000`` = an empty board; read as blank-separated fields) gives that
    team's order.  The match's board numbers (see Byes below) are then handed out in that
    order, so ``team_event_of`` lists the boards as the file does.  ``300`` lines are not
    kept in ``records``: ``write_trf`` writes them from the board order (empty boards are
    not kept).  Listed players must be that team's members who played that match.
    ``362`` (team match points: ``TW``/``TD``/``TL`` codes, each followed by its points, as
    ``162`` lays them out; a bare ``W``/``D``/``L`` is accepted) gives
    ``Tournament.team_match_points`` (``write_trf`` writes it in ``162``'s columns).

    Each tag has its reader (``_READERS``); ``_Reading.tournament`` checks the file as a whole.

    ``162`` layout (TRF-2026): a result code (W D L A P X) in column 6 and its points in
    columns 7-10, repeated every 9 columns.  It is read forgivingly as any sequence of
    ``<code> <points>`` pairs; W = win (also forfeit win and full-point bye), D = draw
    (also half-point bye), L = loss, A = absence (zero-point bye and forfeit loss),
    P = pairing-allocated bye, X (unknown result) is ignored; F, H, Z are accepted for
    the full-, half- and zero-point bye.

    Byes: a round without opponent gives a ``Bye`` for its letter (H F U Z, and ``+ 1``
    full, ``=`` half, ``- 0`` zero); a blank round is a zero-point bye only up to the last
    round in which a game has a result.  Boards are numbered in each round in the order
    the games are met scanning players by starting number.
    """
    if not isinstance(text, str):
        raise InputError(f"expected TRF text, got {type(text).__name__}", source=source)
    lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    check_size(lines, source)
    reading = _Reading(source)
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip(" \t")
        if line.startswith(MARK):  # Tiebreak's own comment records (ranking.formats.trf_extras)
            reading.extras.append((number, line))
            continue
        if not line.strip() or line.startswith("###"):
            continue
        tag = line[:3]
        if len(tag) < 3 or any(ch.isspace() for ch in tag) or (len(line) > 3 and line[3] != " "):
            raise InputError(
                f"expected a record: a 3-character tag such as 001, 012 or XXR, then a blank; got {line[:16]!r}",
                source=source,
                line=number,
            )
        _READERS.get(tag, _read_other)(reading, tag, line, number)
    tournament = reading.tournament()
    return apply_extras(tournament, reading.extras, source) if reading.extras else tournament


@dataclass
class _Reading:
    """What the records of one file said so far; ``tournament()`` checks it as a whole."""

    source: str
    name: str | None = None
    players: dict[int, _PlayerLine] = field(default_factory=dict)
    records: list[tuple[str, str]] = field(default_factory=list)
    declared_rounds: tuple[int, int] | None = None  # (rounds, line)
    scoring_values: dict[str, tuple[float, int]] = field(default_factory=dict)
    chains: dict[str, tuple[tuple[str, ...], int, str]] = field(default_factory=dict)  # (codes, line, primary)
    system_texts: dict[str, str] = field(default_factory=dict)
    teams16: list[_TeamLine] = field(default_factory=list)
    teams26: list[_TeamLine] = field(default_factory=list)
    team_match_points: tuple[float, float, float] | None = None
    pab_lines: list[tuple[tuple[float, float], list[tuple[int, int]], int]] = field(
        default_factory=list)  # ((MP, GP), [(round, team)], line)
    bye_lines: list[tuple[str, int]] = field(default_factory=list)  # 240 records: (text, line)
    forfeit_lines: list[tuple[TeamMatch, int]] = field(default_factory=list)
    order_lines: list[_BoardOrder] = field(default_factory=list)
    extras: list[tuple[int, str]] = field(default_factory=list)  # ``### tiebreak`` records

    def fail(self, message: str, line: int | None) -> InputError:
        return InputError(message, source=self.source, line=line)

    def tournament(self) -> Tournament:
        if not self.players:
            raise InputError("no player records (001 lines): expected at least one player", source=self.source)
        rounds = self._rounds()
        teams, team_matches, team_byes, team_pab, rounds = self._team_records(rounds)
        games, byes = _pair_up(self.players, self.source)
        if teams:
            games = _order_boards(games, teams, self.order_lines, self.source)
        elif self.bye_lines:
            byes = self._player_byes(games, byes, rounds)
            rounds = max(rounds, max((b.round for b in byes), default=0))
        players = tuple(self.players[pid].player for pid in sorted(self.players))
        chain, team_chain, team_primary = self._chains(bool(teams))
        system = self._system(players, games)
        if self.declared_rounds is None:  # no XXR/142: a round robin's rounds follow from its field
            rounds = max(rounds, system.scheduled_rounds(len(teams) or len(players)))
        return Tournament(
            name=self.name or "",
            players=players,
            rounds=rounds,
            games=games,
            byes=byes,
            system=system,
            game=GameKind.CHESS,
            rules=self._rules(chain),
            records=tuple(self.records),
            teams=teams,
            team_matches=tuple(team_matches),
            team_byes=tuple(sorted(team_byes, key=lambda b: (b.round, b.team))),
            team_tiebreaks=team_chain,
            team_match_points=self.team_match_points,
            team_pab=team_pab,
            team_primary=team_primary,
        )

    def _rounds(self) -> int:
        """``XXR``/``142``, which no player line may exceed; else the last round column used."""
        used = max((max(p.entries, default=0) for p in self.players.values()), default=0)
        if self.declared_rounds is None:
            return used
        rounds, rounds_line = self.declared_rounds
        if used > rounds:
            by_line = sorted(self.players.values(), key=lambda p: p.line)
            late = next(p for p in by_line if max(p.entries, default=0) > rounds)
            raise self.fail(f"player {late.player.id} has an entry in round {max(late.entries)}, but line "
                            f"{rounds_line} says the tournament has {rounds} rounds", late.line)
        return rounds

    def _team_records(self, rounds: int) -> tuple[tuple[Team, ...], list[TeamMatch], list[TeamBye],
                                                  tuple[float, float] | None, int]:
        """Teams (``310`` wins over ``013``, whose lines then stay records), team byes (``320``
        PABs, worth the match and game points the ``320`` records give, and the ``240`` full-,
        half- and zero-point byes of a team file) and forfeited matches (``330``); ``300``
        checked against the teams."""
        if self.teams26:
            team_lines = self.teams26
        else:
            team_lines = self.teams16
            self.records = [(tag, rest) for tag, rest in self.records if tag != TEAM16]
        teams = _check_teams(team_lines, self.players, self.source)
        if teams:  # a team file's 240 records are team byes, read into team_byes
            self.records = [(tag, rest) for tag, rest in self.records if tag != BYES26]
        team_ids = {team.id for team in teams}
        team_byes: list[TeamBye] = []
        team_matches: list[TeamMatch] = []
        last_team_round = 0
        team_pab: tuple[float, float] | None = None
        bye_lines: dict[tuple[int, int], int] = {}  # (round, team) -> the line giving its bye
        for values, pabs, line_number in self.pab_lines:
            if team_pab is not None and values != team_pab:
                first = next(line for given, _, line in self.pab_lines if given == team_pab)
                raise self.fail(f"320: a PAB worth {values[0]:g} MP and {values[1]:g} GP, but line {first} gives "
                                f"{team_pab[0]:g} MP and {team_pab[1]:g} GP", line_number)
            team_pab = values
            for rnd, team_id in pabs:
                _known_team(team_id, team_ids, TEAM_PAB, line_number, self.source)
                self._one_bye(bye_lines, rnd, team_id, TEAM_PAB, line_number)
                team_byes.append(TeamBye(rnd, team_id, TeamByeKind.PAB))
                last_team_round = max(last_team_round, rnd)
        for text, line_number in self.bye_lines if teams else ():
            kind, rnd, listed = _parse_240(text, line_number, self.source)
            for team_id in listed:
                _known_team(team_id, team_ids, BYES26, line_number, self.source)
                self._one_bye(bye_lines, rnd, team_id, BYES26, line_number)
                team_byes.append(TeamBye(rnd, team_id, kind))
            last_team_round = max(last_team_round, rnd)
        for match, line_number in self.forfeit_lines:
            for team_id in (match.first, match.second):
                _known_team(team_id, team_ids, TEAM_FORFEIT, line_number, self.source)
            if match.first == match.second:
                raise self.fail(f"330: team {match.first} is paired with itself", line_number)
            team_matches.append(match)
            last_team_round = max(last_team_round, match.round)
        for order in self.order_lines:
            for team_id in (order.team, order.opponent):
                _known_team(team_id, team_ids, TEAM_ORDER, order.line, self.source)
            last_team_round = max(last_team_round, order.round)
        if last_team_round > rounds:
            if self.declared_rounds is not None:
                lines = ([ln for *_, ln in self.pab_lines] + [ln for _, ln in self.forfeit_lines]
                         + [ln for _, ln in self.bye_lines] + [o.line for o in self.order_lines])
                raise self.fail(f"a team record names round {last_team_round}, but line {self.declared_rounds[1]} "
                                f"says the tournament has {rounds} rounds", max(lines))
            rounds = last_team_round
        return teams, team_matches, team_byes, team_pab, rounds

    def _player_byes(self, games: tuple[Game, ...], byes: tuple[Bye, ...], rounds: int) -> tuple[Bye, ...]:
        """The byes of an individual event with its TRF-2026 ``240`` records applied: a listed
        player gets that bye in that round, unless his player line says otherwise (a game,
        or another bye: an error); a blank round becomes the bye the record names.  The
        records are not kept: ``write_trf`` writes the byes in the player lines (as pairing
        programs read them)."""
        self.records = [(tag, rest) for tag, rest in self.records if tag != BYES26]
        playing = {(g.round, pid) for g in games for pid in (g.white, g.black)}
        found = {(b.round, b.player): b for b in byes}
        for text, line in self.bye_lines:
            kind, rnd, listed = _parse_240(text, line, self.source, teams=False)
            if rnd > rounds and self.declared_rounds is not None:
                raise self.fail(f"240 names round {rnd}, but line {self.declared_rounds[1]} says the tournament "
                                f"has {rounds} rounds", line)
            letter = _PLAYER_240[kind]
            for pid in listed:
                if pid not in self.players:
                    raise self.fail(f"240: player {pid} is not in the player records (001 lines)", line)
                entry = self.players[pid].entries.get(rnd)
                if (rnd, pid) in playing or (entry is not None and found[(rnd, pid)].kind is not letter):
                    raise self.fail(f"240: player {pid} has a bye ({letter.value}) in round {rnd}, but his "
                                    f"player line (line {self.players[pid].line}) gives that round otherwise", line)
                found[(rnd, pid)] = Bye(rnd, pid, letter)
        return tuple(sorted(found.values(), key=lambda b: (b.round, b.player)))

    def _one_bye(self, given: dict[tuple[int, int], int], rnd: int, team: int, tag: str, line: int) -> None:
        """A team has one bye a round (TRF-2026 320, 240)."""
        if (rnd, team) in given:
            raise self.fail(f"{tag}: team {team} already has a bye in round {rnd} (line {given[(rnd, team)]})", line)
        given[(rnd, team)] = line

    def _chains(self, teams: bool) -> tuple[tuple[str, ...], tuple[str, ...], str]:
        """The individual chain, the team chain and the team primary score of ``212``/``202``.

        Without teams: the chain of ``212``, else of ``202``.  In a team file a record is the
        team chain when its ``212`` starts with ``PTS:MP`` or ``PTS:GP`` (ranked by match or game
        points first), or when its codes are team codes and not all individual ones (``EDE``,
        ``BH:MP``, ``MPVGP``, ...); otherwise it is the individual chain, as in any file.  So a
        file can carry both: ``write_trf`` writes the team chain in ``212`` and the individual
        one in ``202``."""
        found = [self.chains[tag] for tag in CHAIN_TAGS[::-1] if tag in self.chains]  # 212 first
        if not teams:
            return (found[0][0] if found else ()), (), ""
        individual: tuple[str, ...] | None = None
        team: tuple[tuple[str, ...], str] | None = None
        for codes, _, primary in found:
            if team is None and (primary or _team_codes(codes)):
                team = (codes, primary)
            elif individual is None and not primary:
                individual = codes
        return individual or (), *(team or ((), ""))

    def _system(self, players: tuple[Player, ...], games: tuple[Game, ...]) -> System:
        """``092``, else ``192``, else what the games say (``infer_system``)."""
        for tag in (TYPE, ENCODED_TYPE):
            if tag in self.system_texts:
                system = system_from_type(self.system_texts[tag])
                if system is not None:
                    return system
        return infer_system(players, games)

    def _rules(self, chain: tuple[str, ...]) -> Rules | None:
        """The scoring of ``XXS``/``162`` and the individual chain (``_chains``)."""
        if not (self.scoring_values or chain):
            return None
        scoring = Scoring(**scoring_fields({k: v for k, (v, _) in self.scoring_values.items()}, self.source,
                                           max((ln for _, ln in self.scoring_values.values()), default=None)))
        return Rules(scoring=scoring, tiebreaks=chain)


# -- one reader per record tag -------------------------------------------------------------------

def _read_player(reading: _Reading, tag: str, line: str, number: int) -> None:
    entry = _parse_player(line, number, reading.source)
    pid = entry.player.id
    if pid in reading.players:
        raise reading.fail(f"duplicate start number {pid}: already used on line {reading.players[pid].line}", number)
    reading.players[pid] = entry


def _read_name(reading: _Reading, tag: str, line: str, number: int) -> None:
    if reading.name is None:
        reading.name = line[4:].strip()
    else:  # a second 012 is kept
        _read_other(reading, tag, line, number)


def _read_rounds(reading: _Reading, tag: str, line: str, number: int) -> None:
    rounds = parse_rounds(tag, line[4:], number, reading.source)
    declared = reading.declared_rounds
    if declared is not None and declared[0] != rounds:
        raise reading.fail(f"{tag} says {rounds} rounds, but line {declared[1]} says {declared[0]}", number)
    reading.declared_rounds = (rounds, number)


def _read_scoring(reading: _Reading, tag: str, line: str, number: int) -> None:
    values = (parse_xxs if tag == "XXS" else parse_162)(line[4:], number, reading.source)
    for key, value in values.items():
        reading.scoring_values[key] = (value, number)


def _read_chain(reading: _Reading, tag: str, line: str, number: int) -> None:
    codes, primary = chain_record(tag, line[4:])
    if codes or primary:
        reading.chains[tag] = (codes, number, primary)


def _read_team16(reading: _Reading, tag: str, line: str, number: int) -> None:
    reading.teams16.append(_parse_013(line, len(reading.teams16) + 1, number, reading.source))
    reading.records.append((tag, line[4:].rstrip()))  # dropped later unless 310 records win


def _read_team26(reading: _Reading, tag: str, line: str, number: int) -> None:
    reading.teams26.append(_parse_310(line, number, reading.source))


def _read_team_pab(reading: _Reading, tag: str, line: str, number: int) -> None:
    reading.pab_lines.append((*_parse_320(line[4:], number, reading.source), number))


def _read_byes(reading: _Reading, tag: str, line: str, number: int) -> None:
    """``240``: a team file's team byes (``_Reading._team_records``); kept otherwise."""
    reading.bye_lines.append((line[4:], number))
    _read_other(reading, tag, line, number)


def _read_team_forfeit(reading: _Reading, tag: str, line: str, number: int) -> None:
    reading.forfeit_lines.append((_parse_330(line[4:], number, reading.source), number))


def _read_team_order(reading: _Reading, tag: str, line: str, number: int) -> None:
    reading.order_lines.append(_parse_300(line[4:], number, reading.source))


def _read_team_scoring(reading: _Reading, tag: str, line: str, number: int) -> None:
    """``362``: read onto the tournament (``write_trf`` writes it from there)."""
    reading.team_match_points = team_match_points_of(line[4:], number, reading.source)


def _read_other(reading: _Reading, tag: str, line: str, number: int) -> None:
    """Every other record is kept in ``records``; ``092``/``192`` also name the system, and a
    ``092`` that is exactly a canonical system name is carried by ``system`` instead."""
    rest = line[4:]
    if tag in (TYPE, ENCODED_TYPE) and tag not in reading.system_texts:
        reading.system_texts[tag] = rest.strip()
    if tag == TYPE and rest.strip() in TYPE_NAMES.values():
        return  # the canonical name: ``system`` carries it, the writer restores it
    reading.records.append((tag, rest.rstrip()))


_READERS: dict[str, Callable[[_Reading, str, str, int], None]] = {
    PLAYER: _read_player,
    NAME: _read_name,
    **dict.fromkeys(ROUNDS_TAGS, _read_rounds),
    **dict.fromkeys(SCORING_TAGS, _read_scoring),
    **dict.fromkeys(CHAIN_TAGS, _read_chain),
    TEAM16: _read_team16,
    TEAM26: _read_team26,
    TEAM_PAB: _read_team_pab,
    TEAM_FORFEIT: _read_team_forfeit,
    TEAM_ORDER: _read_team_order,
    TEAM_SCORING: _read_team_scoring,
    BYES26: _read_byes,
}


@dataclass(frozen=True, slots=True)
class _TeamLine:
    """One ``013`` or ``310`` record."""

    team: Team
    line: int
    tag: str


_TEAM_NUMBER = re.compile(r"[0-9]{1,4}")


def _roster(text: str, first_column: int, tag: str, number: int, source: str) -> tuple[int, ...]:
    """Start numbers separated by blanks (``0000`` = an empty slot, skipped)."""
    roster: list[int] = []
    for token in text.split():
        if not _TEAM_NUMBER.fullmatch(token) or int(token) > _MAX_ID:
            raise InputError(
                f"{tag}: expected the players' start numbers (1-9999) from column {first_column}, got {token!r}; "
                + (
                    "layout: team name in columns 5-36, then start numbers in columns 37-40, 42-45, ..."
                    if tag == TEAM16
                    else "layout: team number in columns 5-7, name 9-40, ..., start numbers in 74-77, 79-82, ..."
                ),
                source=source,
                line=number,
            )
        if int(token) == 0:
            continue
        if int(token) in roster:
            raise InputError(f"{tag}: player {int(token)} is listed twice in this team", source=source, line=number)
        roster.append(int(token))
    return tuple(roster)


def _parse_013(line: str, team_id: int, number: int, source: str) -> _TeamLine:
    """TRF-16 ``013``: name in columns 5-36, start numbers in 4-column fields from column 37."""
    name = _field(line, 5, 36).strip()
    if not name:
        raise InputError("013: expected a team name in columns 5-36", source=source, line=number)
    return _TeamLine(Team(team_id, name, _roster(line[36:], 37, TEAM16, number, source)), number, TEAM16)


def _parse_310(line: str, number: int, source: str) -> _TeamLine:
    """TRF-2026 ``310``: team number 5-7, name 9-40, nickname 42-46, strength 48-53, MP 55-60,
    GP 62-67, rank 69-71 (these five are not read), start numbers from column 74 every 5."""
    pairing = _field(line, 5, 7).strip()
    if not _DIGITS.fullmatch(pairing) or not 1 <= int(pairing) <= _MAX_TEAM:
        raise InputError(
            f"310: expected the team's pairing number (1-999) in columns 5-7, got {pairing!r}",
            source=source,
            line=number,
        )
    name = _field(line, 9, 40).strip()
    if not name:
        raise InputError("310: expected a team name in columns 9-40", source=source, line=number)
    return _TeamLine(Team(int(pairing), name, _roster(line[72:], 74, TEAM26, number, source)), number, TEAM26)


def _check_teams(lines: list[_TeamLine], players: Mapping[int, _PlayerLine], source: str) -> tuple[Team, ...]:
    """Every member a player of a ``001`` line, in one team only; team numbers unique."""
    seen: dict[int, int] = {}
    member_of: dict[int, int] = {}
    for entry in lines:
        if entry.team.id in seen:
            raise InputError(
                f"{entry.tag}: team number {entry.team.id} is already used on line {seen[entry.team.id]}",
                source=source,
                line=entry.line,
            )
        seen[entry.team.id] = entry.line
        for pid in entry.team.roster:
            if pid not in players:
                raise InputError(
                    f"{entry.tag}: team {entry.team.name!r} lists player {pid}, who has no 001 line",
                    source=source,
                    line=entry.line,
                )
            if pid in member_of:
                raise InputError(
                    f"{entry.tag}: player {pid} is already in the team on line {member_of[pid]}",
                    source=source,
                    line=entry.line,
                )
            member_of[pid] = entry.line
    return tuple(entry.team for entry in lines)


def _known_team(team_id: int, team_ids: set[int], tag: str, number: int, source: str) -> None:
    if team_id not in team_ids:
        raise InputError(
            f"{tag}: team {team_id} is not a team: expected the number of a team record (013 or 310)",
            source=source,
            line=number,
        )


def _parse_320(rest: str, number: int, source: str) -> tuple[tuple[float, float], list[tuple[int, int]]]:
    """TRF-2026 ``320``: PAB match points (5-8), game points (10-13), then the PAB team of
    round 1, 2, ... (15-17, 19-21, ...; ``000`` = none).  Read as blank-separated fields."""
    tokens = rest.split()
    if len(tokens) < 2 or not all(_NUMBER.fullmatch(token) for token in tokens[:2]):
        raise InputError(
            "320: expected the PAB match points and game points (such as '320  2.0  4.0  003  000'), "
            f"got {rest.strip()!r}",
            source=source,
            line=number,
        )
    found: list[tuple[int, int]] = []
    for rnd, token in enumerate(tokens[2:], start=1):
        if not _DIGITS.fullmatch(token) or int(token) > _MAX_TEAM:
            raise InputError(
                f"320: round {rnd}: expected a team number (000 for none), got {token!r}",
                source=source,
                line=number,
            )
        if int(token):
            found.append((rnd, int(token)))
    return (float(tokens[0]), float(tokens[1])), found


_240_KINDS = {"F": TeamByeKind.FPB, "H": TeamByeKind.HPB, "Z": TeamByeKind.ZPB}


def _parse_240(rest: str, number: int, source: str, teams: bool = True) -> tuple[TeamByeKind, int, list[int]]:
    """TRF-2026 ``240``: the kind of bye (5: ``F`` full-point, ``H`` half-point, ``Z``
    zero-point), the round (7-9) and the teams (a team file) or players that get it (11-14,
    16-19, ...).  Read as blank-separated fields."""
    tokens = rest.split()
    kind = _240_KINDS.get(tokens[0].upper()) if tokens else None
    if (
        kind is None
        or len(tokens) < 3
        or not all(_DIGITS.fullmatch(token) for token in tokens[1:])
        or not 1 <= int(tokens[1]) <= _MAX_ID
        or not all(1 <= int(token) <= (_MAX_TEAM if teams else _MAX_ID) for token in tokens[2:])
    ):
        raise InputError(
            f"240: expected the kind of bye (F, H or Z), the round and the {'teams' if teams else 'players'} "
            f"that get it (such as '240 H 003  026  047'), got {rest.strip()!r}",
            source=source,
            line=number,
        )
    return kind, int(tokens[1]), [int(token) for token in tokens[2:]]


def _team_codes(codes: tuple[str, ...]) -> bool:
    """Codes that name team tie-breaks (every one a team code) and not only individual ones."""
    from ranking.tiebreaks.individual import REGISTRY  # team files with a chain only (start-up time)
    from ranking.tiebreaks.team import TEAM_REGISTRY  # team files with a chain only (start-up time)

    def known(registry, code: str) -> bool:
        try:
            registry.parse(code)
        except InputError:
            return False
        return True

    return bool(codes) and all(known(TEAM_REGISTRY, code) for code in codes) and not all(
        known(REGISTRY, code) for code in codes)


def _parse_330(rest: str, number: int, source: str) -> TeamMatch:
    """TRF-2026 ``330``: forfeit type (5-6: +- -+ --), round (8-10), white team (12-14), black
    team (16-18).  Read as blank-separated fields; ``+:-`` style types are accepted."""
    tokens = rest.split()
    kind = tokens[0].replace(":", "") if tokens else ""
    numbers_ok = len(tokens) == 4 and all(_DIGITS.fullmatch(token) for token in tokens[1:])
    if kind not in TEAM_FORFEITS or not numbers_ok or not 1 <= int(tokens[1]) <= _MAX_ID:
        raise InputError(
            "330: expected a forfeit (+-, -+ or --), the round, the white team and the black team "
            f"(such as '330 +- 004 023 047'), got {rest.strip()!r}",
            source=source,
            line=number,
        )
    return TeamMatch(int(tokens[1]), int(tokens[2]), int(tokens[3]), forfeit=kind)


@dataclass(frozen=True, slots=True)
class _BoardOrder:
    """One ``300`` record: ``team``'s players on board 1, 2, ... against ``opponent``."""

    round: int
    team: int
    opponent: int
    players: tuple[int, ...]  # 0 = an empty board
    line: int


def _parse_300(rest: str, number: int, source: str) -> _BoardOrder:
    """TRF-2026 ``300``: round (5-7), the team playing out of order (9-11), its opponent
    (13-15), its players in board order (17-20, 22-25, ...; ``0000`` = an empty board).
    Read as blank-separated fields."""
    tokens = rest.split()
    if (
        len(tokens) < 4
        or not all(_DIGITS.fullmatch(token) for token in tokens)
        or not 1 <= int(tokens[0]) <= _MAX_ID
        or not all(1 <= int(token) <= _MAX_TEAM for token in tokens[1:3])
        or any(int(token) > _MAX_ID for token in tokens[3:])
    ):
        raise InputError(
            "300: expected the round, the team, its opponent, then the team's players in board order "
            f"(0000 for an empty board), such as '300 003 012 007 0041 0043 0000 0042'; got {rest.strip()!r}",
            source=source,
            line=number,
        )
    rnd, team, opponent = (int(token) for token in tokens[:3])
    players = tuple(int(token) for token in tokens[3:])
    if team == opponent:
        raise InputError(f"300: team {team} is paired with itself", source=source, line=number)
    listed = [pid for pid in players if pid]
    if not listed:
        raise InputError(
            "300: every board is empty (0000): expected the players in board order", source=source, line=number
        )
    twice = next((pid for pid in listed if listed.count(pid) > 1), None)
    if twice is not None:
        raise InputError(f"300: player {twice} is listed on two boards", source=source, line=number)
    return _BoardOrder(rnd, team, opponent, players, number)


_362_PAIR = re.compile(r"\s*T?([WDL])\s*(-?[0-9]{1,6}(?:\.[0-9]{1,6})?)(?=\s|$)", re.IGNORECASE)


def team_match_points_of(rest: str, number: int | None = None, source: str = "<trf>") -> tuple[float, float, float]:
    """Match points for a won, drawn and lost team match from a ``362`` record's text."""
    values = _parse_362(rest, number, source)
    return values.get("W", 2.0), values.get("D", 1.0), values.get("L", 0.0)


def _parse_362(rest: str, number: int | None, source: str) -> dict[str, float]:
    """TRF-2026 ``362``: team result codes ``TW``/``TD``/``TL`` (TieBreakServer reads the
    letter at column 6, as for ``162``), each followed by its match points (defaults 2/1/0).
    Read forgivingly as ``<code> <points>`` pairs; a win must beat a draw, a draw a loss."""
    values: dict[str, float] = {}
    position = 0
    while position < len(rest) and rest[position:].strip():
        matched = _362_PAIR.match(rest, position)
        if matched is None:
            raise InputError(
                "362: expected team result codes TW, TD, TL, each followed by its match points "
                f"(such as '362 TW 2.0   TD 1.0   TL 0.0'), got {rest.strip()!r}",
                source=source,
                line=number,
            )
        values[matched.group(1).upper()] = float(matched.group(2))
        position = matched.end()
    win, draw, loss = values.get("W", 2.0), values.get("D", 1.0), values.get("L", 0.0)
    if not win > draw >= loss:
        raise InputError(
            f"362: win {win:g}, draw {draw:g}, loss {loss:g}: a won match must score more than a drawn "
            "one, a drawn one at least a lost one",
            source=source,
            line=number,
        )
    return values


def _match_games(games: Iterable[Game], member_of: Mapping[int, int]) -> dict[tuple[int, frozenset[int]], list[Game]]:
    """(round, {team, team}) -> the games between the members of two teams (as ``team_event_of``)."""
    matches: dict[tuple[int, frozenset[int]], list[Game]] = defaultdict(list)
    for game in games:
        first, second = member_of.get(game.white), member_of.get(game.black)
        if first is not None and second is not None and first != second:
            matches[(game.round, frozenset((first, second)))].append(game)
    return matches


def _order_boards(
    games: tuple[Game, ...], teams: tuple[Team, ...], orders: list[_BoardOrder], source: str
) -> tuple[Game, ...]:
    """Hand each team match's board numbers out in its board order: a ``300`` record's, else
    the roster order (of the lower-numbered team)."""
    member_of = {pid: team.id for team in teams for pid in team.roster}
    roster_place = {team.id: {pid: k for k, pid in enumerate(team.roster)} for team in teams}
    matches = _match_games(games, member_of)
    given: dict[tuple[int, int], _BoardOrder] = {}
    for order in orders:
        if (order.round, order.team) in given:
            raise InputError(
                f"300: team {order.team}'s board order in round {order.round} is already given on line "
                f"{given[(order.round, order.team)].line}",
                source=source,
                line=order.line,
            )
        match = matches.get((order.round, frozenset((order.team, order.opponent))))
        if match is None:
            raise InputError(
                f"300: teams {order.team} and {order.opponent} have no games between their members in "
                f"round {order.round}",
                source=source,
                line=order.line,
            )
        played = {pid for game in match for pid in (game.white, game.black) if member_of[pid] == order.team}
        listed = {pid for pid in order.players if pid}
        if listed != played:
            raise InputError(
                f"300: in round {order.round} team {order.team} played with players "
                f"{', '.join(map(str, sorted(played)))} against team {order.opponent}, but the line lists "
                f"{', '.join(map(str, sorted(listed)))}",
                source=source,
                line=order.line,
            )
        given[(order.round, order.team)] = order

    def place(team_id: int, order: _BoardOrder | None) -> Callable[[Game], int]:
        places = roster_place[team_id] if order is None else {pid: k for k, pid in enumerate(order.players)}
        return lambda game: places[game.white] if member_of[game.white] == team_id else places[game.black]

    renumbered: dict[tuple[int, int, int], int] = {}  # (round, white, black) -> board
    for (rnd, pair), match in matches.items():
        low, high = sorted(pair)
        by_low = sorted(match, key=place(low, given.get((rnd, low))))
        by_high = sorted(match, key=place(high, given.get((rnd, high))))
        if (rnd, high) in given and (rnd, low) not in given:
            ordered = by_high
        else:
            ordered = by_low
            if (rnd, high) in given and by_high != by_low:
                raise InputError(
                    f"300: the board orders of teams {low} (line {given[(rnd, low)].line}) and {high} in "
                    f"round {rnd} do not pair the same players",
                    source=source,
                    line=given[(rnd, high)].line,
                )
        boards = sorted(game.board for game in match)
        for board, game in zip(boards, ordered, strict=True):
            renumbered[(game.round, game.white, game.black)] = board
    moved = [replace(g, board=renumbered.get((g.round, g.white, g.black), g.board)) for g in games]
    return tuple(sorted(moved, key=lambda g: (g.round, g.board)))


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (1-based, inclusive) of ``line``, blank-padded."""
    return line[first - 1 : last].ljust(last - first + 1)


def _parse_player(line: str, number: int, source: str) -> _PlayerLine:
    """One ``001`` record (C.04 Annex 2 player section)."""

    def fail(message: str) -> InputError:
        return InputError(message, source=source, line=number)

    start = _field(line, 5, 8).strip()
    if not _DIGITS.fullmatch(start) or not 1 <= int(start) <= _MAX_ID:
        raise fail(f"expected a start number 1-9999 in columns 5-8, got {start!r}")
    if _field(line, 9, 9) != " ":
        raise fail(f"expected a blank in column 9 after the start number, got {line[8]!r}")
    sex = _field(line, 10, 10)
    if sex != " " and not sex.isalpha():
        raise fail(f"expected the sex (m, w or blank) in column 10, got {sex!r}")
    title = _field(line, 11, 13).strip()
    name = _field(line, 15, 47).strip()
    rating_text = _field(line, 49, 52).strip()
    if rating_text and not _DIGITS.fullmatch(rating_text):
        raise fail(f"expected a rating (digits) in columns 49-52, got {rating_text!r}")
    federation = _field(line, 54, 56).strip()
    if federation and not federation.isalpha():
        raise fail(f"expected a federation (letters such as NOR) in columns 54-56, got {federation!r}")
    fide_id = _field(line, 58, 68).strip()
    if fide_id and not _FIDE_ID.fullmatch(fide_id):
        raise fail(f"expected a FIDE id (digits) in columns 58-68, got {fide_id!r}")
    points = _field(line, 81, 84).strip()
    if points and not _NUMBER.fullmatch(points):
        raise fail(f"expected the points (such as 4.5) in columns 81-84, got {points!r}")
    rank = _field(line, 86, 89).strip()
    if rank and not _DIGITS.fullmatch(rank):
        raise fail(f"expected the rank (digits) in columns 86-89, got {rank!r}")
    if _field(line, 90, 91).strip():
        raise fail(f"expected blanks in columns 90-91 before round 1, got {_field(line, 90, 91)!r}")
    player = Player(
        id=int(start),
        name=name,
        rating=int(rating_text) if rating_text else 0,
        federation=federation,
        title=title,
        sex=sex.strip(),
        fide_id=fide_id,
        birth=_field(line, 70, 79).strip(),
    )
    parsed = _PlayerLine(player, number)
    for index, start_at in enumerate(range(_ROUND_START, len(line), _ROUND_WIDTH), start=1):
        block = line[start_at : start_at + _ROUND_WIDTH].ljust(_ROUND_WIDTH)
        entry = _parse_round(block, index, start_at + 1, fail)
        if entry is not None:
            parsed.entries[index] = _Entry(entry[0], entry[1], entry[2], number, start_at + 1)
    return parsed


def _parse_round(
    block: str, rnd: int, column: int, fail: Callable[[str], InputError]
) -> tuple[int | None, str, str] | None:
    """One 10-column round block: opponent (4), blank, colour, blank, result, 2 blanks."""
    for offset in (4, 6, 8, 9):
        if block[offset] != " ":
            raise fail(
                f"round {rnd}: expected a blank in column {column + offset}, got {block[offset]!r} "
                f"(a round is 'oooo c r' from column {column}: opponent, colour, result)"
            )
    opponent_text = block[:4].strip()
    if not opponent_text or set(opponent_text) == {"0"}:
        opponent = None
    elif _DIGITS.fullmatch(opponent_text):
        opponent = int(opponent_text)
    else:
        raise fail(
            f"round {rnd}: expected an opponent's start number (or 0000) in columns "
            f"{column}-{column + 3}, got {opponent_text!r}"
        )
    colour = _COLOURS.get(block[5].lower())
    if colour is None:
        raise fail(f"round {rnd}: expected the colour w, b or - in column {column + 5}, got {block[5]!r}")
    letter = block[7].upper()
    if letter not in _RESULT_LETTERS:
        raise fail(
            f"round {rnd}: expected a result (1 = 0 + - W D L H F U Z or blank) in column {column + 7}, "
            f"got {block[7]!r}"
        )
    if opponent is None:
        if colour != "-":
            raise fail(f"round {rnd}: colour {block[5]!r} in column {column + 5} without an opponent")
        if letter in "WDL":
            raise fail(f"round {rnd}: result {letter!r} in column {column + 7} needs an opponent")
        if letter == " ":
            return None  # blank: nothing recorded
    elif letter in "HFUZ":
        raise fail(
            f"round {rnd}: result {letter!r} is a bye, but columns {column}-{column + 3} name "
            f"opponent {opponent}: expected 0000 for a bye"
        )
    return opponent, colour, letter


def system_from_type(text: str) -> System | None:
    """The system a ``092``/``192`` type text names, or None when it does not say.

    >>> system_from_type("swiss FIDE Dutch (JaVaFo)"), system_from_type("Double Round Robin")
    (<System.SWISS: 'swiss'>, <System.DOUBLE_ROUND_ROBIN: 'double-round-robin'>)
    """
    named = system_named(text)
    return None if named is None else System(named)


def infer_system(players: Iterable[Player], games: Iterable[Game]) -> System:
    """ROUND_ROBIN (DOUBLE_ROUND_ROBIN) when every pair of players is scheduled exactly once
    (twice), counting played, forfeited and unfinished games; SWISS otherwise.

    >>> a, b, c = (Player(i, str(i)) for i in (1, 2, 3))
    >>> infer_system([a, b, c], [Game(1, 1, 2, None), Game(2, 3, 1, None), Game(3, 2, 3, None)])
    <System.ROUND_ROBIN: 'round-robin'>
    """
    games = tuple(games)
    return System(system_scheduled(len({p.id for p in players}), len(games), ((g.white, g.black) for g in games)))


def _pair_up(players: dict[int, _PlayerLine], source: str) -> tuple[tuple[Game, ...], tuple[Bye, ...]]:
    """Games from the mirrored entries of both players, byes from the rest."""
    games: list[Game] = []
    explicit: list[Bye] = []
    for pid in sorted(players):
        for rnd, entry in sorted(players[pid].entries.items()):
            if entry.opponent is None:
                explicit.append(Bye(rnd, pid, _BYE_LETTERS[entry.letter]))
                continue
            game = _game(pid, rnd, entry, players, source)
            if game is not None:
                games.append(game)

    played_round = max((g.round for g in games if g.result is not None), default=0)
    absent = [
        Bye(rnd, pid, ByeKind.ZERO)
        for pid in sorted(players)
        for rnd in range(1, played_round + 1)
        if rnd not in players[pid].entries
    ]
    byes = sorted(explicit + absent, key=lambda b: (b.round, b.player))

    numbered: list[Game] = []
    by_round: dict[int, list[Game]] = defaultdict(list)
    for g in games:
        by_round[g.round].append(g)
    for rnd in sorted(by_round):
        ordered = sorted(by_round[rnd], key=lambda g: min(g.white, g.black))
        numbered.extend(
            Game(g.round, g.white, g.black, g.result, board, g.rated, g.colours_known)
            for board, g in enumerate(ordered, start=1)
        )
    return tuple(numbered), tuple(byes)


def _game(pid: int, rnd: int, entry: _Entry, players: dict[int, _PlayerLine], source: str) -> Game | None:
    """The game ``entry`` of player ``pid`` describes, once per pair (from the lower id)."""
    opponent = entry.opponent
    assert opponent is not None

    def fail(message: str) -> InputError:
        return InputError(f"round {rnd} (column {entry.column}): {message}", source=source, line=entry.line)

    if opponent == pid:
        raise fail(f"player {pid} is listed as their own opponent")
    if opponent not in players:
        raise fail(f"opponent {opponent} is not a player: expected the start number of a 001 line")
    other = players[opponent].entries.get(rnd)
    if other is None or other.opponent != pid:
        said = "nothing" if other is None else "a bye" if other.opponent is None else f"opponent {other.opponent}"
        raise fail(
            f"player {pid} is paired with {opponent}, but player {opponent} (line {players[opponent].line}) "
            f"lists {said} in round {rnd}: expected {pid}"
        )
    if (entry.colour, other.colour) not in (("w", "b"), ("b", "w"), ("-", "-")):
        raise fail(
            f"colours {entry.colour!r} (player {pid}) and {other.colour!r} (player {opponent}, line "
            f"{players[opponent].line}) do not fit: expected w/b, b/w or -/-"
        )
    pair = (entry.letter, other.letter)
    if pair not in _PAIRS:
        shown = tuple("blank" if letter == " " else letter for letter in pair)
        raise fail(
            f"results {shown[0]!r} (player {pid}) and {shown[1]!r} (player {opponent}, line "
            f"{players[opponent].line}) do not fit: expected 1/0, =/=, 0/0, =/0, W/L, D/D, L/L, D/L, "
            "+/-, -/- or both blank"
        )
    if pid > opponent:
        return None  # made once, from the lower start number's line
    colours_known = entry.colour != "-"
    white_is_pid = entry.colour == "w" or not colours_known  # pid is the lower number
    letters = pair if white_is_pid else (other.letter, entry.letter)
    result, rated = _PAIRS[letters]
    white, black = (pid, opponent) if white_is_pid else (opponent, pid)
    return Game(rnd, white, black, result, 0, rated, colours_known)


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------


def trf_refusal(tournament: Tournament) -> str | None:
    """Why TRF cannot hold ``tournament`` without losing a game, or None.  TRF has one entry per
    player and round, so two games between the same players in one round (a two-game match,
    VN 21.2; a multiple round robin's match, CXA 14.2) do not fit; the TOML export keeps them.

    >>> from ranking.event.model import Game, Player, Result
    >>> t = Tournament("Match", (Player(1, "A"), Player(2, "B")), 1,
    ...                (Game(1, 1, 2, Result.DRAW), Game(1, 2, 1, Result.WHITE_WINS)))
    >>> trf_refusal(t).split(":")[0:2]
    ['round 1', ' players 1 and 2 play a match of 2 games (VN 21.2), and TRF holds one game a round']
    """
    games: dict[tuple[int, frozenset[int]], int] = {}
    for game in tournament.games:
        key = (game.round, frozenset((game.white, game.black)))
        games[key] = games.get(key, 0) + 1
    for (number, pair), count in sorted(games.items(), key=lambda item: (item[0][0], sorted(item[0][1]))):
        if count > 1 and len(pair) == 2:
            first, second = sorted(pair)
            return (f"round {number}: players {first} and {second} play a match of {count} games (VN 21.2), and "
                    "TRF holds one game a round: export the tournament as TOML, which keeps every game")
    return None


def write_trf(
    tournament: Tournament,
    points: Mapping[int, float] | None = None,
    ranks: Mapping[int, int] | None = None,
) -> str:
    """The tournament as TRF text (FIDE C.04 Annex 2; TRF-2026 for teams), one ``001`` line
    per player.

    Order: ``012`` name, the kept records in order (records whose tag is not 3 characters,
    such as a TOML slug, are left out), ``XXR`` rounds, ``XXS`` when the scoring is not
    chess 1/½/0, ``212 PTS,...`` when the rules have a tie-break chain, ``092`` when the
    system is a round robin (or would not be inferred) and no ``092`` is kept, then the
    players by starting number with the points and rank columns filled from ``points`` and
    ``ranks`` when given.  A withdrawn player's rounds after the withdrawal, up to the next
    round to pair, are written as zero-point byes.  ``362`` (in the columns of ``162``)
    is written when the team match points are the event's own; a team chain (or a team primary
    score) as ``212 PTS:MP,...`` (``PTS:GP`` for an event ranked by game points first), the
    individual chain then as ``202``.  Teams follow the players (``_team_lines``): ``013``
    when numbered 1..n (else ``310``), ``320`` for team PABs (with the preset's PAB MP/GP),
    ``240`` for other team byes, ``330`` for forfeited team matches, ``300`` for a team whose
    players in a match, by board, are not in roster order.  TRF has no board numbers (only
    the order within a team match), team matches given by totals, or team forfeits without
    their opponent: those are lost.  The game, the slug, the rules' options and play-off rule,
    clubs, fouls, withdrawals, play-off games and the team preset follow in ``### tiebreak``
    comment records (``ranking.formats.trf_extras``), which other programs skip and ``parse_trf``
    reads back.  Raises InputError when a value does not fit its columns or a player has two
    entries in one round (``trf_refusal`` says why: two-game matches, VN 21.2, need TOML).
    """
    t = tournament
    refusal = trf_refusal(t)
    if refusal is not None:
        raise InputError(refusal)
    if _LINE_BREAK.search(t.name):
        raise InputError("the tournament name contains a line break: TRF holds one line")
    if not 0 <= t.rounds <= _MAX_ID:
        raise InputError(f"{t.rounds} rounds: TRF holds 0-9999")
    kept: list[tuple[str, str]] = []
    for tag, rest in t.records:
        if len(tag) != 3 or any(ch.isspace() for ch in tag) or tag in _REGENERATED or tag.startswith("###"):
            continue  # not a TRF record (e.g. a TOML slug), or written from the model below
        if tag == BYES26 and t.teams:
            continue  # a team file's 240 records are its team byes, written from them below
        if _LINE_BREAK.search(rest):
            raise InputError(f"record {tag} contains a line break: TRF holds one line per record")
        kept.append((tag, rest))
    type_at = next((k for k, (tag, _) in enumerate(kept) if tag == TYPE), None)
    if type_at is not None and _derived_system(kept, t) is not t.system:
        kept[type_at] = (TYPE, TYPE_NAMES[t.system])  # the kept text contradicts the system

    lines = [f"{NAME} {t.name}".rstrip()]
    lines += [f"{tag} {rest}".rstrip() for tag, rest in kept]
    if t.rounds:
        lines += [f"142 {t.rounds}", f"XXR {t.rounds}"]
    if t.rules is not None and t.rules.scoring != CHESS:
        lines += [*_162(t.rules.scoring), _xxs(t.rules.scoring)]
    lines += _pairing_lines(t, kept)
    chain = t.rules.tiebreaks if t.rules is not None else ()
    team_chain = bool(t.teams) and bool(t.team_tiebreaks or t.team_primary)
    if team_chain:  # PTS:MP also where the codes alone would read as an individual chain
        primary = t.team_primary or ("" if _team_codes(t.team_tiebreaks) else "MP")
        lines.append("212 " + ",".join((f"PTS:{primary}" if primary else "PTS", *_codes(t.team_tiebreaks))))
    if chain:
        lines.append(("202 " if team_chain else "212 PTS,") + ",".join(_codes(chain)))
    if type_at is None and (t.system.is_round_robin or _derived_system(kept, t) is not t.system):
        lines.append(f"{TYPE} {TYPE_NAMES[t.system]}")
    if t.teams and t.team_match_points is not None:
        lines.append(_362(t.team_match_points))

    entries = _entries(t, _forfeited_boards(t))
    for player in sorted(t.players, key=lambda p: p.id):
        lines.append(_player_line(player, t.rounds, entries.get(player.id, {}), points, ranks))
    lines += _team_lines(t, kept, points is not None and ranks is not None)
    lines += extra_lines(t)
    return "\n".join(lines) + "\n"


#: Tags ``parse_trf`` turns into fields (never kept in ``records``) and ``write_trf`` writes
#: from those fields.  ``092`` is kept (its text says more than the system) unless it is
#: exactly the canonical name of ``TYPE_NAMES``; a second ``012`` is kept.
_REGENERATED = frozenset({PLAYER, *ROUNDS_TAGS, *SCORING_TAGS, *CHAIN_TAGS, TEAM26, TEAM_PAB, TEAM_FORFEIT, TEAM_ORDER,
                          TEAM_SCORING})


def _codes(codes: Iterable[str]) -> list[str]:
    """Tie-break codes for ``202``/``212``: none blank or holding a comma or a line break."""
    codes = list(codes)
    if any("," in code or not code.strip() or _LINE_BREAK.search(code) for code in codes):
        raise InputError("a tie-break code is blank or contains a comma or a line break: it cannot be written to 212")
    return [code.strip() for code in codes]


def _columns(value: float, width: int, what: str) -> str:
    """A number in TRF's ``11.5`` format, right-aligned in ``width`` columns."""
    text = f"{value:{width}.1f}"
    if len(text) > width or float(text) != value:
        raise InputError(f"{what} {value:g} does not fit TRF's {width} columns with one decimal")
    return text


def _362(match_points: tuple[float, float, float]) -> str:
    """TRF-2026 ``362`` in the columns of ``162``: each code in 5-6, 14-15, 23-24, its points in
    the 4 columns after it."""
    won, drawn, lost = (_columns(value, 4, "362: match points") for value in match_points)
    return f"{TEAM_SCORING} TW{won}   TD{drawn}   TL{lost}"


def _trf_2026_teams(t: Tournament) -> bool:
    """Whether the team records are TRF-2026's (310 numbers the teams that 320, 240, 330, 300
    and 362 refer to; 013 is to be phased out)."""
    return bool(t.team_byes or any(match.forfeit for match in t.team_matches) or t.team_match_points is not None
                or t.team_pab is not None or t.team_tiebreaks or t.team_primary or _board_order_lines(t))


def _team_lines(t: Tournament, kept: list[tuple[str, str]], standings: bool) -> list[str]:
    """Team records after the players, in the columns of TRF-2026: ``013`` (TRF-16) when the
    teams are numbered 1..n in order and nothing else of TRF-2026 is written, else ``310``
    (with the match points, game points and place of the team standings when the players'
    points and places are written: ``standings``); then ``320`` for the pairing-allocated byes
    (with the event's PAB match and game points), ``240`` for the full-, half- and zero-point
    byes, ``330`` for the forfeited matches and ``300`` for each team that played a match
    (games between members of two teams) in a board order other than its roster's."""
    if not t.teams:
        if t.team_matches or t.team_byes:
            raise InputError("team matches or team byes without teams: TRF numbers them by team record")
        return []
    members = {p.id for p in t.players}
    for team in t.teams:
        if _LINE_BREAK.search(team.name) or not team.name.strip():
            raise InputError(f"team {team.id}: the name {team.name!r} is blank or holds a line break")
        for pid in team.roster:
            if pid not in members:
                raise InputError(f"team {team.name!r}: player {pid} is not in the tournament's players")
    sixteen = [team.id for team in t.teams] == list(range(1, len(t.teams) + 1)) and not any(
        tag == TEAM16 for tag, _ in kept
    ) and not _trf_2026_teams(t)
    # The 320 values and the 310 standings need the event's team scoring; loading team standings
    # for every TRF read would cost start-up time (and only team files need it).
    from ranking.standings.team import team_event_of, team_standings

    event = team_event_of(t)
    rows = {row.team.id: row for row in team_standings(event).rows} if standings and not sixteen else {}
    lines = []
    for team in t.teams:
        roster = " ".join(f"{pid:>4}" for pid in team.roster)
        name = team.name.strip()[:32]
        if sixteen:
            lines.append(f"{TEAM16} {name:<32}{roster}".rstrip())
        else:
            if not 1 <= team.id <= _MAX_TEAM:
                raise InputError(f"team {team.id}: TRF team numbers are 1-999")
            row = rows.get(team.id)
            match_points = game_points = ""  # a team classification has neither (CXA 14.8)
            if row is not None and row.match_points is not None and row.game_points is not None:
                match_points = _columns(row.match_points, 6, "310: match points")
                game_points = _columns(row.game_points, 6, "310: game points")
            place = f"{row.rank:>3}" if row and row.rank <= 999 else ""
            lines.append(f"{TEAM26} {team.id:>3} {name:<32} {'':<5} {'':>6} {match_points:>6} {game_points:>6} "
                         f"{place:>3}  {roster}".rstrip())
    pabs: dict[int, list[int]] = defaultdict(list)
    byes: dict[tuple[str, int], list[int]] = defaultdict(list)
    for bye in t.team_byes:
        if bye.kind is TeamByeKind.PAB:
            pabs[bye.round].append(bye.team)
        elif bye.kind in _240_LETTERS:
            byes[(_240_LETTERS[bye.kind], bye.round)].append(bye.team)
    if pabs:
        match_points, game_points = (_columns(value, 4, "320: PAB points")
                                     for value in event.scoring.unplayed(Kind.PAIRING_BYE))
        last = max(pabs)
        for layer in range(max(len(teams) for teams in pabs.values())):
            fields = []
            for rnd in range(1, last + 1):
                teams = sorted(pabs.get(rnd, ()))
                fields.append(f"{teams[layer] if layer < len(teams) else 0:03d}")
            lines.append(f"{TEAM_PAB} {match_points} {game_points} {' '.join(fields)}")
    for (letter, rnd), teams in sorted(byes.items(), key=lambda item: (item[0][1], item[0][0])):
        if not 1 <= rnd <= _MAX_TEAM:
            raise InputError(f"round {rnd}: TRF's 240 holds rounds 1-999")
        lines.append(f"{BYES26} {letter} {rnd:03d}" + "".join(f"  {team:03d}" for team in sorted(teams)))
    for match in sorted(t.team_matches, key=lambda m: (m.round, m.first)):
        if match.forfeit is None:
            continue  # totals or boards: TRF has no team-match record for them
        if match.forfeit not in TEAM_FORFEITS:
            raise InputError(f"round {match.round}: forfeit {match.forfeit!r}: expected +-, -+ or --")
        lines.append(f"{TEAM_FORFEIT} {match.forfeit} {match.round:03d} {match.first:03d} {match.second:03d}")
    lines += _board_order_lines(t)
    return lines


_240_LETTERS = {TeamByeKind.FPB: "F", TeamByeKind.HPB: "H", TeamByeKind.ZPB: "Z"}
_PLAYER_240 = {TeamByeKind.FPB: ByeKind.FULL, TeamByeKind.HPB: ByeKind.HALF, TeamByeKind.ZPB: ByeKind.ZERO}


def _forfeited_boards(t: Tournament) -> list[Game]:
    """The boards of each forfeited team match (``330``) whose players have no games in that
    round: the k-th members of the two rosters meet on board k, the first team with white on
    the odd boards, each board forfeited as the match is (C.07 12: a forfeit counts on every
    board).  FIDE's reference program reads a forfeited match from its boards in the player
    lines."""
    if not t.teams:
        return []
    rosters = {team.id: team.roster for team in t.teams}
    busy = {(game.round, pid) for game in t.games for pid in (game.white, game.black)}
    busy |= {(bye.round, bye.player) for bye in t.byes if bye.kind is not ByeKind.ZERO}  # not mere absences
    boards = []
    results = {"+-": Result.WHITE_WINS_FORFEIT, "-+": Result.BLACK_WINS_FORFEIT, "--": Result.DOUBLE_FORFEIT}
    for match in t.team_matches:
        if match.forfeit not in results:
            continue
        first, second = rosters.get(match.first, ()), rosters.get(match.second, ())
        pairs = list(zip(first, second, strict=False))
        if any((match.round, pid) in busy for pair in pairs for pid in pair):
            continue  # the file gives the boards (or the players played elsewhere): nothing to add
        for board, (own, other) in enumerate(pairs, start=1):
            result = results[match.forfeit]
            if board % 2:
                boards.append(Game(match.round, own, other, result, board))
            else:  # the second team has white on the even boards
                swapped = {Result.WHITE_WINS_FORFEIT: Result.BLACK_WINS_FORFEIT,
                           Result.BLACK_WINS_FORFEIT: Result.WHITE_WINS_FORFEIT}.get(result, result)
                boards.append(Game(match.round, other, own, swapped, board))
    return boards


def _board_order_lines(t: Tournament) -> list[str]:
    """``300`` for every team whose players in a match, by board, are not in roster order."""
    member_of = {pid: team.id for team in t.teams for pid in team.roster}
    roster_place = {team.id: {pid: k for k, pid in enumerate(team.roster)} for team in t.teams}
    lines = []
    matches = _match_games(t.games, member_of)
    for (rnd, pair), match in sorted(matches.items(), key=lambda item: (item[0][0], sorted(item[0][1]))):
        ordered = sorted(match, key=lambda game: game.board)
        for team_id in sorted(pair):
            players = [g.white if member_of[g.white] == team_id else g.black for g in ordered]
            if players == sorted(players, key=roster_place[team_id].__getitem__):
                continue
            (opponent,) = pair - {team_id}
            if not 1 <= rnd <= _MAX_TEAM or not 1 <= team_id <= _MAX_TEAM or not 1 <= opponent <= _MAX_TEAM:
                raise InputError(f"round {rnd}: team {team_id}'s board order: TRF's 300 holds rounds and teams 1-999")
            listed = " ".join(f"{pid:04d}" for pid in players)
            lines.append(f"{TEAM_ORDER} {rnd:03d} {team_id:03d} {opponent:03d} {listed}")
    return lines


def _derived_system(records: Iterable[tuple[str, str]], t: Tournament) -> System:
    """The system ``parse_trf`` would read back: the first 092, else 192, else inferred."""
    for wanted in (TYPE, ENCODED_TYPE):
        text = next((rest for tag, rest in records if tag == wanted), None)
        if text is not None:
            found = system_from_type(text)
            if found is not None:
                return found
    return infer_system(t.players, t.games)


def _fmt(value: float) -> str:
    """A number as JaVaFo writes it: ``1``, ``0.5``."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _162(s: Scoring) -> list[str]:
    """TRF-2026 ``162`` for what it can say of a scoring system (W win, forfeit win and
    full-point bye; D draw and half-point bye; L loss; A zero-point bye and forfeit loss;
    P pairing-allocated bye), each code in columns 6, 15, 24, ... and its points in the four
    after; ``XXS``, written after it, says the rest exactly to readers that know it.  Nothing
    (an empty list) when a value does not fit those four columns: ``XXS`` alone says it."""
    codes = [("W", s.win), ("D", s.draw), ("L", s.loss)]
    if s.zero_bye or s.forfeit_loss_points:
        codes.append(("A", s.zero_bye))
    if s.pairing_bye_points != s.win:
        codes.append(("P", s.pairing_bye_points))
    try:
        return ["162" + "".join(f"  {code}{_columns(value, 4, f'162 {code}')}  " for code, value in codes).rstrip()]
    except InputError:
        return []


def _pairing_lines(t: Tournament, kept: list[tuple[str, str]]) -> list[str]:
    """What a pairing program needs of a Swiss event's pairing settings (``pairing.*``
    records), as TRF-2026 and JaVaFo write it: ``152``/``XXC`` the initial colour (when set,
    or when round 1 is not paired yet: the colour drawn by lot; afterwards round 1 shows it),
    ``250`` the virtual points of an accelerated event (C.04.7) and ``260`` the pairs that
    must not meet.  Records the file already had are kept as they were."""
    if t.system.is_round_robin or t.teams:
        return []
    from ranking.pairing.dutch.state import (  # the Dutch engine's reading of the records (loaded only here)
        Acceleration,
        PairingOptions,
        initial_colour,
        recorded_colour,
        virtual_points,
    )

    tags = {tag for tag, _ in kept}
    options = {tag.removeprefix("pairing."): rest.strip() for tag, rest in t.records if tag.startswith("pairing.")}
    lines = []
    unpaired = not t.games and not any(b.kind is ByeKind.PAIRING for b in t.byes)
    if not tags & {"152", "XXC"} and not recorded_colour(t) and (
            options.get("initial_colour") or (unpaired and t.players)):
        colour = initial_colour(t, PairingOptions(initial_colour=options.get("initial_colour", "")))
        lines += [f"152 {colour}", "XXC " + ("white1" if colour == "W" else "black1")]
    if options.get("acceleration", "").lower() == Acceleration.BAKU and not tags & {"XXA", "250"}:
        scoring = t.rules.scoring if t.rules is not None else Scoring()
        virtual = virtual_points(t, scoring, PairingOptions(acceleration=Acceleration.BAKU))
        lines += _250(virtual)
    for tag, rest in t.records:
        if tag == "pairing.forbidden":
            numbers = [int(token) for token in rest.replace(",", " ").split() if token.isdigit()]
            lines.append(f"260 001 {max(t.rounds, 1):03d} " + " ".join(f"{pid:4d}" for pid in numbers))
    return lines


def _250(virtual: Mapping[int, Mapping[int, object]]) -> list[str]:
    """TRF-2026 ``250`` records for per-player, per-round virtual points: one record per run
    of consecutive start numbers with the same points in the same run of rounds."""
    runs: dict[tuple[object, int, int], list[int]] = defaultdict(list)  # (points, first, last round) -> ids
    for pid in sorted(virtual):
        rounds = sorted(virtual[pid])
        points = virtual[pid]
        start = 0
        for k in range(1, len(rounds) + 1):
            if k == len(rounds) or rounds[k] != rounds[k - 1] + 1 or points[rounds[k]] != points[rounds[start]]:
                runs[(points[rounds[start]], rounds[start], rounds[k - 1])].append(pid)
                start = k
    lines = []
    for (points, first, last), ids in sorted(runs.items(), key=lambda item: (item[0][1], item[1][0])):
        begin = ids[0]
        for k in range(1, len(ids) + 1):
            if k == len(ids) or ids[k] != ids[k - 1] + 1:
                lines.append(f"250      {_columns(float(points), 4, '250: points')} {first:03d} {last:03d} "
                             f"{begin:04d} {ids[k - 1]:04d}")
                if k < len(ids):
                    begin = ids[k]
    return lines


def _xxs(s: Scoring) -> str:
    """``XXS`` (JaVaFo TRF(x)) for a scoring system; read back by ``ranking.formats.trf_fields.scoring_fields``."""
    parts = [f"W={_fmt(s.win)}", f"D={_fmt(s.draw)}", f"WL={_fmt(s.loss)}", f"BL={_fmt(s.loss)}"]
    if s.draw_first is not None or s.draw_second is not None:
        first = s.draw if s.draw_first is None else s.draw_first
        second = s.draw if s.draw_second is None else s.draw_second
        parts += [f"WD={_fmt(first)}", f"BD={_fmt(second)}"]
    if s.zero_bye != 0:
        parts.append(f"ZPB={_fmt(s.zero_bye)}")
    for key, value in (
        ("HPB", s.half_bye),
        ("FPB", s.full_bye),
        ("PAB", s.pairing_bye),
        ("FW", s.forfeit_win),
        ("FL", s.forfeit_loss),
    ):
        if value is not None:
            parts.append(f"{key}={_fmt(value)}")
    return "XXS " + " ".join(parts)


def _entries(t: Tournament, extra: Iterable[Game] = ()) -> dict[int, dict[int, tuple[str, str, str]]]:
    """player -> round -> (opponent, colour, letter) for every game (and the ``extra`` ones,
    which take the place of a zero-point bye), bye and withdrawal."""
    entries: dict[int, dict[int, tuple[str, str, str]]] = defaultdict(dict)
    known = {p.id for p in t.players}

    def put(pid: int, rnd: int, value: tuple[str, str, str]) -> None:
        if pid not in known:
            raise InputError(f"round {rnd}: player {pid} is not in the tournament's players")
        if not 1 <= rnd <= t.rounds:
            raise InputError(f"round {rnd} of player {pid} is outside rounds 1-{t.rounds}")
        if rnd in entries[pid]:
            raise InputError(f"player {pid} has two games or byes in round {rnd}: TRF holds one per round")
        entries[pid][rnd] = value

    extra = tuple(extra)
    for g in (*t.games, *extra):
        if g.result is None:
            white_letter = black_letter = " "
        else:
            rated = g.rated or g.result.is_forfeit
            white_letter, black_letter = _LETTERS[(g.result, rated)]
        white_colour, black_colour = ("w", "b") if g.colours_known else ("-", "-")
        put(g.white, g.round, (f"{g.black:>4}", white_colour, white_letter))
        put(g.black, g.round, (f"{g.white:>4}", black_colour, black_letter))
    taken = {(pid, g.round) for g in extra for pid in (g.white, g.black)}
    for b in t.byes:
        if b.kind is ByeKind.ZERO and (b.player, b.round) in taken:
            continue  # an absence in a round whose board the forfeited match fills
        put(b.player, b.round, ("0000", "-", b.kind.value))
    # every later round up to the next one to pair, so a pairing program never pairs the player
    # again (and reads no round beyond it as played: bbpPairings pairs the round after the file's last)
    horizon = min(t.rounds, 1 + max([g.round for g in t.games] + [b.round for b in t.byes if b.kind is ByeKind.PAIRING],
                                    default=0))
    for w in t.withdrawals:
        if w.player not in known:
            raise InputError(f"withdrawal of player {w.player}, who is not in the tournament's players")
        for rnd in range(w.after_round + 1, horizon + 1):
            if rnd not in entries[w.player]:
                entries[w.player][rnd] = ("0000", "-", ByeKind.ZERO.value)
    return entries


def _fit(value: str, width: int, what: str, pid: int) -> str:
    if len(value) > width or _LINE_BREAK.search(value):
        raise InputError(f"player {pid}: {what} {value!r} does not fit TRF's {width} columns")
    return value


def _points_column(value: float) -> str:
    """Points as TRF's four columns hold them: ``4.5``, ``99.5``; a whole score of 100 or more
    without its decimal (``120``); blank when even that does not fit (readers count the points
    from the rounds, so the column is only a summary)."""
    text = f"{value:4.1f}"
    if len(text) > 4 and float(value).is_integer():
        text = f"{value:4.0f}"
    return text if len(text) <= 4 else ""


def _player_line(
    p: Player,
    rounds: int,
    entries: Mapping[int, tuple[str, str, str]],
    points: Mapping[int, float] | None,
    ranks: Mapping[int, int] | None,
) -> str:
    if not 1 <= p.id <= _MAX_ID:
        raise InputError(f"player {p.id}: TRF start numbers are 1-9999")
    if p.sex and not (len(p.sex) == 1 and p.sex.isalpha()):
        raise InputError(f"player {p.id}: sex {p.sex!r} is not one letter")
    if not 0 <= p.rating <= _MAX_ID:
        raise InputError(f"player {p.id}: rating {p.rating} does not fit TRF's 4 columns")
    if p.federation and not p.federation.isalpha():
        raise InputError(f"player {p.id}: federation {p.federation!r} is not letters")
    if p.fide_id and not _FIDE_ID.fullmatch(p.fide_id):
        raise InputError(f"player {p.id}: FIDE id {p.fide_id!r} is not digits")
    name = p.name[:33]
    _fit(name, 33, "name", p.id)
    score = _points_column(points[p.id]) if points is not None and p.id in points else ""
    rank = ""
    if ranks is not None and p.id in ranks:
        rank = _fit(str(ranks[p.id]), 4, "rank", p.id)
    head = (
        f"{PLAYER} {p.id:>4} {_fit(p.sex, 1, 'sex', p.id):1}{_fit(p.title, 3, 'title', p.id):>3} {name:<33} "
        f"{str(p.rating) if p.rating else '':>4} {_fit(p.federation, 3, 'federation', p.id):<3} "
        f"{_fit(p.fide_id, 11, 'FIDE id', p.id):>11} {_fit(p.birth, 10, 'birth date', p.id):<10} "
        f"{score:>4} {rank:>4}"
    )
    blocks = []
    for rnd in range(1, rounds + 1):
        opponent, colour, letter = entries.get(rnd, ("    ", " ", " "))
        blocks.append(f"{opponent} {colour} {letter}  ")
    return (head + "  " + "".join(blocks)).rstrip()
