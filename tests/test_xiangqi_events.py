"""Xiangqi and Vietnamese events by their own rules (issue 22): the CXA team presets (14.5-14.8),
VN 21.5.1 withdrawals, VN 21.2 two-game matches, colour-dependent scoring (CXA 13.3) and the
drawing of lots, through ``tiebreak standings FILE ... --json`` on TOML files and, where TRF
can carry the event, on their TRF twins.

Every expected value is worked out by hand in the comments beside it, from the games of the
fixtures in ``tests/data/xiangqi`` (each file says what it holds).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from build import against

from ranking import (
    InputError,
    Options,
    Rules,
    compute_standings,
    final_standings,
    get_preset,
    parse_tournament_toml,
    parse_trf,
    team_event_of,
    team_standings,
    write_trf,
)
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.toml_settings import with_tournament_keys
from ranking.scoring.rules import CHESS, RoundRobinWithdrawal
from ranking.tiebreaks.lots import results_seed
from tiebreak.cli import main
from tiebreak.exports import export_text
from tiebreak.files import load_tournament

DATA = Path(__file__).parent / "data" / "xiangqi"


def standings_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    """``tiebreak standings ARGS --json``, run in this process."""
    assert main(["standings", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def by_id(rows: list[dict], *keys: str) -> dict[int, tuple]:
    return {row["id"]: tuple(row[key] if key in row else row["tiebreaks"][key] for key in keys) for row in rows}


# -- CXA 14.5: the team round robin (cxa-team-rr) ----------------------------------------------------
#
# Teams (boards 1, 2): 北京 = A (players 1, 2), 四川 = B (3, 4), Hà Nội = C (5, 6), HCM = D (7, 8);
# the team named first has red on board 1, black on board 2. Game points 2/1/0 per board.
#   R1  A-D: 1 beats 7 (red), 8 beats 2 (8 red)      -> 2-2    B-C: 3 beats 5 (red), 6-4 drawn -> 3-1
#   R2  D-C: 5 beats 7 (5 black), 6-8 drawn          -> 1-3    A-B: both boards drawn          -> 2-2
#   R3  B-D: both boards drawn                       -> 2-2    C-A: 1 beats 5 (1 black), 2-6 drawn -> 1-3
# MP (2/1/0): A 1+1+2 = 4, B 2+1+1 = 4, C 0+2+0 = 2, D 1+0+1 = 2
# GP:         A 2+2+3 = 7, B 3+2+2 = 7, C 1+3+1 = 5, D 2+1+2 = 5
# WIN:T (board wins): A 1 (R1) + 1 (R3) = 2; B 1 (R1); C 1 (R2); D 1 (R1, player 8)
# DE (match points among the tied): C beat D in R2 -> C 1, D 2; A and B are apart before DE.
# FOUL:T: B 2 (player 3, R1), D 1 (player 8, R2), A and C 0.
# BWG:T (board wins with black): A 1 (player 1, R3), C 1 (player 5, R2), B and D 0.
# BPG:T (boards with black): every team has black on one board in each of its 3 matches: 3.
# Order: A, B (WIN:T 2 > 1), C, D (DE).
CXA_TEAM_RR = {1: (1, 4, 7, 2, 0, 0, 1, 3), 2: (2, 4, 7, 1, 0, 2, 0, 3), 3: (3, 2, 5, 1, 1, 0, 1, 3),
               4: (4, 2, 5, 1, 2, 1, 0, 3)}
TEAM_RR_KEYS = ("rank", "match_points", "game_points", "WIN:T", "DE", "FOUL:T", "BWG:T", "BPG:T")


def test_cxa_team_round_robin_by_its_preset(capsys: pytest.CaptureFixture[str]) -> None:
    data = standings_json(capsys, str(DATA / "cxa-team-rr.toml"), "--teams")
    assert data["team_tiebreaks"] == ["GP", "WIN:T", "DE", "FOUL:T", "BWG:T", "BPG:T"]
    assert by_id(data["teams"], *TEAM_RR_KEYS) == CXA_TEAM_RR
    assert [team["id"] for team in data["teams"]] == [1, 2, 3, 4]


def test_cxa_team_round_robin_from_its_trf_twin_by_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """TRF-2026 carries the teams (013), the scoring (XXS) and the fouls (### records): the same
    values with the preset given on the command line."""
    data = standings_json(capsys, str(DATA / "cxa-team-rr.trf"), "--teams", "--rules", "cxa-team-rr")
    assert by_id(data["teams"], *TEAM_RR_KEYS) == CXA_TEAM_RR


def test_a_team_preset_on_the_command_line_replaces_the_files_and_implies_teams(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = standings_json(capsys, str(DATA / "cxa-team-swiss.toml"), "--rules", "cxa-team-rr")
    assert data["team_tiebreaks"] == ["GP", "WIN:T", "DE", "FOUL:T", "BWG:T", "BPG:T"]
    assert data["tiebreaks"] == list(get_preset("cxa-swiss-bh").tiebreaks)  # the players keep the file's rules


def test_the_team_preset_survives_a_trf_export() -> None:
    tournament = load_tournament(DATA / "cxa-team-rr.toml")
    read = parse_trf(write_trf(tournament), "round-trip.trf")
    assert read.team_rules == "cxa-team-rr"
    assert team_standings(team_event_of(read)).as_json() == team_standings(team_event_of(tournament)).as_json()


# -- CXA 14.6 and 14.7: the team Swiss (cxa-team-swiss, cxa-team-gp) ------------------------------------
#
# 北京 = A (1, 2), 四川 = B (3, 4), 广东 = C (5, 6), 上海 = D (7, 8); first team red on board 1.
#   R1  A-C: 1 beats 5, 6-2 drawn -> 3-1           B-D: 3-7 drawn, 8 beats 4 (8 red) -> 1-3
#   R2  D-A: 7-1 drawn, 8 beats 2 (8 black) -> 3-1  B-C: 3 beats 5, 6-4 drawn (a foul on 6) -> 3-1
# MP: A 2+0 = 2, B 0+2 = 2, C 0, D 4;  GP: A 3+1 = 4, B 1+3 = 4, C 1+1 = 2, D 3+3 = 6
# BH:MP (opponents' match points): A = C 0 + D 4 = 4, B = D 4 + C 0 = 4, C = A 2 + B 2 = 4, D = B 2 + A 2 = 4
# WIN:T: A 1, B 1, C 0, D 2;  FOUL:T: C 1, others 0
# PREV (match points of the last round, then the one before): A (0, 2), B (2, 0) -> B first.
# cxa-team-swiss: D (4 MP), then A and B (2 MP) tied on BH:MP, GP, WIN:T, FOUL:T: B 1, A 2 by PREV; C.
# cxa-team-gp: GP first: D 6, then A and B (4) by the same chain, C 2.
CXA_TEAM_SWISS = {4: (1, 4, 6, 4, 2, 0, 0), 2: (2, 2, 4, 4, 1, 0, 1), 1: (3, 2, 4, 4, 1, 0, 2),
                  3: (4, 0, 2, 4, 0, 1, 0)}


@pytest.mark.parametrize("preset", ["cxa-team-swiss", "cxa-team-gp"])
def test_cxa_team_swiss_by_its_presets(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    data = standings_json(capsys, str(DATA / "cxa-team-swiss.toml"), "--rules", preset)
    assert data["team_tiebreaks"] == list({"cxa-team-swiss": ("BH:MP", "GP", "WIN:T", "FOUL:T", "PREV"),
                                           "cxa-team-gp": ("BH:MP", "WIN:T", "FOUL:T", "PREV")}[preset])
    keys = ("rank", "match_points", "game_points", "BH:MP", "WIN:T", "FOUL:T", "PREV")
    assert by_id(data["teams"], *keys) == CXA_TEAM_SWISS


def test_team_direct_encounter_needs_every_tied_team_to_have_met_under_all_met() -> None:
    """de_mode = "all-met" (ZS): C and D met, so DE separates them; with a third team tied that
    met neither, DE separates nobody, as for players."""
    event = team_event_of(load_tournament(DATA / "cxa-team-rr.toml"))
    all_met = replace(event, rules=replace(event.rules, options=Options(de_mode="all-met")))  # type: ignore[arg-type]
    rows = team_standings(all_met, ("DE",)).rows
    assert {row.team.id: row.values["DE"] for row in rows}[3] == 1  # C and D (2 MP) met: C first
    assert {row.team.id: row.rank for row in rows} == {1: 1, 2: 1, 3: 3, 4: 4}  # A and B drew


# -- CXA 14.8: members' places in the event's own standings (cxa-team-places) -----------------------------
#
# The players of cxa-team-rr.toml under the event's own chain, cxa-rr (SB, WIN, DE, FOUL, BPG, DEB):
# points 2/1/0: P1 2+1+2 = 5; P8 2+1+1 = 4; P3 2+1+1 = 4; P4 1+1+1 = 3; P6 1+1+1 = 3; P2 0+1+1 = 2;
#   P5 0+2+0 = 2; P7 0+0+1 = 1.
# SB (小分: beaten opponents' points + half the drawn ones'): P3 = 2 (beat P5) + 5/2 (P1) + 1/2 (P7) = 5,
#   P8 = 2 (beat P2) + 3/2 (P6) + 3/2 (P4) = 5; WIN 1 each; DE: they never met; FOUL: P8 1, P3 2 -> P8 2nd.
#   P4 and P6: SB 3/2 + 2/2 + 4/2 = 4.5 each, WIN 0, drew each other (DE), no fouls, BPG: P4 2, P6 1
#   -> P4 4th. P2 (SB 3/2 + 3/2 = 3) before P5 (SB 1: beat P7).
# Places: P1 1, P8 2, P3 3, P4 4, P6 5, P2 6, P5 7, P7 8.
# SUMRANK: 北京 1 + 6 = 7 (best 1), 四川 3 + 4 = 7 (best 3), Hà Nội 7 + 5 = 12, HCM 8 + 2 = 10.
# (FIDE's Swiss chain, BH-C1 first, would place P3 2nd, P8 3rd, P2 7th, P5 6th: 四川 6, 北京 8, ...)


def test_sumrank_adds_the_places_the_event_publishes(capsys: pytest.CaptureFixture[str]) -> None:
    data = standings_json(capsys, str(DATA / "cxa-team-rr.toml"), "--rules", "cxa-team-places")
    assert [row["id"] for row in data["standings"]] == [1, 8, 3, 4, 6, 2, 5, 7]
    assert [(team["id"], team["rank"], team["tiebreaks"]["SUMRANK"]) for team in data["teams"]] == \
        [(1, 1, 7), (2, 2, 7), (4, 3, 10), (3, 4, 12)]


# provinces.toml, an individual Swiss under cxa-swiss-bh (BH, WIN, FOUL, BPG, PREV), points 2/1/0:
#   R1: 1 beats 5, 2 beats 6 (2 black), 3-7 drawn, 4 beats 8 (4 black)
#   R2: 4-1 drawn, 2 beats 3, 7 beats 5, 8-6 drawn
#   R3: 7 beats 1 (7 black), 2-4 drawn, 3 beats 6, 5 beats 8
# Points: P2 5, P7 5, P4 4, P1 3, P3 3, P5 2, P6 1, P8 1.
# P2 and P7: BH 1+3+4 = 8 and 3+2+3 = 8, WIN 2 each, no fouls, BPG: P7 2 (R1, R3), P2 1 -> P7 first.
# P1 and P3: BH 2+4+5 = 11 and 5+5+1 = 11, WIN 1, BPG 1 each; PREV (score after R2): P1 3, P3 1 -> P1.
# P6 (BH 5+1+3 = 9) before P8 (4+1+2 = 7).
# Places: P7 1, P2 2, P4 3, P1 4, P3 5, P5 6, P6 7, P8 8.
# Provinces: 北京 (1, 2) 4 + 2 = 6; 广东 (3, 4) 5 + 3 = 8; 黑龙江 (5, 6) 6 + 7 = 13; 上海 (7, 8) 1 + 8 = 9.


def test_an_individual_event_with_a_team_classification(capsys: pytest.CaptureFixture[str]) -> None:
    data = standings_json(capsys, str(DATA / "provinces.toml"), "--teams")
    assert [row["id"] for row in data["standings"]] == [7, 2, 4, 1, 3, 5, 6, 8]
    assert [(team["id"], team["rank"], team["tiebreaks"]["SUMRANK"]) for team in data["teams"]] == \
        [(1, 1, 6), (2, 2, 8), (4, 3, 9), (3, 4, 13)]
    assert all(team["match_points"] is None and team["game_points"] is None for team in data["teams"])


def test_team_matches_refused_where_the_games_are_an_individual_events() -> None:
    tournament = with_tournament_keys(load_tournament(DATA / "provinces.toml"), {"team_rules": "cxa-team-swiss"})
    with pytest.raises(InputError, match=r"round 3: team 1 meets teams 2 and 4: .*cxa-team-places"):
        team_event_of(tournament)


def test_sumrank_short_teams_in_a_classification_count_the_largest_teams_members() -> None:
    """A province with one player who played: unranked (short_teams = unranked, the default)."""
    tournament = load_tournament(DATA / "provinces.toml")
    teams = (*tournament.teams[:3], replace(tournament.teams[3], roster=(7,)))
    rows = team_standings(team_event_of(replace(tournament, teams=teams))).rows
    assert [(row.team.id, row.values["SUMRANK"]) for row in rows] == [(1, 6), (2, 8), (3, 13), (4, None)]


# -- ZS national events keep 7 rounds (cxa-national-swiss) -------------------------------------------


def test_cxa_national_swiss_keeps_seven_rounds_for_its_median() -> None:
    """ZS: opponents' scores 1, 2.5, 4, 3, 5, 2, 3 (seven rounds): BH 20.5; BH-M1 would drop 1
    and 5 (14.5), but at least 7 rounds are kept, so it stays 20.5."""
    preset = get_preset("cxa-national-swiss")
    assert preset.options.keep_rounds == 7
    tournament = against([1, 2.5, 4, 3, 5, 2, 3], ["1-0"] * 7)
    rules = replace(preset, scoring=CHESS, tiebreaks=("BH", "BH-M1"))  # the ZS example scores 1/0.5/0
    row = next(row for row in compute_standings(tournament, rules).rows if row.player.id == 1)
    assert (row.values["BH"], row.values["BH-M1"]) == (20.5, 20.5)
    without = replace(rules, options=replace(rules.options, keep_rounds=0))
    assert next(row for row in compute_standings(tournament, without).rows if row.player.id == 1
                ).values["BH-M1"] == 14.5


# -- VN 21.5.1: withdrawals from a round robin (vn-rr) -----------------------------------------------
#
# vn-rr-withdrawals.toml, Berger rounds, chess scoring 1/½/0:
#   R1 1-6 1-0, 2-5 ½, 3-4 0-1;  R2 6-4 ½, 5-3 0-1, 1-2 ½;  R3 2-6 1-0, 3-1 ½, 4-5 (none);
#   R4 1-4 1-0, 2-3 ½ (6-5 not listed);  R5 4-2 0-1 (3-6 and 5-1 not listed).
# Player 5 left after round 2 with 2 of 5 games played (half or fewer): all annulled, so 2-5, 5-3
# and 4-5 count for nobody. Player 6 left after round 3 with 3 played: results stand; 6-5 is gone
# with 5's games, 3-6 (round 5, unlisted) is a forfeit won by 3.
# Points: P1 1 + ½ + ½ + 1 = 3; P2 ½ + 1 + ½ + 1 = 3; P3 0 + ½ + ½ + 1 (forfeit) = 2;
#   P4 1 + ½ + 0 + 0 = 1½; P6 0 + ½ + 0 + 0 = ½; P5 0.
# DE: P1-P2 drawn; SB: P1 = 6 (½) + 2/2 + 3/2 + 4 (1½) = ½ + 1½ + 1 + 1½ = 4½, P2 = 3/2 + ½ + 2/2 + 1½ = 4½;
#   WIN 2 each; BWG (wins with black): P2 1 (R5 at 4), P1 0 -> P2 first.
#   P3: SB 3/2 + 3/2 + ½ (the forfeit, a game in a round robin, C.07 15.2) = 3½; P4: 2 + ½/2 = 2¼; P6: 1½/2 = ¾.
VN_RR = {2: (1, 3, 4.5, 2, 1), 1: (2, 3, 4.5, 2, 0), 3: (3, 2, 3.5, 1, 0), 4: (4, 1.5, 2.25, 1, 1),
         6: (5, 0.5, 0.75, 0, 0), 5: (6, 0, 0, 0, 0)}
VN_RR_KEYS = ("rank", "points", "SB", "WIN", "BWG")


def test_vn_rr_annuls_half_or_fewer_and_forfeits_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    assert get_preset("vn-rr").options.rr_withdrawal is RoundRobinWithdrawal.ANNUL_AT_MOST_HALF
    data = standings_json(capsys, str(DATA / "vn-rr-withdrawals.toml"))
    assert by_id(data["standings"], *VN_RR_KEYS) == VN_RR


def test_vn_rr_withdrawals_from_the_trf_twin(capsys: pytest.CaptureFixture[str]) -> None:
    data = standings_json(capsys, str(DATA / "vn-rr-withdrawals.trf"), "--rules", "vn-rr")
    assert by_id(data["standings"], *VN_RR_KEYS) == VN_RR


def test_a_game_the_file_never_listed_is_forfeited_in_its_berger_round() -> None:
    """3-6 is round 5 of the Berger table for 6 (C.05 Annex 1: 3 has white): after round 4 it
    does not count yet; after round 5 it does."""
    tournament = load_tournament(DATA / "vn-rr-withdrawals.toml")
    points = {row.player.id: row.points for row in final_standings(tournament, after_round=4).rows}
    assert points[3] == 1.0  # 0 + ½ + ½
    points = {row.player.id: row.points for row in final_standings(tournament).rows}
    assert points[3] == 2.0


def test_without_the_berger_order_the_forfeit_takes_the_first_free_round() -> None:
    """Games off the Berger table: the unlisted game goes to the first round after the withdrawal
    where both players are free, colours unknown."""
    text = (DATA / "vn-rr-withdrawals.toml").read_text(encoding="utf-8")
    # rounds 4 and 5 played the other way round: R4 4-2, R5 1-4 and 2-3; 3 and 6 are both free in R4
    swapped = text.replace("round = 4\n", "round = X\n").replace("round = 5\n", "round = 4\n").replace(
        "round = X\n", "round = 5\n")
    tournament = parse_tournament_toml(swapped)
    from ranking.event.withdrawals import apply_withdrawals

    forfeits = apply_withdrawals(tournament, tournament.rules).forfeited  # type: ignore[arg-type]
    unlisted = [game for game in forfeits if not game.colours_known]
    assert [(game.round, game.white, game.black, game.result.value) for game in unlisted] == [(4, 3, 6, "+-")]


def test_keep_leaves_the_unlisted_games_of_a_fide_round_robin_alone() -> None:
    """FIDE ("keep"): only the games the file lists count (C.07 15.2 forfeits)."""
    tournament = load_tournament(DATA / "vn-rr-withdrawals.toml")
    rules = replace(tournament.rules, options=replace(tournament.rules.options,  # type: ignore[union-attr]
                                                      rr_withdrawal=RoundRobinWithdrawal.KEEP))
    points = {row.player.id: row.points for row in compute_standings(tournament, rules).rows}
    assert points[3] == 1.0 + 1  # R2's win over 5 stands; 3-6 never listed: nothing


# -- VN 21.2: two-game matches (vn-match) ---------------------------------------------------------------
#
# vn-match.toml: R1 1-2 1-0 and 2-1 ½: player 1 has 2 + 1 = 3 game points, player 2 has 1: 1 wins the
# match (1 match point). 3-4 and 4-3 drawn: 2-2, ½ each. R2 1-3 0-1 and 3-1 0-1: each won once with
# black, 2-2, ½ each. 4 absent: 2-4 +- and 4-2 -+: player 2 gets 1 match point and 4 game points.
# MP: P1 1 + ½ = 1½, P2 0 + 1 = 1, P3 ½ + ½ = 1, P4 ½; GP: P1 3 + 2 = 5, P2 1 + 4 = 5, P3 2 + 2 = 4, P4 2.


def test_vn_two_game_matches_rank_by_match_then_game_points(capsys: pytest.CaptureFixture[str]) -> None:
    data = standings_json(capsys, str(DATA / "vn-match.toml"))
    assert by_id(data["standings"], "rank", "points", "GP") == {1: (1, 1.5, 5), 2: (2, 1, 5), 3: (3, 1, 4),
                                                                 4: (4, 0.5, 2)}


def test_the_trf_export_refuses_a_two_game_match_in_one_line_naming_toml() -> None:
    """TRF holds one game per player and round: the export names the TOML export, which keeps
    both games (the store takes two-game matches once its event model holds them)."""
    tournament = load_tournament(DATA / "vn-match.toml")
    with pytest.raises(InputError) as refused:
        export_text(tournament, "trf")
    assert refused.value.message.startswith("round 1: players 1 and 2 play a match of 2 games (VN 21.2)")
    assert "export the tournament as TOML" in refused.value.message and "--format toml" in refused.value.message
    assert "\n" not in str(refused.value)
    assert parse_tournament_toml(export_text(tournament, "toml")) == tournament  # the TOML keeps the matches


# -- CXA 13.3: colour-dependent scoring by name ----------------------------------------------------------
#
# three-point-colour.toml, a win 3, a draw 1 for red and 2 for black: R1 1-2 drawn (1 red: 1, 2 black: 2),
# R2 2-3 drawn (2 red: 1, 3 black: 2), R3 3 beats 1 (3). Points: P3 2 + 3 = 5, P2 2 + 1 = 3, P1 1.
# SB (opponent's score times the share won): P3 = 3/2 + 1 = 2½, P2 = 1/2 + 5/2 = 3, P1 = 3/2.
THREE_POINT_COLOUR = {3: (1, 5, 2.5), 2: (2, 3, 3), 1: (3, 1, 1.5)}


@pytest.mark.parametrize("name", ["three-point-colour.toml", "three-point-colour.trf"])
def test_colour_dependent_scoring_from_the_file(capsys: pytest.CaptureFixture[str], name: str) -> None:
    data = standings_json(capsys, str(DATA / name), "--tiebreaks", "SB")
    assert by_id(data["standings"], "rank", "points", "SB") == THREE_POINT_COLOUR


def test_colour_dependent_scoring_by_name_on_the_command_line(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    plain = tmp_path / "plain.toml"  # the same games scored 2/1/0
    plain.write_text((DATA / "three-point-colour.toml").read_text(encoding="utf-8").replace(
        'scoring = "three-point-colour"\n', ""), encoding="utf-8")
    data = standings_json(capsys, str(plain), "--points", "three-point-colour", "--tiebreaks", "SB")
    assert by_id(data["standings"], "rank", "points", "SB") == THREE_POINT_COLOUR
    for name, points in (("chess", 1.5), ("xiangqi", 3), ("three-point", 4)):  # P3: a draw and a win
        data = standings_json(capsys, str(plain), "--points", name)
        assert by_id(data["standings"], "points")[3] == (points,)


def test_a_scoring_name_the_file_misspells_is_refused_with_the_names() -> None:
    text = (DATA / "three-point-colour.toml").read_text(encoding="utf-8")
    with pytest.raises(InputError, match="three-point-colour") as refused:
        parse_tournament_toml(text.replace('"three-point-colour"', '"three-points"'), "cup.toml")
    assert refused.value.line == text.splitlines().index('scoring = "three-point-colour"') + 1


def test_a_named_scoring_is_written_by_its_name() -> None:
    tournament = load_tournament(DATA / "three-point-colour.toml")
    assert 'scoring = "three-point-colour"' in write_tournament_toml(tournament)
    assert parse_tournament_toml(write_tournament_toml(tournament)) == tournament


# -- LOT: unknown until the results are --------------------------------------------------------------------


def test_lots_are_not_derived_from_the_tournaments_name() -> None:
    """Two events with the same name and players but different results draw different lots: the
    seed is a digest of the results, not of the name anyone knows in advance."""
    tournament = load_tournament(DATA / "vn-rr-withdrawals.toml")
    standings = compute_standings(tournament)
    assert standings.lots_seed == results_seed(tournament) != tournament.name
    renamed = replace(tournament, name="Another name")
    assert compute_standings(renamed).lots_seed == standings.lots_seed
    changed = replace(tournament, games=tuple(replace(game, result=game.result.__class__("0-1"))
                                              if (game.round, game.board) == (4, 2) else game
                                              for game in tournament.games))
    assert compute_standings(changed).lots_seed != standings.lots_seed


def test_the_seed_printed_reproduces_the_draw() -> None:
    """Two players who drew, equal on everything: LOT alone orders them; the seed published with
    the standings, given as lots_seed, gives the same order."""
    tournament = against([0.5], ["="])
    tournament = replace(tournament, rules=Rules(tiebreaks=("LOT",)))
    standings = compute_standings(tournament)
    order = [row.player.id for row in standings.rows]
    given = replace(tournament.rules, options=Options(lots_seed=standings.lots_seed))  # type: ignore[union-attr]
    assert [row.player.id for row in compute_standings(tournament, given).rows] == order
    assert compute_standings(tournament, given).lots_seed == standings.lots_seed


def test_team_lots_come_from_the_team_results() -> None:
    tournament = load_tournament(DATA / "cxa-team-rr.toml")
    event = team_event_of(tournament)
    renamed = team_event_of(replace(tournament, name="Another name"))
    assert team_standings(event, ("LOT",)).rows == team_standings(renamed, ("LOT",)).rows


# -- the listings -------------------------------------------------------------------------------------------


def test_tiebreaks_and_presets_list_the_team_codes_and_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tiebreaks"]) == 0
    listing = capsys.readouterr().out.split("Team tie-breaks:")[1]
    for code, article in (("WIN:T", "CXA 14.5"), ("FOUL:T", "CXA 14.1"), ("BWG:T", "CXA 14.5"),
                          ("BPG:T", "CXA 14.5"), ("DE", "CXA 14.5"), ("PREV", "CXA 14.6")):
        assert f"\n{code:<8}" in listing and article in listing, code
    assert main(["tiebreaks", "WIN:T"]) == 0
    assert "Team game wins" in capsys.readouterr().out
    assert main(["presets"]) == 0
    listing = capsys.readouterr().out
    for name, article in (("cxa-team-rr", "CXA 14.5"), ("cxa-team-swiss", "CXA 14.6"), ("cxa-team-gp", "CXA 14.7")):
        assert name in listing and article in listing
