"""The team tie-breaks (docs/rules.md#tie-break-codes, FIDE C.07 11-13, CXA 14.7-14.8): one small function per
code, registered in ``TEAM_REGISTRY``.

Scored tie-breaks return one value per team (index order of ``TeamSheet.teams``), or
(values, sort keys) when the order needs more than the value (SUMRANK, a keyed entry);
ordering tie-breaks (EDE, BC, TBR, BBE) split a tied group into tiers, best first
(``ranking.registry`` has the entry kinds).

Codes: ``NAME[:MP|:GP][/Cn|/Mn][/P]`` (``BH-C1:MP`` is ``BH:MP/C1``); without ``:MP``/``:GP`` a
code uses the event's primary score.  ``ESB:MG`` is ``EMGSB`` (letters: opponent's score, own
score).  ``FOUL:T`` is the team's fouls.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ranking.codes import TeamSpec, parse_team_code
from ranking.model import Player, Tournament
from ranking.ordering import direct_encounter_tiers, runs_of_equal
from ranking.presets import get_preset
from ranking.registry import Registry, Value, cut_total, lots
from ranking.rounds import NO_OPPONENT, Kind
from ranking.rules import DirectEncounterMode, Edition, ShortTeams
from ranking.standings import compute_standings
from ranking.team_sheet import TeamRecord, TeamSheet

#: The team tie-breaks by code (FIDE C.07 11-13, CXA 14.7-14.8); ``TEAM_REGISTRY.parse(code)`` reads a code.
TEAM_REGISTRY: Registry[TeamSpec] = Registry(parse_team_code)
_register = TEAM_REGISTRY.register


# -- helpers -----------------------------------------------------------------------------------

def _primary(sheet: TeamSheet) -> str:
    return sheet.rules.primary if sheet.rules.primary in ("MP", "GP") else "MP"


def _secondary(sheet: TeamSheet) -> str:
    return "GP" if _primary(sheet) == "MP" else "MP"


def _dummy(sheet: TeamSheet, record: TeamRecord, which: str, own: float) -> float:
    """The dummy opponent's score for an unplayed round (C.07 16.4): the team's own score;
    capped in the 2026 edition by the scheduled opponent's adjusted score (forfeits, 16.4.1)
    or by a draw in every round (16.4.2)."""
    if sheet.options.fide_edition is Edition.FIDE_2024:
        return own
    if record.kind.is_forfeit and record.opponent != NO_OPPONENT:
        return min(own, sheet.seen(which)[record.opponent])
    return min(own, sheet.scoring.draw_value(which) * sheet.rounds)


def _opponent_scores(sheet: TeamSheet, spec: TeamSpec, which: str) -> list[list[tuple[float, TeamRecord, bool]]]:
    """Per team, per round: (the opponent's ``which`` score as BH/ESB count it, the round, VUR
    for the cuts) (C.07 8.1, 16).

    In a round robin (C.07 15.2-15.3, docs/rules.md#c07-readings) the free round of an odd field adds
    nothing (no 16.4 dummy), and a forfeited match is a match played against the scheduled
    opponent, so it is no VUR for the cuts (16.5.1) either; ``/P`` does the same in a Swiss."""
    seen, own_scores = sheet.seen(which), sheet.score(which)
    result = []
    for me, rows in enumerate(sheet.records):
        items = []
        for record in rows:
            if record.kind is Kind.PENDING or sheet.is_free_round(record):
                continue
            if sheet.counts_as_played(record, spec.forfeits_played):
                items.append((seen[record.opponent], record, False))
            else:
                items.append((_dummy(sheet, record, which, own_scores[me]), record, record.vur))
        result.append(items)
    return result


# -- scores ------------------------------------------------------------------------------------

@_register("MP", "Match points", "FIDE C.07 11.1; CXA 13.2 场分", "total match points")
def match_points(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    return list(sheet.mp)


@_register("GP", "Game points", "FIDE C.07 11.1; CXA 13.2 局分", "total game points (sum of the boards)")
def game_points(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    return list(sheet.gp)


@_register("MPVGP", "The other score", "FIDE C.07 13.1",
           "game points when match points are primary, match points when game points are")
def other_score(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    return list(sheet.score(_secondary(sheet)))


# -- Buchholz, ESB, SSSC -----------------------------------------------------------------------

@_register("BH", "Buchholz", "FIDE C.07 8.1 on team scores (BH:MP, BH:GP)",
           "sum of the opponents' MP or GP (unplayed matches per art. 16)", modifiers="CMP")
def buchholz(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    """FIDE C.07 8.1 on MP or GP, with art. 16 for a Swiss's unplayed matches; in a round robin
    the free round adds nothing and a forfeited match is a played one, so /C1 and /M1 cut the
    lowest value, not the forfeit first (15.2, 16.5.1; Median-n low cuts first, 14.3)."""
    which = spec.score or _primary(sheet)
    return [cut_total(sheet, spec, [(value, value, vur) for value, _, vur in items])
            for items in _opponent_scores(sheet, spec, which)]


@_register("ESB", "Extended Sonneborn-Berger", "FIDE C.07 13.2 (EMMSB, EMGSB, EGMSB, EGGSB)",
           "sum over opponents of (opponent's MP or GP) x (own MP or GP against them)", modifiers="CMP")
def extended_sonneborn_berger(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    """FIDE C.07 13.2; unplayed matches per art. 16 (16.5.1 for the cuts); in a round robin the
    free round adds nothing and forfeited matches are played ones (15.2)."""
    letters = spec.esb or (_primary(sheet)[0] * 2)
    opponent_score, own_score = ("MP" if letters[0] == "M" else "GP"), ("MP" if letters[1] == "M" else "GP")
    result: list[Value] = []
    for items in _opponent_scores(sheet, spec, opponent_score):
        products = [(value * record.score(own_score), (value, value * record.score(own_score)), vur)
                    for value, record, vur in items]
        result.append(cut_total(sheet, spec, products))
    return result


@_register("SSSC", "Score strength combination", "FIDE C.07 13.4",
           "secondary score + BH(primary) / normalising factor, to hundredths; factor = "
           "floor(rounds x primary win / secondary win), e.g. 3 for 7 rounds, MP 2/1/0, 4 boards", modifiers="P")
def score_strength_combination(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    primary, secondary = _primary(sheet), _secondary(sheet)
    scoring = sheet.scoring
    factor = max(1, math.floor(sheet.rounds * scoring.win_value(primary) / scoring.win_value(secondary)))
    bh = buchholz(sheet, replace(spec, score=primary, cut=0, median=0))
    return [round(own + value / factor, 2) for own, value in zip(sheet.score(secondary), bh, strict=True)]  # type: ignore[operator]


# -- direct encounter ----------------------------------------------------------------------------

def _direct_encounter_repeated(sheet: TeamSheet, spec: TeamSpec, group: list[int], which: str) -> list[list[int]]:
    """C.07 6 on the mini-table of ``which`` points among ``group``, reapplied to every sub-group
    it leaves tied (6.2; 6.1.2 averages repeated meetings; 6.3 ranks a team only when the
    missing matches could not catch it; ``ranking.ordering.direct_encounter_tiers``)."""
    members = set(group)
    totals: dict[tuple[int, int], list[float]] = {}
    for me in group:
        for record in sheet.records[me]:
            if record.opponent in members and sheet.counts_as_played(record, spec.forfeits_played):
                pair = totals.setdefault((me, record.opponent), [0.0, 0])
                pair[0] += record.score(which)
                pair[1] += 1
    return direct_encounter_tiers(group, totals, sheet.scoring.win_value(which),
                                  sheet.options.de_mode is DirectEncounterMode.ALL_MET)


@_register("EDE", "Extended direct encounter", "FIDE C.07 13.3",
           "direct encounter (art. 6, reapplied to sub-groups) on the primary score, then, for "
           "groups still tied, on the secondary score", orders=True, modifiers="P")
def extended_direct_encounter(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """The TEC exercise 45 fixes the reading: once the primary score no longer separates a
    sub-group, only the secondary score is used inside it (teams 1, 2, 3 of the 10-MP group
    end 2, 1, 3 by their game points among themselves, although 1 beat 2 and 3)."""
    result: list[list[int]] = []
    for tier in _direct_encounter_repeated(sheet, spec, group, _primary(sheet)):
        result.extend(_direct_encounter_repeated(sheet, spec, tier, _secondary(sheet)) if len(tier) > 1 else [tier])
    return result


# -- board tie-breaks (C.07 12) --------------------------------------------------------------------

def _board_totals(sheet: TeamSheet, group: list[int]) -> dict[int, dict[int, float]] | None:
    """Per team, per board: game points in the matches between exactly two tied teams (the
    13.3.2 step of EDEBT, EDEBB, EDET and EDEB)."""
    if len(group) != 2:
        return None
    first, second = group
    totals: dict[int, dict[int, float]] = {first: {}, second: {}}
    for me, other in ((first, second), (second, first)):
        for record in sheet.records[me]:
            if record.opponent == other:
                for board, points in record.boards:
                    totals[me][board] = totals[me].get(board, 0.0) + points
    return totals if totals[first] and totals[second] else None


def _event_board_totals(sheet: TeamSheet, group: list[int]) -> dict[int, dict[int, float]] | None:
    """Per team, per board (1 = the match's top board): game points over every match of the
    event (C.07 12.1-12.3 used on their own).

    Each board game scores as played, a forfeited board as a forfeit win or loss; a whole
    match forfeited without its boards is a forfeit win or loss on every board, and a
    pairing-allocated bye a win on every board (C.07 12); a half-point bye is a half-point bye
    on every board, a zero-point bye nothing.  The free round of a round robin adds nothing
    (15.2-15.3).  None when a match of the group's teams is known only by its totals: its boards
    are missing, so no board tie-break can be computed."""
    game, boards = sheet.scoring.game, sheet.scoring.boards
    every_board = {Kind.PAIRING_BYE: game.win, Kind.FULL_BYE: game.win, Kind.HALF_BYE: game.half_bye_points,
                   Kind.ZERO_BYE: game.zero_bye, Kind.FORFEIT_WIN: game.forfeit_win_points,
                   Kind.FORFEIT_LOSS: game.forfeit_loss_points}
    totals: dict[int, dict[int, float]] = {}
    for me in group:
        own = totals[me] = {}
        for record in sheet.records[me]:
            if record.kind is Kind.PENDING or sheet.is_free_round(record):
                continue
            if record.boards:
                results = [points for _, points in sorted(record.boards)]
            elif record.kind is Kind.PLAYED:
                return None
            else:
                results = [every_board[record.kind]] * boards
            for board, points in enumerate(results, start=1):
                own[board] = own.get(board, 0.0) + points
    return totals


def _board_tiers(group: list[int], key: Callable[[int], Any], lower_is_better: bool = False) -> list[list[int]]:
    """``group`` in tiers of equal ``key``, best first."""
    return runs_of_equal(sorted(group, key=key, reverse=not lower_is_better), key)


def _board_numbers(totals: dict[int, dict[int, float]]) -> list[int]:
    return sorted({board for own in totals.values() for board in own})


def _top_board_key(totals: dict[int, dict[int, float]], boards: list[int]) -> Callable[[int], tuple[float, ...]]:
    return lambda me: tuple(totals[me].get(board, 0.0) for board in boards)


def _bottom_board_key(totals: dict[int, dict[int, float]], boards: list[int]) -> Callable[[int], tuple[float, ...]]:
    def key(me: int) -> tuple[float, ...]:
        own = totals[me]
        return tuple(sum(own.get(board, 0.0) for board in boards[:keep]) for keep in range(len(boards) - 1, 0, -1))
    return key


def _board_count_key(totals: dict[int, dict[int, float]]) -> Callable[[int], float]:
    return lambda me: sum(board * points for board, points in totals[me].items())


@_register("BC", "Board count", "FIDE C.07 12.1",
           "in every match of the event (a pairing bye wins every board): sum of board number x game "
           "points; lower is better", orders=True)
def board_count(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """FIDE C.07 12.1 on its own: every board of every match of the event (12: a pairing bye is
    a win on every board), for a tied group of any size."""
    totals = _event_board_totals(sheet, group)
    if totals is None:
        return [group]
    return _board_tiers(group, _board_count_key(totals), lower_is_better=True)


@_register("TBR", "Top board result", "FIDE C.07 12.2",
           "in every match of the event: game points on board 1, then board 2, ...", orders=True)
def top_board_result(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """FIDE C.07 12.2 on its own: game points on board 1 over the whole event, then board 2, ...
    (12: a pairing bye is a win on every board), for a tied group of any size."""
    totals = _event_board_totals(sheet, group)
    if totals is None:
        return [group]
    return _board_tiers(group, _top_board_key(totals, _board_numbers(totals)))


@_register("BBE", "Bottom board elimination", "FIDE C.07 12.3",
           "in every match of the event: game points without the bottom board, then without the two "
           "bottom boards, ...", orders=True)
def bottom_board_elimination(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """FIDE C.07 12.3 on its own: game points over the whole event without the bottom board, then
    without the two bottom boards, ... (12: a pairing bye is a win on every board), for a tied
    group of any size."""
    totals = _event_board_totals(sheet, group)
    if totals is None:
        return [group]
    return _board_tiers(group, _bottom_board_key(totals, _board_numbers(totals)))


def _two_teams_board_count(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """C.07 13.3.2 with 12.1: of exactly two teams still tied after EDE, in their matches."""
    totals = _board_totals(sheet, group)
    if totals is None:
        return [group]
    return _board_tiers(group, _board_count_key(totals), lower_is_better=True)


def _two_teams_top_board(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """C.07 13.3.2 with 12.2: of exactly two teams still tied after EDE, in their matches."""
    totals = _board_totals(sheet, group)
    if totals is None:
        return [group]
    return _board_tiers(group, _top_board_key(totals, _board_numbers(totals)))


def _two_teams_bottom_board(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """C.07 13.3.2 with 12.3: of exactly two teams still tied after EDE, in their matches."""
    totals = _board_totals(sheet, group)
    if totals is None:
        return [group]
    return _board_tiers(group, _bottom_board_key(totals, _board_numbers(totals)))


def _chain(*steps: Callable[..., list[list[int]]]):
    def ordered(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
        tiers = [group]
        for step in steps:
            tiers = [part for tier in tiers for part in (step(sheet, spec, tier) if len(tier) > 1 else [tier])]
        return tiers
    return ordered


for _code, _steps, _text in (
        ("EDEBT", (_two_teams_board_count, _two_teams_top_board), "BC, then TBR"),
        ("EDEBB", (_two_teams_board_count, _two_teams_bottom_board), "BC, then BBE"),
        ("EDET", (_two_teams_top_board,), "TBR"),
        ("EDEB", (_two_teams_bottom_board,), "BBE")):
    _register(_code, f"EDE, then {_text}", "FIDE C.07 13.3.2 (2026 names)",
              f"extended direct encounter; two teams still tied are separated by {_text}",
              orders=True, modifiers="P")(_chain(extended_direct_encounter, *_steps))


# -- fouls and the members' individual results (CXA 14.7-14.8) ---------------------------------------

@_register("FOUL", "Team fouls (FOUL:T)", "CXA 14.1-14.3 犯规",
           "fouls recorded against the team's players (fewer is better)", lower_is_better=True)
def team_fouls(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    return [sum(record.fouls for record in rows if record.kind is not Kind.PENDING) for rows in sheet.records]


def _individual(sheet: TeamSheet):
    """The members' individual standings from the board games (cached on the sheet)."""
    if "individual" not in sheet.cache:
        event = sheet.event
        games = tuple(game for match in event.matches if match.round <= sheet.rounds for game in match.boards)
        known = {player.id: player for player in event.players}
        for game in games:
            for player_id in (game.white, game.black):
                known.setdefault(player_id, Player(player_id, str(player_id)))
        rules = sheet.rules.individual or replace(get_preset("fide-swiss"), scoring=sheet.scoring.game)
        players = tuple(sorted(known.values(), key=lambda player: player.id))
        tournament = Tournament(event.name, players, max(sheet.rounds, 1), games, rules=rules)
        played = {player_id for game in games for player_id in (game.white, game.black)}
        standings = compute_standings(tournament, rules, after_round=sheet.rounds)
        sheet.cache["individual"] = ({row.player.id: row for row in standings.rows}, played, len(standings.rows))
    return sheet.cache["individual"]


@_register("SUMPTS", "Sum of members' points", "CXA 14.7",
           "the sum of the team members' individual points")
def sum_of_points(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    rows, _, _ = _individual(sheet)
    return [sum(rows[member].points for member in team.roster if member in rows) for team in sheet.teams]


@_register("SUMRANK", "Sum of members' places", "CXA 14.8 (WXF team championship)",
           "the sum of the best members' individual places, then the best single place (fewer is "
           "better); a team short of members is unranked or counts each missing one as the last place "
           "(option short_teams)", lower_is_better=True, keyed=True)
def sum_of_places(sheet: TeamSheet, spec: TeamSpec):
    rows, played, last = _individual(sheet)
    required = sheet.rules.members or sheet.scoring.boards
    values: list[Value] = []
    keys: list[tuple] = []
    for team in sheet.teams:
        places = sorted(rows[member].rank for member in team.roster if member in rows and member in played)[:required]
        if len(places) < required:
            if sheet.rules.short_teams is ShortTeams.UNRANKED:
                values.append(None)
                keys.append((1, 0, 0))
                continue
            places += [last] * (required - len(places))
        values.append(sum(places))
        keys.append((0, sum(places), places[0] if places else last))
    return values, keys


@_register("LOT", "Drawing of lots", "FIDE C.07 4.2; 抽签",
           "a reproducible draw: SHA-256 of the lots seed and the team number", orders=True)
def drawing_of_lots(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    return lots(group, sheet.options.lots_seed or sheet.event.name, [team.id for team in sheet.teams])
