"""Reading a FIDE TRF-16 / TRF-2026 file's player and round records into the tournament model.

Sources: FIDE C.04 Annex 2 "TRF-16" (Krause 2006, approved Elista 2015) for the ``001``
player record and the ``012``-``132`` tournament records; the TEC's TRF-2026 (approved by
FIDE Council 12/05/2025) for ``###`` comments, ``142`` (rounds), ``162`` (scoring),
``202``/``212`` (tie-breaks) and ``240`` (byes); the JaVaFo Advanced User Manual ("TRF(x)") for
``XXR`` (rounds) and ``XXS`` (scoring).  The team records are read by
``ranking.formats.trf_teams``, Tiebreak's own ``### tiebreak`` records by
``ranking.formats.trf_extras``; ``ranking.formats.trf_write`` writes the file back.

``parse_trf`` turns text into a ``Tournament`` (``infer_system`` decides the system a file does
not name).  It is pure: no file I/O (``tiebreak.files`` reads files).

>>> t = parse_trf('''012 Mini
... 001    1      Alpha, A                          2100                             1.0    1     2 w 1
... 001    2      Beta, B                           2000                             0.0    2     1 b 0
... ''')
>>> t.games[0].result
<Result.WHITE_WINS: '1-0'>
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

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
from ranking.formats.trf_extras import MARK, apply_extras
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
from ranking.formats.trf_records import (
    _PAIRS,
    _PLAYER_240,
    BYES26,
    CHAIN_TAGS,
    ENCODED_TYPE,
    NAME,
    PLAYER,
    ROUNDS_TAGS,
    SCORING_TAGS,
    TEAM16,
    TEAM26,
    TEAM_FORFEIT,
    TEAM_ORDER,
    TEAM_PAB,
    TEAM_SCORING,
    TYPE,
    TYPE_NAMES,
)
from ranking.scoring.rules import Rules, Scoring

TYPE_CHECKING = False  # the team records' reader (ranking.formats.trf_teams) loads only for a file that has them
if TYPE_CHECKING:
    from ranking.formats.trf_teams import _BoardOrder, _TeamLine

__all__ = ["infer_system", "parse_trf", "system_from_type"]

_ROUND_START = 91  # 0-based index of round 1's block: column 92
_ROUND_WIDTH = 10
_RESULT_LETTERS = frozenset("+-10=WDLHFUZ ")
_COLOURS = {"w": "w", "b": "b", "-": "-", " ": "-"}
_FITTING_COLOURS = frozenset({("w", "b"), ("b", "w"), ("-", "-")})  # a game's two entries
#: a line's round blocks when each is a game against a start number (colour w or b, a result
#: letter) or a bye (``0000 -`` and a letter), as Tiebreak and the pairing programs write them:
#: read without ``_parse_round``'s checks, which find nothing to refuse in them
_PLAIN_BLOCK = r"(?:(?: {3}[1-9]| {2}[1-9][0-9]| [1-9][0-9]{2}|[1-9][0-9]{3}) [wb] [-+10=WDL]|0000 - [-+10=HFUZ])"
_PLAIN_ROUNDS = re.compile(rf"(?:{_PLAIN_BLOCK}  )*{_PLAIN_BLOCK}")

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


class _Entry(NamedTuple):
    """One round block of a ``001`` line (a tuple: a field of 1,000 players has 11,000 of them)."""

    opponent: int | None
    colour: str  # "w", "b" or "-"
    letter: str  # upper case; " " = blank
    line: int
    column: int  # 1-based column of the block


_new_entry = tuple.__new__  # builds an _Entry without NamedTuple's slower __new__


@dataclass(slots=True)
class _PlayerLine:
    """A ``001`` record read: its player, its line and its round entries by round."""

    player: Player
    line: int
    entries: dict[int, _Entry] = field(default_factory=dict)


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
    lines = LINE_BREAK.split(text.removeprefix("\ufeff"))
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
            from ranking.formats.trf_teams import _order_boards  # team files only (start-up time)

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
        if not (self.teams26 or self.teams16 or self.pab_lines or self.forfeit_lines or self.order_lines):
            return (), [], [], None, rounds  # no team records
        from ranking.formats.trf_teams import _check_teams, _known_team, _parse_240  # team files only (start-up time)

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
        from ranking.formats.trf_teams import _parse_240  # files with 240 records only (start-up time)

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
        from ranking.formats.trf_teams import _team_codes  # team files only (start-up time)

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
    from ranking.formats.trf_teams import _parse_013  # team records only (start-up time)

    reading.teams16.append(_parse_013(line, len(reading.teams16) + 1, number, reading.source))
    reading.records.append((tag, line[4:].rstrip()))  # dropped later unless 310 records win


def _read_team26(reading: _Reading, tag: str, line: str, number: int) -> None:
    from ranking.formats.trf_teams import _parse_310  # team records only (start-up time)

    reading.teams26.append(_parse_310(line, number, reading.source))


def _read_team_pab(reading: _Reading, tag: str, line: str, number: int) -> None:
    from ranking.formats.trf_teams import _parse_320  # team records only (start-up time)

    reading.pab_lines.append((*_parse_320(line[4:], number, reading.source), number))


def _read_byes(reading: _Reading, tag: str, line: str, number: int) -> None:
    """``240``: a team file's team byes (``_Reading._team_records``); kept otherwise."""
    reading.bye_lines.append((line[4:], number))
    _read_other(reading, tag, line, number)


def _read_team_forfeit(reading: _Reading, tag: str, line: str, number: int) -> None:
    from ranking.formats.trf_teams import _parse_330  # team records only (start-up time)

    reading.forfeit_lines.append((_parse_330(line[4:], number, reading.source), number))


def _read_team_order(reading: _Reading, tag: str, line: str, number: int) -> None:
    from ranking.formats.trf_teams import _parse_300  # team records only (start-up time)

    reading.order_lines.append(_parse_300(line[4:], number, reading.source))


def _read_team_scoring(reading: _Reading, tag: str, line: str, number: int) -> None:
    """``362``: read onto the tournament (``write_trf`` writes it from there)."""
    from ranking.formats.trf_teams import team_match_points_of  # team records only (start-up time)

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


def _parse_player(line: str, number: int, source: str) -> _PlayerLine:
    """One ``001`` record (C.04 Annex 2 player section)."""

    def fail(message: str) -> InputError:
        return InputError(message, source=source, line=number)

    padded = line if len(line) >= _ROUND_START else line.ljust(_ROUND_START)  # the columns before round 1
    start = padded[4:8].strip()
    if not DIGITS.fullmatch(start) or not 1 <= int(start) <= MAX_ID:
        raise fail(f"expected a start number 1-9999 in columns 5-8, got {start!r}")
    if padded[8:9] != " ":
        raise fail(f"expected a blank in column 9 after the start number, got {line[8]!r}")
    sex = padded[9:10]
    if sex != " " and not sex.isalpha():
        raise fail(f"expected the sex (m, w or blank) in column 10, got {sex!r}")
    title = padded[10:13].strip()
    name = padded[14:47].strip()
    rating_text = padded[48:52].strip()
    if rating_text and not DIGITS.fullmatch(rating_text):
        raise fail(f"expected a rating (digits) in columns 49-52, got {rating_text!r}")
    federation = padded[53:56].strip()
    if federation and not federation.isalpha():
        raise fail(f"expected a federation (letters such as NOR) in columns 54-56, got {federation!r}")
    fide_id = padded[57:68].strip()
    if fide_id and not FIDE_ID.fullmatch(fide_id):
        raise fail(f"expected a FIDE id (digits) in columns 58-68, got {fide_id!r}")
    points = padded[80:84].strip()
    if points and not NUMBER.fullmatch(points):
        raise fail(f"expected the points (such as 4.5) in columns 81-84, got {points!r}")
    rank = padded[85:89].strip()
    if rank and not DIGITS.fullmatch(rank):
        raise fail(f"expected the rank (digits) in columns 86-89, got {rank!r}")
    if padded[89:91].strip():
        raise fail(f"expected blanks in columns 90-91 before round 1, got {padded[89:91]!r}")
    player = Player(
        id=int(start),
        name=name,
        rating=int(rating_text) if rating_text else 0,
        federation=federation,
        title=title,
        sex=sex.strip(),
        fide_id=fide_id,
        birth=padded[69:79].strip(),
    )
    parsed = _PlayerLine(player, number)
    if _PLAIN_ROUNDS.fullmatch(line, _ROUND_START):
        entries = parsed.entries
        for index, start_at in enumerate(range(_ROUND_START, len(line), _ROUND_WIDTH), start=1):
            opponent = int(line[start_at : start_at + 4]) or None  # 0000: a bye
            colour, letter = line[start_at + 5], line[start_at + 7]
            entries[index] = _new_entry(_Entry, (opponent, colour, letter, number, start_at + 1))
        return parsed
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
    elif DIGITS.fullmatch(opponent_text):
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
    """Games from the mirrored entries of both players, byes from the rest.

    A game is made from the lower start number's line; within a round that is the order of
    the boards.  An entry whose opponent's entry mirrors it (the other player, fitting colours
    and results) is taken as it stands; any other goes to ``_game``, which names the mistake."""
    entries_of = {pid: reading.entries for pid, reading in players.items()}
    by_round: dict[int, list[_GameFields]] = {}
    explicit: list[Bye] = []
    played_round = 0
    for pid in sorted(entries_of):
        for rnd, entry in sorted(entries_of[pid].items()):
            opponent, colour, letter, _, _ = entry
            if opponent is None:
                explicit.append(Bye(rnd, pid, _BYE_LETTERS[letter]))
                continue
            theirs = entries_of.get(opponent)
            other = None if theirs is None else theirs.get(rnd)
            if other is None or other[0] != pid or opponent == pid:
                game = _game(pid, rnd, entry, players, source)  # raises the mistake
            elif pid > opponent:
                continue  # made once, and checked, from the lower start number's line (both checks are symmetric)
            elif (colour, other[1]) not in _FITTING_COLOURS or (letter, other[2]) not in _PAIRS:
                game = _game(pid, rnd, entry, players, source)  # raises the mistake
            else:
                colours_known = colour != "-"
                if colour == "w" or not colours_known:  # pid is the lower number
                    result, rated = _PAIRS[letter, other[2]]
                    game = (rnd, pid, opponent, result, rated, colours_known)
                else:
                    result, rated = _PAIRS[other[2], letter]
                    game = (rnd, opponent, pid, result, rated, colours_known)
            if game is not None:
                by_round.setdefault(rnd, []).append(game)
                if rnd > played_round and game[3] is not None:
                    played_round = rnd

    absent = [
        Bye(rnd, pid, ByeKind.ZERO)
        for pid in sorted(players)
        for rnd in range(1, played_round + 1)
        if rnd not in players[pid].entries
    ]
    byes = sorted(explicit + absent, key=lambda b: (b.round, b.player))

    numbered: list[Game] = []
    for rnd in sorted(by_round):  # each round's games come by their lower start number already
        numbered.extend(
            Game(number, white, black, result, board, rated, colours_known)
            for board, (number, white, black, result, rated, colours_known) in enumerate(by_round[rnd], start=1)
        )
    return tuple(numbered), tuple(byes)


#: a game's fields but its board (round, white, black, result, rated, colours_known): the Game is
#: made once its board is known
_GameFields = tuple[int, int, int, Result | None, bool, bool]


def _game(pid: int, rnd: int, entry: _Entry, players: dict[int, _PlayerLine], source: str) -> _GameFields | None:
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
    if (entry.colour, other.colour) not in _FITTING_COLOURS:
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
    return rnd, white, black, result, rated, colours_known

