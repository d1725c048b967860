"""Reading a TRF file's team records: teams, team byes, forfeited team matches, board order, match points.

Sources: FIDE C.04 Annex 2 "TRF-16" for ``013`` (teams); the TEC's TRF-2026 (approved by FIDE
Council 12/05/2025) for ``310`` (teams), ``320`` (team pairing-allocated byes), ``240`` (byes),
``330`` (forfeited team matches), ``300`` (out-of-order boards) and ``362`` (team match points).
Each record's parser checks its own fields; ``ranking.formats.trf_read`` calls them and checks
them against each other and the player records, and ``_order_boards`` hands each team match's
board numbers out in its board order.  ``ranking.formats.trf_write`` writes them back.

>>> team_match_points_of("TW 3.0   TD 1.0   TL 0.0")
(3.0, 1.0, 0.0)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from ranking.errors import InputError
from ranking.event.model import Game, Team, TeamByeKind, TeamMatch
from ranking.formats.trf_fields import DIGITS, MAX_ID, NUMBER
from ranking.formats.trf_records import _240_KINDS, _MAX_TEAM, TEAM16, TEAM26, TEAM_FORFEITS, _field

TYPE_CHECKING = False  # the reader imports this module; its player lines are named here for type checkers only
if TYPE_CHECKING:
    from ranking.formats.trf_read import _PlayerLine

__all__ = ["team_match_points_of"]

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
        if not _TEAM_NUMBER.fullmatch(token) or int(token) > MAX_ID:
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
    if not DIGITS.fullmatch(pairing) or not 1 <= int(pairing) <= _MAX_TEAM:
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
    if len(tokens) < 2 or not all(NUMBER.fullmatch(token) for token in tokens[:2]):
        raise InputError(
            "320: expected the PAB match points and game points (such as '320  2.0  4.0  003  000'), "
            f"got {rest.strip()!r}",
            source=source,
            line=number,
        )
    found: list[tuple[int, int]] = []
    for rnd, token in enumerate(tokens[2:], start=1):
        if not DIGITS.fullmatch(token) or int(token) > _MAX_TEAM:
            raise InputError(
                f"320: round {rnd}: expected a team number (000 for none), got {token!r}",
                source=source,
                line=number,
            )
        if int(token):
            found.append((rnd, int(token)))
    return (float(tokens[0]), float(tokens[1])), found


def _parse_240(rest: str, number: int, source: str, teams: bool = True) -> tuple[TeamByeKind, int, list[int]]:
    """TRF-2026 ``240``: the kind of bye (5: ``F`` full-point, ``H`` half-point, ``Z``
    zero-point), the round (7-9) and the teams (a team file) or players that get it (11-14,
    16-19, ...).  Read as blank-separated fields."""
    tokens = rest.split()
    kind = _240_KINDS.get(tokens[0].upper()) if tokens else None
    if (
        kind is None
        or len(tokens) < 3
        or not all(DIGITS.fullmatch(token) for token in tokens[1:])
        or not 1 <= int(tokens[1]) <= MAX_ID
        or not all(1 <= int(token) <= (_MAX_TEAM if teams else MAX_ID) for token in tokens[2:])
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
    numbers_ok = len(tokens) == 4 and all(DIGITS.fullmatch(token) for token in tokens[1:])
    if kind not in TEAM_FORFEITS or not numbers_ok or not 1 <= int(tokens[1]) <= MAX_ID:
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
        or not all(DIGITS.fullmatch(token) for token in tokens)
        or not 1 <= int(tokens[0]) <= MAX_ID
        or not all(1 <= int(token) <= _MAX_TEAM for token in tokens[1:3])
        or any(int(token) > MAX_ID for token in tokens[3:])
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

