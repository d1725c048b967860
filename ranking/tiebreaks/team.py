"""The team tie-breaks (docs/rules.md#tie-break-codes, FIDE C.07 11-13, CXA 14.5-14.8): one small function per
code, registered in ``TEAM_REGISTRY``.

Scored tie-breaks return one value per team (index order of ``TeamSheet.teams``), or
(values, sort keys) when the order needs more than the value (SUMRANK, a keyed entry);
ordering tie-breaks (EDE, BC, TBR, BBE) split a tied group into tiers, best first
(``ranking.tiebreaks.registry`` has the entry kinds).

Codes: ``NAME[:MP|:GP][/Cn|/Mn][/P]`` (``BH-C1:MP`` is ``BH:MP/C1``); without ``:MP``/``:GP`` a
code uses the event's primary score.  ``ESB:MG`` is ``EMGSB`` (letters: opponent's score, own
score).  ``WIN:T``, ``FOUL:T``, ``BWG:T`` and ``BPG:T`` are the team's totals over its boards
in every match (CXA 14.5-14.7); ``DE`` and ``PREV`` in a team chain compare match results
(CXA 14.5-14.6).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ranking.event.model import Player, Tournament
from ranking.event.rounds import NO_OPPONENT, Kind
from ranking.scoring.rules import DirectEncounterMode, Edition, Outcome, Rules, ShortTeams
from ranking.scoring.team_sheet import BoardGame, TeamRecord, TeamSheet
from ranking.standings.final import final_standings
from ranking.standings.individual import compute_standings
from ranking.standings.ordering import direct_encounter_tiers, runs_of_equal
from ranking.tiebreaks.codes import TeamSpec, parse_team_code
from ranking.tiebreaks.lots import lots, team_results_seed
from ranking.tiebreaks.registry import Registry, Value, cut_total

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
    bh = buchholz(sheet, spec._replace(score=primary, cut=0, median=0))
    return [round(own + value / factor, 2) for own, value in zip(sheet.score(secondary), bh, strict=True)]  # type: ignore[operator]


# -- direct encounter ----------------------------------------------------------------------------

def _direct_encounter_repeated(sheet: TeamSheet, spec: TeamSpec, group: list[int], which: str) -> list[list[int]]:
    """C.07 6 on the mini-table of ``which`` points among ``group``, reapplied to every sub-group
    it leaves tied (6.2; 6.1.2 averages repeated meetings; 6.3 ranks a team only when the
    missing matches could not catch it; ``ranking.standings.ordering.direct_encounter_tiers``)."""
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

    Each board game scores as played, a forfeited board as a forfeit win or loss; a round
    without its boards (a bye, a match forfeited whole) scores each board as
    ``TeamScoring.unplayed_board`` says (C.07 12).  The free round of a round robin adds
    nothing (15.2-15.3).  None when a match of the group's teams is known only by its totals:
    its boards are missing, so no board tie-break can be computed."""
    scoring, boards = sheet.scoring, sheet.scoring.boards
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
                results = [scoring.unplayed_board(record.kind)] * boards
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


# -- the team's games, summed over its boards (CXA 14.5-14.7) ------------------------------------------

@_register("FOUL:T", "Team fouls", "CXA 14.1-14.3, 14.5-14.7 犯规",
           "fouls recorded against the team's players in every match (fewer is better)", lower_is_better=True,
           aliases=("FOUL",))
def team_fouls(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    return [sum(record.fouls for record in rows if record.kind is not Kind.PENDING) for rows in sheet.records]


#: Unplayed matches a team wins: every board counts as a game won (C.07 12: "a PAB counts as a
#: win on every board"; C.07 7.1: WIN counts a win's points obtained, played or not).
_WON_EVERY_BOARD = frozenset({Kind.PAIRING_BYE, Kind.FULL_BYE, Kind.FORFEIT_WIN})


@_register("WIN:T", "Team game wins", "CXA 14.5-14.7 队胜局 (FIDE C.07 7.1 per board)",
           "games won by the team's players in every match, forfeits included; a match won unplayed "
           "(forfeit, pairing-allocated bye) counts every board")
def team_game_wins(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    """CXA 14.5-14.7 队胜局: the team's board wins, as FIDE C.07 7.1 counts a player's wins (a
    forfeited board won is a win); a match won unplayed is won on every board (C.07 12)."""
    result: list[Value] = []
    for rows in sheet.records:
        total = 0
        for record in rows:
            if record.kind is Kind.PENDING:
                continue
            if record.games:
                total += sum(1 for game in record.games if game.outcome is Outcome.WIN)
            elif record.kind in _WON_EVERY_BOARD:  # a round robin's free round scored as a win too
                total += sheet.scoring.boards
        result.append(total)
    return result


def _counts_with_black(sheet: TeamSheet, game: BoardGame) -> bool:
    """A board game with black for BWG:T and BPG:T, as FIDE C.07 7.3-7.4 and 15.2 count a
    player's: played over the board; in a round robin under the 2026 edition a forfeit won
    with black scheduled counts too (a forfeit lost never does)."""
    if not game.second_mover:
        return False
    if not game.forfeit:
        return True
    return (sheet.rules.round_robin and sheet.options.fide_edition is Edition.FIDE_2026
            and game.outcome is Outcome.WIN)


@_register("BWG:T", "Team wins with black", "CXA 14.5 后手胜局 (FIDE C.07 7.4 per board)",
           "games won with black (second mover) by the team's players, over the board")
def team_wins_with_black(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    return [sum(1 for record in rows if record.kind is not Kind.PENDING for game in record.games
                if game.outcome is Outcome.WIN and _counts_with_black(sheet, game))
            for rows in sheet.records]


@_register("BPG:T", "Team games with black", "CXA 14.5 后手局数 (FIDE C.07 7.3 per board)",
           "games played with black (second mover) by the team's players, over the board")
def team_games_with_black(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    return [sum(1 for record in rows if record.kind is not Kind.PENDING for game in record.games
                if _counts_with_black(sheet, game))
            for rows in sheet.records]


@_register("DE", "Direct encounter", "CXA 14.5 直胜 (FIDE C.07 6 on match points)",
           "match points in the matches among the tied teams only (art. 6: reapplied to the sub-groups it "
           "leaves tied; if not all met, a team is placed only when the missing matches could not change it)",
           orders=True, modifiers="P")
def team_direct_encounter(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """CXA 14.5 直胜 between tied teams: FIDE C.07 6 on the match points of their matches among
    themselves (the first step of EDE, 13.3), whatever the primary score; ``de_mode = "all-met"``
    separates nobody unless every tied team met every other."""
    return _direct_encounter_repeated(sheet, spec, group, "MP")


@_register("PREV", "The last rounds' match results", "CXA 14.6 (tail)",
           "match points in the last round, then in the round before, and so on", orders=True)
def team_earlier_rounds(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """CXA 14.6 "compare the results of the last round, and so on": the match results round by
    round from the last round back (a match won before a drawn one before a lost one; an
    unplayed round by the match points it gave)."""
    def key(me: int) -> tuple[float, ...]:
        return tuple(record.mp for record in reversed(sheet.records[me]))
    return runs_of_equal(sorted(group, key=key, reverse=True), key)


# -- the members' individual results (CXA 14.7-14.8) ------------------------------------------------

def _individual(sheet: TeamSheet) -> tuple[dict[int, Any], set[int]]:
    """The members' rows in the individual standings the event publishes (by starting number),
    and who played a game (cached on the sheet).

    CXA 14.8: the places of the event's own final standings, under its own rules (withdrawals
    and play-offs applied), after the same round as the team standings.  A team event built by
    hand, without its tournament, ranks the board games under ``TeamRules.individual`` (default:
    the game scoring and no tie-break, players equal on points sharing the place)."""
    if "individual" not in sheet.cache:
        event = sheet.event
        if event.individual is not None:
            tournament = event.individual
            standings = final_standings(tournament, after_round=min(sheet.rounds, tournament.rounds_with_results)
                                        if event.is_classification else sheet.rounds).standings
            rounds = standings.after_round
            games = tuple(game for game in tournament.games if game.round <= rounds and game.result is not None)
        else:
            games = tuple(game for match in event.matches if match.round <= sheet.rounds for game in match.boards)
            known = {player.id: player for player in event.players}
            for game in games:
                for player_id in (game.white, game.black):
                    known.setdefault(player_id, Player(player_id, str(player_id)))
            rules = sheet.rules.individual or Rules(sheet.scoring.game)
            players = tuple(sorted(known.values(), key=lambda player: player.id))
            tournament = Tournament(event.name, players, max(sheet.rounds, 1), games, rules=rules)
            standings = compute_standings(tournament, rules, after_round=sheet.rounds)
        played = {player_id for game in games for player_id in (game.white, game.black)}
        sheet.cache["individual"] = ({row.player.id: row for row in standings.rows}, played)
    return sheet.cache["individual"]  # type: ignore[return-value]


@_register("SUMPTS", "Sum of members' points", "CXA 14.7",
           "the sum of the team members' points in the event's individual standings")
def sum_of_points(sheet: TeamSheet, spec: TeamSpec) -> list[Value]:
    rows, _ = _individual(sheet)
    return [sum(rows[member].points for member in team.roster if member in rows) for team in sheet.teams]


@_register("SUMRANK", "Sum of members' places", "CXA 14.8 (WXF team championship)",
           "the sum of the best members' places in the event's own individual standings, then the best "
           "single place (fewer is better); a team short of members is unranked or counts each missing one "
           "as the last place (option short_teams)", lower_is_better=True, keyed=True)
def sum_of_places(sheet: TeamSheet, spec: TeamSpec):
    """CXA 14.8: the places of the event's own published standings (``_individual``), for a
    team event and for an individual event with a team classification alike.  The members
    counted are ``TeamRules.members``, else one per board (in a classification: as many as the
    largest team has players who played)."""
    rows, played = _individual(sheet)
    last = len(rows)
    members = [sorted(rows[member].rank for member in team.roster if member in rows and member in played)
               for team in sheet.teams]
    required = sheet.rules.members or (max(map(len, members), default=0) if sheet.event.is_classification
                                       else sheet.scoring.boards)
    values: list[Value] = []
    keys: list[tuple] = []
    for places in members:
        places = places[:required]
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
           "a reproducible draw: SHA-256 of the lots seed and the team number; without a lots seed, the seed "
           "is a digest of the complete results", orders=True)
def drawing_of_lots(sheet: TeamSheet, spec: TeamSpec, group: list[int]) -> list[list[int]]:
    """C.07 4.2: by the lots seed, else the digest of the team results (``ranking.tiebreaks.lots``)."""
    return lots(group, sheet.options.lots_seed or team_results_seed(sheet.event), [team.id for team in sheet.teams])
