"""The tournament TOML file (docs/architecture.md#files) read into the model with tomllib, table by
table (written by ``ranking.formats.toml_export``; each value read with its check by
``ranking.formats.toml_values``, its line found by ``ranking.formats.toml_lines``; the entries
checked together by ``ranking.formats.toml_checks``).

Layout::

    [tournament]
    slug = "hanoi-xiangqi-2026"      # kept as the record ("slug", value)
    name = "Hanoi Xiangqi Open 2026"
    game = "xiangqi"                 # "chess" (default) | "xiangqi"
    system = "swiss"                 # "swiss" | "round-robin" | "double-round-robin"; else inferred
    rounds = 9                       # else the last round named by a game or bye, and at least
                                     # a round robin's n-1 (n: odd field; doubled: double RR)
    rules = "cxa-swiss-bh"           # a preset (ranking.tiebreaks.presets); the keys below override it
    scoring = { win = 2, draw = 1, loss = 0 }   # replaces the preset's scoring; or its name:
                                     #   "chess", "xiangqi", "three-point", "three-point-colour"
    tiebreaks = ["BH", "WIN"]        # replaces the preset's chain
    options = { keep_rounds = 7 }    # changes only the options named
    place = "Hanoi"                  # the header: kept as the TRF records 022, 032, 042, 052, 102,
    start_date = 2026-03-14          #   112 and 122 (place, federation, start_date, end_date,
    chief_arbiter = "Nguyễn Văn A"   #   chief_arbiter, deputy_arbiters, time_control)
    records = [["092", "Swiss"]]     # other TRF records kept for export (written by Tiebreak)
    team_rules = "fide-team"         # team events: a team preset; team_tiebreaks replaces its chain,
    team_primary = "GP"              # ... the score ranked first, team_match_points = [2, 1, 0] its
    team_pab = [2, 4]                # ... match points and team_pab a PAB's [MP, GP] (TRF-2026 362, 320)

    [[players]]   id, name, rating, federation, club, title, sex, fide_id, birth
    [[games]]     round, board, white (or red), black, result, fouls = {white|red, black}, rated,
                  colours_known
    [[byes]]      round, player, kind ("pab" "full" "half" "zero" or U F H Z)
    [[withdrawals]] player, after_round

Every mistake raises ``InputError`` with the source, the line where it can be found and what
was expected.  ``parse_tournament_toml(write_tournament_toml(t)) == t``.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ranking.errors import InputError
from ranking.event.model import (
    Bye,
    ByeKind,
    Game,
    GameKind,
    Player,
    Result,
    Seeding,
    System,
    Team,
    TeamBye,
    TeamByeKind,
    TeamMatch,
    Tournament,
    Withdrawal,
)
from ranking.event.slugs import is_slug
from ranking.formats.toml_checks import _check_code, _check_games_listed_once, _check_schedule
from ranking.formats.toml_lines import _Lines
from ranking.formats.toml_plain import read_plain_toml
from ranking.formats.toml_values import (
    _check_keys,
    _choice,
    _entries,
    _get,
    _int,
    _number,
    _Reader,
    _show,
    _str,
)
from ranking.formats.trf_records import HEADER_RECORDS, TEAM_SCORING
from ranking.scoring.rules import SCORING_SYSTEMS, Options, PlayoffRule, Rules, Scoring
from ranking.tiebreaks.presets import get_preset, get_team_preset

__all__ = ["parse_tournament_toml"]

SLUG = "slug"
MAX_ROUNDS = 9999
_TOP_KEYS = ("tournament", "players", "games", "byes", "withdrawals", "playoff_games", "teams", "team_matches",
             "team_byes")
_TOURNAMENT_KEYS = (
    "slug",
    "name",
    "game",
    "system",
    "rounds",
    "seeding",
    "ranking_list",
    "rules",
    "scoring",
    "tiebreaks",
    "options",
    "records",
    "playoff",
    "team_rules",
    "team_tiebreaks",
    "team_primary",
    "team_match_points",
    "team_pab",
    *HEADER_RECORDS,  # place, start_date, ...: kept as the TRF header records (022, 042, ...)
)
_PLAYER_KEYS = ("id", "name", "rating", "federation", "club", "title", "sex", "fide_id", "birth")
_GAME_KEYS = ("round", "board", "white", "red", "black", "result", "fouls", "rated", "colours_known")
_BYE_KEYS = ("round", "player", "kind")
_WITHDRAWAL_KEYS = ("player", "after_round")
_SCORING_KEYS = (
    "win",
    "draw",
    "loss",
    "draw_first",
    "draw_second",
    "pairing_bye",
    "half_bye",
    "full_bye",
    "zero_bye",
    "forfeit_win",
    "forfeit_loss",
    "match",
)
_BYE_KINDS = {
    "pab": ByeKind.PAIRING,
    "full": ByeKind.FULL,
    "half": ByeKind.HALF,
    "zero": ByeKind.ZERO,
    "u": ByeKind.PAIRING,
    "f": ByeKind.FULL,
    "h": ByeKind.HALF,
    "z": ByeKind.ZERO,
}
_BYE_NAMES = {kind: kind.word for kind in ByeKind}
_SYSTEMS = {s.value: s for s in System}
_SEEDINGS = {s.value: s for s in Seeding}
_GAMES = {g.value: g for g in GameKind}

def parse_tournament_toml(text: str, source: str = "<toml>") -> Tournament:
    """Read a tournament TOML file (docs/architecture.md#files) into a Tournament.

    ``rules`` names a preset (``ranking.tiebreaks.presets.get_preset``); ``scoring`` and
    ``tiebreaks`` replace the preset's, ``options`` change the options named.  Without a
    preset but with overrides the base is ``Rules()``; with neither, ``rules`` is None.
    The slug is kept as the first record, ``("slug", value)``.
    """
    if not isinstance(text, str):
        raise InputError(f"expected TOML text, got {type(text).__name__}", source=source)
    data = read_plain_toml(text)  # the layout Tiebreak writes, read fast
    return _tournament_of(_read_toml(text, source) if data is None else data, _Reader(source, _Lines(text)))


def _read_toml(text: str, source: str) -> dict[str, Any]:
    """Any other layout, read by tomllib (loaded only then: start-up time); its refusals worded
    with the line and column."""
    import tomllib

    try:
        return tomllib.loads(text)
    except RecursionError:
        raise InputError("TOML: arrays or tables nested too deeply", source=source) from None
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        at = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(at.group(1)) if at else (text.count("\n") + 1 if "end of document" in message else None)
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
        column = f" (column {at.group(2)})" if at else ""
        raise InputError(f"TOML syntax: {message}{column}", source=source, line=line) from None
    except ValueError as error:  # e.g. an integer of more than 4300 digits
        raise InputError(f"TOML: {error}", source=source) from None


def _tournament_of(data: Mapping[str, Any], r: _Reader) -> Tournament:
    """The tournament of a file's data (TOML's values: tables, arrays, strings, numbers,
    booleans, dates), checked as the file is; ``r`` says where each key is written."""

    def top(key: str | None) -> int | None:
        return r.lines.table("", key) if key else None

    _check_keys(r, data, _TOP_KEYS, "the file", lambda key: r.lines.table(key or "") or top(key))
    if "tournament" not in data:
        raise r.fail('missing the [tournament] table: expected [tournament] with at least name = "..."', None)
    info = _get(r, data, "tournament", dict, "the file", top, expected="a [tournament] table")

    def at(key: str | None) -> int | None:
        return r.lines.table("tournament", key)

    _check_keys(r, info, _TOURNAMENT_KEYS, "[tournament]", at)
    name = _str(r, info, "name", "[tournament]", at, required=True)
    records: list[tuple[str, str]] = []
    slug = _get(r, info, "slug", str, "[tournament]", at, expected="a string")
    if slug is not None:
        if not is_slug(slug):
            raise r.fail(
                f"[tournament]: slug = {_show(slug)}: expected letters, digits, '-', '_' or '.', "
                "starting with a letter or digit (it is used in URLs and commands)",
                at("slug"),
            )
        records.append((SLUG, slug))
    records += _header_records(r, info, at)
    given = {tag for tag, _ in records}
    for tag, text in _records(r, info, at):
        if tag in given and tag in HEADER_RECORDS.values():
            key = next(key for key, known in HEADER_RECORDS.items() if known == tag)
            raise r.fail(f"[tournament]: {key} and the record {tag} say the same: give one of them", at("records"))
        records.append((tag, text))
    game_kind = _choice(r, info, "game", _GAMES, "[tournament]", at, GameKind.CHESS)

    players = _players(r, data.get("players", []))
    ids = {p.id for p in players}
    games = _games(r, data.get("games", []), ids)
    byes = _byes(r, data.get("byes", []), ids)
    withdrawals = _withdrawals(r, data.get("withdrawals", []), ids)
    playoff_games = _games(r, data.get("playoff_games", []), ids, section="playoff_games")
    teams, team_matches, team_byes = _teams(r, data, ids)
    team_rules = _str(r, info, "team_rules", "[tournament]", at) or ""
    if team_rules:
        try:
            get_team_preset(team_rules)
        except InputError as error:
            raise r.fail(f"[tournament]: team_rules: {error.message}", at("team_rules")) from None
    team_tiebreaks = tuple(_get(r, info, "team_tiebreaks", list, "[tournament]", at,
                                expected='an array of team codes such as ["GP", "EDE"]') or ())
    team_primary = _str(r, info, "team_primary", "[tournament]", at)
    if team_primary not in ("", "MP", "GP"):
        raise r.fail(f'[tournament]: team_primary = {_show(team_primary)}: expected "MP" or "GP"', at("team_primary"))
    team_pab = _numbers(r, info, "team_pab", 2, at, "[match points, game points] such as [2, 4]")
    team_match_points = _numbers(r, info, "team_match_points", 3, at, "[win, draw, loss] such as [2, 1, 0]")
    if team_match_points is not None and not team_match_points[0] > team_match_points[1] >= team_match_points[2]:
        raise r.fail("[tournament]: team_match_points: a won match must score more than a drawn one, a drawn one "
                     "at least a lost one", at("team_match_points"))

    used = max([g.round for g in games] + [b.round for b in byes], default=0)
    if "rounds" in info:
        rounds = _int(r, info, "rounds", "[tournament]", at, minimum=0, maximum=MAX_ROUNDS)
        if used > rounds:
            late = [f"[[games]] entry {k + 1}" for k, g in enumerate(games) if g.round > rounds]
            late += [f"[[byes]] entry {k + 1}" for k, b in enumerate(byes) if b.round > rounds]
            raise r.fail(
                f"[tournament]: rounds = {rounds}, but {late[0]} is in a later round: expected "
                f"rounds of at least {used}",
                at("rounds"),
            )
    else:  # a round robin's rounds follow from its field (players, or teams in a team event)
        rounds = max(used, _system(r, info, at, players, games).scheduled_rounds(len(teams) or len(players)))
    for k, w in enumerate(withdrawals):
        if w.after_round > rounds:
            raise r.fail(
                f"[[withdrawals]] entry {k + 1}: after_round = {w.after_round}, but the tournament has {rounds} rounds",
                r.lines.entry("withdrawals", k, "after_round"),
            )
    rules = _rules(r, info, at)
    _check_schedule(r, games, byes, withdrawals)
    _check_games_listed_once(r, games, matches=rules is not None and rules.scoring.match is not None)

    system = _system(r, info, at, players, games)
    seeding = _choice(r, info, "seeding", _SEEDINGS, "[tournament]", at, Seeding.RATING)
    ranking_list = _ranking_list(r, info, ids, at)

    return Tournament(
        name=name,
        players=players,
        rounds=rounds,
        games=games,
        byes=byes,
        withdrawals=withdrawals,
        system=system,
        game=game_kind,
        rules=rules,
        records=tuple(records),
        playoff_games=playoff_games,
        teams=teams,
        team_matches=team_matches,
        team_byes=team_byes,
        team_rules=team_rules,
        team_tiebreaks=team_tiebreaks,
        team_match_points=team_match_points or _team_match_points(r, records, at),
        team_pab=team_pab,
        team_primary=team_primary,
        seeding=seeding,
        ranking_list=ranking_list,
    )


def _ranking_list(r: _Reader, info: Mapping[str, Any], ids: set[int],
                  at: Callable[[str | None], int | None]) -> tuple[int, ...]:
    """``ranking_list``: the initial ranking list kept since round 4 was paired (GHR 2.3), as
    the players' ids in TPN order; each a player of the file, once."""
    value = _get(r, info, "ranking_list", list, "[tournament]", at, expected="an array of players' ids")
    if value is None:
        return ()
    seen: set[int] = set()
    for pid in value:
        if isinstance(pid, bool) or not isinstance(pid, int) or pid not in ids or pid in seen:
            raise r.fail(f"[tournament]: ranking_list: {_show(pid)} is not a player's id (each player once)",
                         at("ranking_list"))
        seen.add(pid)
    return tuple(value)


def _numbers(r: _Reader, info: Mapping[str, Any], key: str, count: int, at: Callable[[str | None], int | None],
             expected: str) -> tuple[float, ...] | None:
    """``key``: an array of ``count`` finite numbers, or None when absent."""
    value = _get(r, info, key, list, "[tournament]", at, expected=expected)
    if value is None:
        return None
    if len(value) != count or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                                      for v in value):
        raise r.fail(f"[tournament]: {key} = {_show(value)}: expected {expected}", at(key))
    return tuple(float(v) for v in value)
def _system(r: _Reader, info: Mapping[str, Any], at: Callable[[str | None], int | None],
            players: tuple[Player, ...], games: tuple[Game, ...]) -> System:
    """``system``, else what the games say (``infer_system``)."""
    if "system" in info:
        return _choice(r, info, "system", _SYSTEMS, "[tournament]", at, System.SWISS)
    from ranking.formats.trf_read import infer_system  # a file that names no system only (start-up time)

    return infer_system(players, games)


def _team_match_points(r: _Reader, records: list[tuple[str, str]],
                       at: Callable[[str | None], int | None]) -> tuple[float, float, float] | None:
    """A TRF-2026 ``362`` record kept by an earlier version (before ``team_match_points``) means
    what it means in a TRF."""
    text = next((rest for tag, rest in records if tag == TEAM_SCORING), None)
    if text is None:
        return None
    from ranking.formats.trf_teams import team_match_points_of  # such a record only (start-up time)

    try:
        return team_match_points_of(text)
    except InputError as error:
        raise r.fail(f"[tournament] records: {error.message}", at("records")) from None


def _teams(r: _Reader, data: Mapping[str, Any], ids: set[int]) -> tuple[tuple, tuple, tuple]:
    """[[teams]] (id, name, roster in board order), [[team_matches]] given by totals or as
    forfeits (round, first, second, first_points, second_points, forfeit), [[team_byes]]."""
    teams = []
    for index, item, where in _entries(r, data.get("teams", []), "teams"):
        what = f"[[teams]] entry {index + 1}"
        _check_keys(r, item, ("id", "name", "roster"), what, where)
        team_id = _int(r, item, "id", what, where, minimum=1)
        name = _str(r, item, "name", what, where, required=True)
        roster = _get(r, item, "roster", list, what, where, expected="an array of starting numbers") or []
        for member in roster:
            if not isinstance(member, int) or member not in ids:
                raise r.fail(f"{what}: roster: {_show(member)} is not a player's starting number", where("roster"))
        teams.append(Team(team_id, name, tuple(roster)))
    team_ids = {team.id for team in teams}
    if len(team_ids) != len(teams):
        raise r.fail("[[teams]]: two teams share an id", r.lines.entry("teams", 0, "id"))
    matches = []
    for index, item, where in _entries(r, data.get("team_matches", []), "team_matches"):
        what = f"[[team_matches]] entry {index + 1}"
        _check_keys(r, item, ("round", "first", "second", "first_points", "second_points", "forfeit"), what, where)
        sides = []
        for key in ("first", "second"):
            team = _int(r, item, key, what, where, minimum=1)
            if team not in team_ids:
                raise r.fail(f"{what}: {key} = {team}: no team has this id", where(key))
            sides.append(team)
        forfeit = _get(r, item, "forfeit", str, what, where, expected='"+-", "-+" or "--"')
        if forfeit is not None and forfeit not in ("+-", "-+", "--"):
            raise r.fail(f'{what}: forfeit = {_show(forfeit)}: expected "+-", "-+" or "--"', where("forfeit"))
        totals = _number(r, item, "first_points", what, where), _number(r, item, "second_points", what, where)
        if (totals[0] is None) != (totals[1] is None):  # one total says nothing of the match
            given, missing = ("first_points", "second_points") if totals[1] is None else ("second_points",
                                                                                           "first_points")
            raise r.fail(f"{what}: {given} without {missing}: a match given by its totals needs both "
                         "(each team's game points)", where(given))
        matches.append(TeamMatch(_int(r, item, "round", what, where, minimum=1), sides[0], sides[1],
                                 first_points=totals[0], second_points=totals[1], forfeit=forfeit))
    byes = []
    for index, item, where in _entries(r, data.get("team_byes", []), "team_byes"):
        what = f"[[team_byes]] entry {index + 1}"
        _check_keys(r, item, ("round", "team", "kind"), what, where)
        team = _int(r, item, "team", what, where, minimum=1)
        if team not in team_ids:
            raise r.fail(f"{what}: team = {team}: no team has this id", where("team"))
        kind_text = _get(r, item, "kind", str, what, where, expected='"PAB", "HPB" or "ZPB"') or "PAB"
        try:
            kind = TeamByeKind(kind_text.upper())
        except ValueError:
            raise r.fail(f"{what}: kind = {_show(kind_text)}: expected one of "
                         f"{', '.join(k.value for k in TeamByeKind)}", where("kind")) from None
        byes.append(TeamBye(_int(r, item, "round", what, where, minimum=1), team, kind))
    return tuple(teams), tuple(matches), tuple(byes)


def _header_records(r: _Reader, info: Mapping[str, Any],
                    at: Callable[[str | None], int | None]) -> list[tuple[str, str]]:
    """``place``, ``start_date``, ``chief_arbiter``, ... as the TRF records that hold them; a date
    is a TOML date (``2026-03-14``) or a string, and is kept as TRF writes it (``2026/03/14``)."""
    records = []
    for key, tag in HEADER_RECORDS.items():
        if key not in info:
            continue
        value = info[key]
        if key.endswith("_date") and isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
            text = value.strftime("%Y/%m/%d")
        elif isinstance(value, str) and "\n" not in value and "\r" not in value:
            text = value.strip()
        else:
            expected = "a date such as 2026-03-14, or a string" if key.endswith("_date") else "a string on one line"
            raise r.fail(f"[tournament]: {key} = {_show(value)}: expected {expected}", at(key))
        if text:
            records.append((tag, text))
    return records


def _records(r: _Reader, info: Mapping[str, Any], at: Callable[[str | None], int | None]) -> list[tuple[str, str]]:
    value = _get(r, info, "records", list, "[tournament]", at, expected='an array of ["tag", "text"] pairs')
    records = []
    for item in value or []:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not all(isinstance(part, str) for part in item)
            or item[0] == SLUG
        ):
            raise r.fail(
                f'[tournament]: records: {_show(item)}: expected a ["tag", "text"] pair of strings '
                'such as ["022", "Hanoi"]',
                at("records"),
            )
        records.append((item[0], item[1]))
    return records


def _players(r: _Reader, value: object) -> tuple[Player, ...]:
    players: list[Player] = []
    seen: dict[int, int] = {}
    for index, item, where in _entries(r, value, "players"):
        what = f"[[players]] entry {index + 1}"
        _check_keys(r, item, _PLAYER_KEYS, what, where)
        pid = _int(r, item, "id", what, where, minimum=1, required=True)
        if pid in seen:
            raise r.fail(f"{what}: duplicate id {pid}: already used by [[players]] entry {seen[pid] + 1}", where("id"))
        seen[pid] = index
        fide_id = _get(r, item, "fide_id", (str, int), what, where, expected="a string")
        players.append(
            Player(
                id=pid,
                name=_str(r, item, "name", what, where, required=True),
                rating=_int(r, item, "rating", what, where, minimum=0, maximum=9999),
                federation=_str(r, item, "federation", what, where),
                club=_str(r, item, "club", what, where),
                title=_str(r, item, "title", what, where),
                sex=_str(r, item, "sex", what, where),
                fide_id="" if fide_id is None else str(fide_id),
                birth=_str(r, item, "birth", what, where),
            )
        )
    return tuple(players)


def _player_ref(r: _Reader, item: Mapping[str, Any], key: str, what: str, where: Callable, ids: set[int]) -> int:
    pid = _int(r, item, key, what, where, minimum=1, required=True)
    if pid not in ids:
        raise r.fail(f"{what}: {key} = {pid} is not a player: expected the id of a [[players]] entry", where(key))
    return pid


#: a game entry's keys when it is written as Tiebreak writes most games: read without the general
#: checks' detours when each value is one they accept
_PLAIN_GAME_KEYS = frozenset({"round", "board", "white", "black", "result"})
#: each result as the writer spells it (``Result.parse`` reads it so)
_PLAIN_RESULTS = {result.value: result for result in Result if Result.parse(result.value) is result}


def _games(r: _Reader, value: object, ids: set[int], section: str = "games") -> tuple[Game, ...]:
    games = []
    for index, item, where in _entries(r, value, section):
        if item.keys() <= _PLAIN_GAME_KEYS:  # round, board, white, black, result: each checked as below
            number, board, white, black = item.get("round"), item.get("board", 0), item.get("white"), item.get("black")
            result_text = item.get("result")
            plain_result = result_text is None or (type(result_text) is str and result_text in _PLAIN_RESULTS)
            if (type(number) is int and type(board) is int and type(white) is int and type(black) is int
                    and 1 <= number <= MAX_ROUNDS and board >= 0 and white != black and white in ids
                    and black in ids and plain_result):
                games.append(Game(number, white, black, None if result_text is None else _PLAIN_RESULTS[result_text],
                                  board))  # positional: 5,000 games are made faster so
                continue
        what = f"[[{section}]] entry {index + 1}"
        _check_keys(r, item, _GAME_KEYS, what, where)
        if "red" in item and "white" in item:
            raise r.fail(f"{what}: both red and white: expected one of them (red is white in xiangqi)", where("red"))
        white = _player_ref(r, item, "red" if "red" in item else "white", what, where, ids)
        black = _player_ref(r, item, "black", what, where, ids)
        if white == black:
            raise r.fail(f"{what}: player {white} cannot play themselves", where("black"))
        result_text = _get(r, item, "result", str, what, where, expected='a result such as "1-0"')
        result = None
        if result_text is not None:
            try:
                result = Result.parse(result_text)
            except ValueError as error:
                raise r.fail(f"{what}: {error}", where("result")) from None
        fouls = _get(r, item, "fouls", dict, what, where, expected="a table such as { black = 1 }") or {}

        def fouls_where(key: str | None, where: Callable[[str | None], int | None] = where) -> int | None:
            return where("fouls")  # the line is found only for a refusal

        _check_keys(r, fouls, ("white", "red", "black"), f"{what}: fouls", fouls_where)
        if "red" in fouls and "white" in fouls:
            raise r.fail(f"{what}: fouls has both red and white: expected one of them", where("fouls"))

        fouls_white = _int(r, fouls, "red" if "red" in fouls else "white", f"{what}: fouls", fouls_where, minimum=0)
        rated = _get(r, item, "rated", bool, what, where, expected="true or false")
        colours_known = _get(r, item, "colours_known", bool, what, where, expected="true or false")
        games.append(
            Game(
                round=_int(r, item, "round", what, where, minimum=1, maximum=MAX_ROUNDS, required=True),
                white=white,
                black=black,
                result=result,
                board=_int(r, item, "board", what, where, minimum=0),
                rated=True if rated is None else rated,
                colours_known=True if colours_known is None else colours_known,
                fouls_white=fouls_white,
                fouls_black=_int(r, fouls, "black", f"{what}: fouls", fouls_where, minimum=0),
            )
        )
    return tuple(games)


def _byes(r: _Reader, value: object, ids: set[int]) -> tuple[Bye, ...]:
    byes = []
    accepted = '"pab", "full", "half", "zero" (or U, F, H, Z)'
    for index, item, where in _entries(r, value, "byes"):
        what = f"[[byes]] entry {index + 1}"
        _check_keys(r, item, _BYE_KEYS, what, where)
        kind_text = _get(r, item, "kind", str, what, where, required=True, expected=accepted)
        kind = _BYE_KINDS.get(kind_text.lower())
        if kind is None:
            raise r.fail(f"{what}: kind = {_show(kind_text)}: expected {accepted}", where("kind"))
        byes.append(
            Bye(
                round=_int(r, item, "round", what, where, minimum=1, maximum=MAX_ROUNDS, required=True),
                player=_player_ref(r, item, "player", what, where, ids),
                kind=kind,
            )
        )
    return tuple(byes)


def _withdrawals(r: _Reader, value: object, ids: set[int]) -> tuple[Withdrawal, ...]:
    withdrawals = []
    seen: set[int] = set()
    for index, item, where in _entries(r, value, "withdrawals"):
        what = f"[[withdrawals]] entry {index + 1}"
        _check_keys(r, item, _WITHDRAWAL_KEYS, what, where)
        player = _player_ref(r, item, "player", what, where, ids)
        if player in seen:
            raise r.fail(f"{what}: player {player} already withdrew in an earlier entry", where("player"))
        seen.add(player)
        after = _int(r, item, "after_round", what, where, minimum=0, maximum=MAX_ROUNDS, required=True)
        withdrawals.append(Withdrawal(player, after))
    return tuple(withdrawals)


def _scoring(r: _Reader, table: Mapping[str, Any], where: Callable[[str | None], int | None]) -> Scoring:
    what = "[tournament] scoring"
    _check_keys(r, table, _SCORING_KEYS, what, where)
    win, draw, loss = (_number(r, table, key, what, where) for key in ("win", "draw", "loss"))
    if win is None or draw is None or loss is None:
        raise r.fail(f"{what}: expected win, draw and loss, such as {{ win = 2, draw = 1, loss = 0 }}", where(None))
    if not win > draw >= loss:
        raise r.fail(f"{what}: a win must score more than a draw, a draw at least a loss", where(None))
    match = _get(r, table, "match", list, what, where, expected="[win, draw, loss] match points")
    if match is not None:
        if len(match) != 3 or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in match
        ):
            raise r.fail(
                f"{what}: match = {_show(match)}: expected [win, draw, loss] match points such as [2, 1, 0]",
                where("match"),
            )
        match = tuple(float(v) for v in match)
    optional = {key: _number(r, table, key, what, where) for key in _SCORING_KEYS[3:-1]}
    if optional["zero_bye"] is None:
        optional["zero_bye"] = 0.0
    return Scoring(win=win, draw=draw, loss=loss, match=match, **optional)


def _rules(r: _Reader, info: Mapping[str, Any], at: Callable[[str | None], int | None]) -> Rules | None:
    preset = _get(r, info, "rules", str, "[tournament]", at, expected="the name of a preset")
    overrides = [key for key in ("scoring", "tiebreaks", "options", "playoff") if key in info]
    if preset is None and not overrides:
        return None
    if preset is None:
        rules = Rules()
    else:
        try:
            rules = get_preset(preset)
        except InputError as error:
            raise r.fail(f"[tournament]: rules: {error.message}", at("rules")) from None
    if "scoring" in info:
        expected = f"a scoring's name ({', '.join(SCORING_SYSTEMS)}) or a table such as {{ win = 2, ... }}"
        value = _get(r, info, "scoring", (str, dict), "[tournament]", at, expected=expected)
        if isinstance(value, str):
            if value not in SCORING_SYSTEMS:
                raise r.fail(f"[tournament]: scoring = {_show(value)}: expected {expected}", at("scoring"))
            rules = replace(rules, scoring=SCORING_SYSTEMS[value])
        else:
            rules = replace(rules, scoring=_scoring(r, value, lambda key: at("scoring")))
    if "tiebreaks" in info:
        chain = _get(r, info, "tiebreaks", list, "[tournament]", at, expected='an array of codes such as ["BH"]')
        for code in chain:
            if not isinstance(code, str) or not code.strip():
                raise r.fail(
                    f'[tournament]: tiebreaks: {_show(code)}: expected a tie-break code such as "BH"',
                    at("tiebreaks"),
                )
            _check_code(r, code, at("tiebreaks"))
        rules = replace(rules, tiebreaks=tuple(chain))
    if "options" in info:
        values = _get(r, info, "options", dict, "[tournament]", at, expected="a table such as { keep_rounds = 7 }")
        for key, value in values.items():
            wanted = int if key == "keep_rounds" else str
            if isinstance(value, bool) or not isinstance(value, wanted):
                kind = "an integer" if wanted is int else "a string"
                raise r.fail(f"[tournament] options: {key} = {_show(value)}: expected {kind}", at("options"))
        try:
            options = Options.from_mapping(values, base=rules.options)
        except (ValueError, TypeError) as error:
            raise r.fail(f"[tournament] options: {error}", at("options")) from None
        rules = replace(rules, options=options)
    if "playoff" in info:
        table = _get(r, info, "playoff", dict, "[tournament]", at,
                     expected='a table such as { places = [1], when = "before-tiebreaks" }')
        try:
            rules = replace(rules, playoff=PlayoffRule.from_mapping(table))
        except (ValueError, TypeError) as error:
            raise r.fail(f"[tournament] playoff: {error}", at("playoff")) from None
    return rules
