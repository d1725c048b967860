"""The worked examples of docs/rules.md#worked-examples and of the seed texts (ZS, CXA, VN)."""

from __future__ import annotations

from dataclasses import replace

from build import against, make

from ranking.event.model import System
from ranking.scoring.rules import XIANGQI, DirectEncounterMode, Options, Rules
from ranking.standings.individual import compute_standings
from ranking.tiebreaks.presets import get_preset


def value(tournament, code: str, rules: Rules | None = None, player: int = 1):
    rules = rules or Rules(tiebreaks=(code,))
    standings = compute_standings(tournament, replace(rules, tiebreaks=(code,)))
    return next(row.values[code] for row in standings.rows if row.player.id == player)


def test_zs_buchholz_sums_the_seven_opponents_scores() -> None:
    tournament = against([1, 2.5, 4, 3, 5, 2, 3], ["1-0"] * 7)
    assert value(tournament, "BH") == 20.5


def test_zs_cut_and_median_buchholz_over_nine_rounds() -> None:
    tournament = against([1, 2.5, 4, 3, 5, 2, 3, 4, 6], ["1-0"] * 9)
    zs = Rules(options=get_preset("zs-swiss-1").options)  # ZS keeps 7 rounds; scored 1/0.5/0 here
    assert value(tournament, "BH-C1", zs) == 29.5
    assert value(tournament, "BH-M1", zs) == 23.5


def test_zs_keep_rounds_stops_a_cut_that_would_leave_fewer_than_seven_rounds() -> None:
    tournament = against([1, 2.5, 4, 3, 5, 2, 3], ["1-0"] * 7)
    keep_seven = Rules(options=Options(keep_rounds=7))
    assert value(tournament, "BH-C1", keep_seven) == 20.5
    assert value(tournament, "BH-C1") == 19.5


def test_zs_progressive_score_sums_the_running_scores() -> None:
    # running scores 1, 2, 2, 2.5, 3.5, 3.5, 4.5
    tournament = against([3] * 7, ["1-0", "1-0", "0-1", "=", "1-0", "0-1", "1-0"])
    assert value(tournament, "PS") == 19




def test_zs_direct_encounter_orders_a_b_c_when_all_met() -> None:
    # A beat B, B beat C, C drew A: DE 1.5, 1, 0.5; games against 4-9 bring all to 2.5.
    tournament = make(["1-2 1-0; 3-4 1-0", "2-3 1-0; 1-5 =", "3-1 =; 2-6 1-0", "1-7 =; 2-8 =; 3-9 1-0"])
    standings = compute_standings(tournament, Rules(tiebreaks=("DE",)))
    top = [(row.player.id, row.points, row.values["DE"]) for row in standings.rows[:3]]
    assert top == [(1, 2.5, 1), (2, 2.5, 2), (3, 2.5, 3)]


def test_zs_direct_encounter_does_not_separate_when_a_and_c_never_met() -> None:
    # A beat B, B beat C; A and C never met; all three end on 2 points.
    tournament = make(["1-2 1-0; 3-4 1-0; 5-6 =", "2-3 1-0; 1-5 =; 4-6 =", "1-4 =; 2-6 1-0; 3-5 1-0"])
    tied = [1, 2, 3]
    for mode in DirectEncounterMode:
        standings = compute_standings(tournament, Rules(tiebreaks=("DE",), options=Options(de_mode=mode)))
        rows = [row for row in standings.rows if row.player.id in tied]
        assert {row.points for row in rows} == {2.0}
        assert [row.values["DE"] for row in rows] == [0, 0, 0]
        assert {row.rank for row in rows} == {1}


def test_cxa_small_points_are_beaten_opponents_points_plus_half_the_drawn_ones() -> None:
    """CXA 14.1 小分 under 2/1/0: player 1 beat 2, drew 3, lost to 4 (a 4-player round robin)."""
    tournament = make(["1-2 1-0; 3-4 0-1", "3-1 =; 4-2 =", "1-4 0-1; 2-3 1-0"], system=System.ROUND_ROBIN)
    rules = Rules(XIANGQI)
    standings = compute_standings(tournament, replace(rules, tiebreaks=("SB",)))
    points = {row.player.id: row.points for row in standings.rows}
    assert points == {1: 3.0, 2: 3.0, 3: 1.0, 4: 5.0}
    sb = {row.player.id: row.values["SB"] for row in standings.rows}
    assert sb[1] == points[2] + points[3] / 2 == 3.5


def test_vn_he_so_is_the_sonneborn_berger_score() -> None:
    """VN 21.3: sum of the points of the opponents beaten plus half of those drawn."""
    tournament = make(["1-2 1-0; 3-4 =", "1-3 =; 2-4 1-0", "4-1 0-1; 3-2 ="], system=System.ROUND_ROBIN)
    standings = compute_standings(tournament, get_preset("vn-rr"))
    sb = {row.player.id: row.values["SB"] for row in standings.rows}
    points = {row.player.id: row.points for row in standings.rows}
    assert sb[1] == points[2] + points[3] / 2 + points[4]
