"""Team events (ranking.standings.team, ranking.tiebreaks.team): the FIDE TEC team exercise, CXA 13.2-13.3,
CXA 14.8 member places, VN 21.2 two-game matches, and properties."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranking.errors import InputError
from ranking.event.model import Game, Player, Result, Team, TeamBye, TeamByeKind, TeamEvent, TeamMatch, Tournament
from ranking.event.rounds import Kind
from ranking.scoring.rules import (
    CHESS,
    THREE_POINT_COLOUR,
    XIANGQI,
    Edition,
    Options,
    Rules,
    ShortTeams,
    TeamRules,
    TeamScoring,
)
from ranking.scoring.team_sheet import TeamSheet, match_score
from ranking.standings.individual import compute_standings
from ranking.standings.team import team_standings
from ranking.tiebreaks.presets import TEAM_PRESETS, VN_MATCH, vn_absence_games
from ranking.tiebreaks.team import TEAM_REGISTRY

EXERCISE = Path(__file__).parent / "data" / "validation" / "fide_tec_exercises_2024_team14" / "expected.json"
DATA = json.loads(EXERCISE.read_text(encoding="utf-8"))
EXPECTED = DATA["expected"]

#: The exercise's regulations for unplayed matches (PAB and HPB 1 MP 2 GP, +F 2 MP 4 GP).
TEC_SCORING = TeamScoring(pab=(1.0, 2.0), hpb=(1.0, 2.0), zpb=(0.0, 0.0), forfeit_win=(2.0, 4.0),
                          forfeit_loss=(0.0, 0.0))
#: The published values follow C.07 2023/2024-08 (dummy = own score, uncapped).
TEC_2024 = Options(fide_edition=Edition.FIDE_2024)
_CELL = re.compile(r"^(?P<opp>\d+)(?P<colour>[wb])(?P<points>[\d.]+)$")


def load_tec(options: Options = TEC_2024, primary: str = "MP", paired_forfeit: bool = True) -> TeamEvent:
    """The exercise from expected.json's crosstable: '<opp><w|b><own GP>' or +F/-F/PAB/HPB/ZPB.
    The known boards of R3 team 11 vs 14 (W, D, D, L from 11's view) are added as games.
    ``paired_forfeit`` False records the round-6 forfeit without its scheduled opponent (as the
    TieBreakServer transcription does)."""
    teams = tuple(Team(int(number), name, tuple(int(number) * 10 + board for board in range(1, 5)))
                  for number, name in DATA["team_names"].items())
    matches, byes, forfeits = [], [], {}
    for number, cells in DATA["crosstable"].items():
        me = int(number)
        for round_number, cell in enumerate(cells, start=1):
            if cell in ("PAB", "HPB", "ZPB"):
                byes.append(TeamBye(round_number, me, TeamByeKind(cell)))
            elif cell in ("+F", "-F"):
                forfeits.setdefault(round_number, {})[cell] = me
            else:
                found = _CELL.match(cell)
                assert found, cell
                if found["colour"] != "w":
                    continue  # each match once, from the team with white on board 1
                other = int(found["opp"])
                theirs = next(_CELL.match(c) for c in DATA["crosstable"][str(other)]
                              if (m := _CELL.match(c)) and int(m["opp"]) == me and m["colour"] == "b")
                if round_number == 3 and {me, other} == {11, 14}:
                    assert me == 11
                    boards = tuple(Game(3, 110 + b, 140 + b, r) if b % 2 else Game(3, 140 + b, 110 + b, r)
                                   for b, r in ((1, Result.WHITE_WINS), (2, Result.DRAW),
                                                (3, Result.DRAW), (4, Result.WHITE_WINS)))
                    matches.append(TeamMatch(3, 11, 14, boards))
                    continue
                matches.append(TeamMatch(round_number, me, other, first_points=float(found["points"]),
                                         second_points=float(theirs["points"])))
    for round_number, pair in forfeits.items():  # round 6: team 6 (white) forfeits to team 1
        if paired_forfeit:
            matches.append(TeamMatch(round_number, pair["-F"], pair["+F"], forfeit="-+"))
        else:
            byes.append(TeamBye(round_number, pair["+F"], TeamByeKind.FORFEIT_WIN))
            byes.append(TeamBye(round_number, pair["-F"], TeamByeKind.FORFEIT_LOSS))
    return TeamEvent(DATA["tournament"], teams, 7, tuple(matches), tuple(byes), TEC_SCORING,
                     TeamRules(primary=primary, options=options))


def _values(event: TeamEvent, code: str) -> dict[int, object]:
    return {row.team.id: row.values[code] for row in team_standings(event, (code,)).rows}


def _compare(name: str, expected: dict[str, float], actual: dict[int, object]) -> None:
    wrong = [(team, want, actual[int(team)]) for team, want in expected.items()
             if actual[int(team)] is None or abs(actual[int(team)] - want) > 0.006]  # type: ignore[operator]
    if wrong:
        table = "\n".join(f"  team {team:>2}: expected {want}, got {got}" for team, want, got in wrong)
        pytest.fail(f"{name}: {len(wrong)} mismatches\n{table}")


# -- the FIDE TEC team exercise --------------------------------------------------------------------

def test_tec_match_and_game_points():
    sheet = TeamSheet(load_tec())
    ids = [team.id for team in sheet.teams]
    _compare("MP", EXPECTED["MP"], dict(zip(ids, sheet.mp, strict=True)))
    _compare("GP", EXPECTED["GP"], dict(zip(ids, sheet.gp, strict=True)))


def test_match_score_is_the_score_the_team_sheet_counts():
    """Issue 26: one score per team match (``match_score``), for the sheet and every view."""
    event = load_tec()
    sheet = TeamSheet(event)
    for match in event.matches:
        first, second, finished = match_score(event, match)
        assert finished is match.is_finished
        record = sheet.records[sheet.index[match.first]][match.round - 1]
        other = sheet.records[sheet.index[match.second]][match.round - 1]
        assert (record.gp, other.gp) == (first, second), match
    one_total = TeamMatch(1, event.teams[0].id, event.teams[1].id, first_points=3)
    assert match_score(event, one_total) == (0, 0, False)
    both = replace(one_total, second_points=1.5)
    assert match_score(event, both) == (3, 1.5, True)
    forfeit = replace(one_total, first_points=None, forfeit="-+")
    assert match_score(event, forfeit) == (*(event.scoring.unplayed(kind)[1] for kind in (Kind.FORFEIT_LOSS,
                                                                                         Kind.FORFEIT_WIN)), True)


def test_tec_ex34_orders():
    by_mp = team_standings(load_tec(), ("GP",))
    assert [row.team.id for row in by_mp.rows] == EXPECTED["ex34_order_MP_then_GP"]
    by_gp = team_standings(load_tec(primary="GP"), ("MP",))
    assert [row.team.id for row in by_gp.rows] == EXPECTED["ex34_order_GP_then_MP"]


@pytest.mark.parametrize(("key", "code"), [
    ("ex35_BH_MP", "BH:MP"),
    ("ex36_BH-C1_MP", "BH-C1:MP"),
    ("ex37_BH_GP", "BH:GP"),
    ("ex37_BH-C1_GP", "BH:GP/C1"),
    ("ex38_EMMSB-C1", "EMMSB/C1"),
    ("ex39_EGMSB", "EGMSB"),
    ("ex40_EMGSB", "EMGSB"),
    ("ex41_EGGSB", "EGGSB"),
    ("ex49_SSSC_as_printed_1_decimal_in_paper; engine keeps hundredths", "SSSC"),
])
def test_tec_scored_tiebreaks(key, code):
    _compare(code, EXPECTED[key], _values(load_tec(), code))


@pytest.mark.parametrize(("key", "code"), [
    ("BH_MP", "BH:MP"), ("BH-C1_MP", "BH-C1:MP"), ("BH_GP", "BH:GP"), ("EMMSB-C1", "EMMSB/C1"),
    ("EGMSB", "EGMSB"), ("EMGSB", "EMGSB"), ("EGGSB", "EGGSB"), ("SSSC", "SSSC"),
])
def test_tec_values_under_2026_dummy_caps(key, code):
    """TieBreakServer's 2026 values: its data has no opponent for team 1's round-6 forfeit win,
    so the dummy is capped by 16.4.2 (a draw in every round: 7 MP, 14 GP)."""
    expected = DATA["values_under_2026_rules_NOT_FIDE_PUBLISHED"][key]
    _compare(code + " (2026)", expected, _values(load_tec(Options(), paired_forfeit=False), code))
    same_either_way = {"BH:MP", "BH-C1:MP", "EMMSB/C1", "EMGSB", "SSSC"}  # team 6 has 7 MP = the 16.4.2 cap
    if code in same_either_way:
        _compare(code + " (2026, paired)", expected, _values(load_tec(Options()), code))


def test_tec_2026_forfeit_dummy_capped_by_the_scheduled_opponent():
    """C.07 (2026) 16.4.1: with the opponent known (team 6, 12.5 GP), team 1's forfeit-win dummy
    is 12.5 GP, not the 16.4.2 cap of 14: BH:GP 109.0 (TieBreakServer, without the opponent: 110.5)."""
    values = _values(load_tec(Options()), "BH:GP")
    assert values[1] == 109.0 and values[2] == 107.5


def _ede_places(event: TeamEvent, code: str = "EDE") -> list[list[int]]:
    """Teams grouped by (MP, EDE place), in standings order."""
    rows = team_standings(event, (code,)).rows
    groups: dict[tuple[float, object], list[int]] = {}
    for row in rows:
        groups.setdefault((row.match_points, row.rank), []).append(row.team.id)
    return list(groups.values())


def test_tec_ede_exercises_42_to_45():
    groups = _ede_places(load_tec())
    assert [11, 14] in groups  # ex42: 4 MP, still tied
    assert groups.index([6]) < groups.index([8])  # ex43: 7 MP
    assert [7, 9, 13] in groups  # ex44: 6 MP, still tied
    ten = [team for group in groups[:5] for team in group]
    assert ten == EXPECTED["ex45_EDE_order_of_10MP_group"]  # ex45
    assert all(len(group) == 1 for group in groups[:5])


@pytest.mark.parametrize("code", ["EDEBT", "EDEBB", "EDET", "EDEB"])
def test_tec_board_tiebreaks_exercises_46_to_48(code):
    groups = _ede_places(load_tec(), code)
    assert groups.index([11]) < groups.index([14])


@pytest.mark.parametrize("code", ["BC", "TBR", "BBE"])
def test_tec_board_tiebreak_alone(code):
    event = load_tec()
    standings = team_standings(event, ("GP", code))
    ids = [row.team.id for row in standings.rows]
    assert ids.index(11) < ids.index(14)  # 4 MP, 11.5 GP both


def test_board_count_values():
    event = load_tec()
    sheet = TeamSheet(event)
    eleven = sheet.index[11]
    assert dict(sheet.records[eleven][2].boards) == {1: 1.0, 2: 0.5, 3: 0.5, 4: 0.0}
    fourteen = sheet.index[14]
    assert dict(sheet.records[fourteen][2].boards) == {1: 0.0, 2: 0.5, 3: 0.5, 4: 1.0}


def test_as_json_shape():
    data = team_standings(load_tec(), ("GP", "EDE", "EMGSB")).as_json()
    first = data["standings"][0]
    assert set(first) == {"rank", "id", "name", "match_points", "game_points", "tiebreaks"}
    assert first["id"] == 5 and set(first["tiebreaks"]) == {"GP", "EDE", "EMGSB"}
    json.dumps(data)


def test_fide_team_preset_runs_on_the_exercise():
    preset = TEAM_PRESETS["fide-team"]
    event = replace(load_tec(), rules=replace(preset.rules, options=TEC_2024))
    rows = team_standings(event).rows
    assert [row.team.id for row in rows][:5] == [5, 1, 2, 4, 3]  # 10 MP, by GP


# -- CXA 13.2, 13.3 ------------------------------------------------------------------------------

def _two_teams(boards: tuple[Game, ...], scoring: TeamScoring) -> TeamEvent:
    teams = (Team(1, "Red", (11, 12, 13, 14)), Team(2, "Black", (21, 22, 23, 24)))
    return TeamEvent("m", teams, 1, (TeamMatch(1, 1, 2, boards),), scoring=scoring)


def test_cxa_13_2_match_points_from_board_totals():
    # team 1 wins boards 1 and 3, loses 2, draws 4: 5 - 3 game points (2/1/0 games), 2 - 0 match points
    boards = (Game(1, 11, 21, Result.WHITE_WINS), Game(1, 22, 12, Result.WHITE_WINS),
              Game(1, 13, 23, Result.WHITE_WINS), Game(1, 24, 14, Result.DRAW))
    rows = team_standings(_two_teams(boards, TeamScoring(game=XIANGQI))).rows
    assert [(row.team.id, row.match_points, row.game_points) for row in rows] == [(1, 2.0, 5.0), (2, 0.0, 3.0)]
    level = (*boards[:2], Game(1, 13, 23, Result.DRAW), Game(1, 24, 14, Result.DRAW))
    rows = team_standings(_two_teams(level, TeamScoring(game=XIANGQI))).rows
    assert [(row.match_points, row.game_points) for row in rows] == [(1.0, 4.0), (1.0, 4.0)]


def test_cxa_13_3_colour_dependent_draws_decide_the_match():
    # Four draws: red (first mover) scores 1, black 2 on each board; team 1 has red on 1 and 3.
    boards = (Game(1, 11, 21, Result.DRAW), Game(1, 22, 12, Result.DRAW),
              Game(1, 13, 23, Result.DRAW), Game(1, 24, 14, Result.WHITE_WINS))
    rows = team_standings(_two_teams(boards, TeamScoring(game=THREE_POINT_COLOUR))).rows
    # team 1: 1 + 2 + 1 + 0 = 4; team 2: 2 + 1 + 2 + 3 = 8
    assert [(row.team.id, row.match_points, row.game_points) for row in rows] == [(2, 2.0, 8.0), (1, 0.0, 4.0)]
    draws = (*boards[:3], Game(1, 24, 14, Result.DRAW))
    rows = team_standings(_two_teams(draws, TeamScoring(game=THREE_POINT_COLOUR))).rows
    assert [(row.match_points, row.game_points) for row in rows] == [(1.0, 6.0), (1.0, 6.0)]


def test_byes_and_forfeits_default_to_a_won_match_on_every_board():
    teams = (Team(1, "A"), Team(2, "B"), Team(3, "C"))
    event = TeamEvent("f", teams, 1, (TeamMatch(1, 1, 2, forfeit="--"),), (TeamBye(1, 3, TeamByeKind.PAB),))
    values = {row.team.id: (row.match_points, row.game_points) for row in team_standings(event).rows}
    assert values == {1: (0.0, 0.0), 2: (0.0, 0.0), 3: (2.0, 4.0)}
    event = replace(event, matches=(TeamMatch(1, 1, 2, forfeit="-+"),))
    values = {row.team.id: (row.match_points, row.game_points) for row in team_standings(event).rows}
    assert values[2] == (2.0, 4.0) and values[1] == (0.0, 0.0)


def test_forfeited_boards_score_as_wins_and_losses():
    boards = (Game(1, 11, 21, Result.WHITE_WINS_FORFEIT), Game(1, 22, 12, Result.DRAW),
              Game(1, 13, 23, Result.DOUBLE_FORFEIT), Game(1, 24, 14, Result.BLACK_WINS))
    rows = team_standings(_two_teams(boards, TeamScoring())).rows
    assert [(row.team.id, row.match_points, row.game_points) for row in rows] == [(1, 2.0, 2.5), (2, 0.0, 0.5)]


def test_team_fouls_fewer_is_better():
    boards = (Game(1, 11, 21, Result.DRAW, fouls_white=2), Game(1, 22, 12, Result.DRAW, fouls_white=1),
              Game(1, 13, 23, Result.DRAW), Game(1, 24, 14, Result.DRAW))
    rows = team_standings(_two_teams(boards, TeamScoring()), ("FOUL:T",)).rows
    assert [(row.team.id, row.values["FOUL:T"]) for row in rows] == [(2, 1), (1, 2)]


# -- VN 21.2 two-game matches ----------------------------------------------------------------------

def test_vn_21_2_two_game_matches_and_absence():
    players = (Player(1, "A"), Player(2, "B"), Player(3, "C"), Player(4, "D"))
    games = (Game(1, 1, 2, Result.WHITE_WINS), Game(1, 2, 1, Result.DRAW),  # A 3 GP: 1 MP
             *vn_absence_games(1, 3, 4))  # D absent: C 1 MP, 4 GP
    standings = compute_standings(Tournament("vn", players, 1, games, rules=VN_MATCH), VN_MATCH)
    values = {row.player.id: (row.points, row.values["GP"]) for row in standings.rows}
    assert values == {1: (1.0, 3.0), 2: (0.0, 1.0), 3: (1.0, 4.0), 4: (0.0, 0.0)}
    assert [row.player.id for row in standings.rows] == [3, 1, 2, 4]


def test_vn_drawn_match_scores_half_a_match_point():
    players = (Player(1, "A"), Player(2, "B"))
    games = (Game(1, 1, 2, Result.WHITE_WINS), Game(1, 2, 1, Result.WHITE_WINS))
    rows = compute_standings(Tournament("vn", players, 1, games), VN_MATCH).rows
    assert [(row.points, row.values["GP"]) for row in rows] == [(0.5, 2.0), (0.5, 2.0)]


# -- CXA 14.7-14.8 member places ----------------------------------------------------------------------

def _places_event(short_teams: ShortTeams) -> TeamEvent:
    """Two-board teams; teams 3 and 4 have one member only."""
    teams = (Team(1, "A", (1, 2)), Team(2, "B", (3, 4)), Team(3, "C", (5,)), Team(4, "X", (6,)))
    players = tuple(Player(number, f"P{number}") for number in range(1, 7))
    matches = (  # team 3's single member beats team 4's single member
        TeamMatch(1, 1, 2, (Game(1, 1, 3, Result.WHITE_WINS), Game(1, 4, 2, Result.DRAW))),
        TeamMatch(1, 3, 4, (Game(1, 5, 6, Result.WHITE_WINS),)),
    )
    preset = TEAM_PRESETS["cxa-team-places"]
    return TeamEvent("places", teams, 1, matches, players=players,
                     scoring=TeamScoring(game=CHESS, boards=2),
                     rules=replace(preset.rules, short_teams=short_teams,
                                   individual=Rules(CHESS, ("SB",))))


def test_sumrank_short_team_unranked_and_last_place():
    # individual places: P1 1st and P5 1st (1 point each), P2 and P4 3rd (1/2), P3 and P6 5th.
    event = _places_event(ShortTeams.UNRANKED)
    rows = team_standings(event).rows
    values = {row.team.id: row.values["SUMRANK"] for row in rows}
    assert values == {1: 4, 2: 8, 3: None, 4: None}
    assert [row.team.id for row in rows][:2] == [1, 2]
    event = _places_event(ShortTeams.LAST_PLACE)
    rows = team_standings(event).rows
    values = {row.team.id: row.values["SUMRANK"] for row in rows}
    assert values == {1: 4, 2: 8, 3: 1 + 6, 4: 5 + 6}
    assert [row.team.id for row in rows] == [1, 3, 2, 4]


def test_sumrank_best_single_place_breaks_equal_sums():
    teams = (Team(1, "A", (1, 2)), Team(2, "B", (3, 4)))
    players = tuple(Player(number, f"P{number}") for number in range(1, 5))
    # P1 beats P3, P4 beats P2: places P1 1, P4 1, P2 3, P3 3 -> sums 4 and 4, best 1 and 1: tied.
    match = TeamMatch(1, 1, 2, (Game(1, 1, 3, Result.WHITE_WINS), Game(1, 4, 2, Result.WHITE_WINS)))
    event = TeamEvent("p", teams, 1, (match,), players=players, scoring=TeamScoring(boards=2),
                      rules=TeamRules(("SUMRANK",), primary="PLACES", individual=Rules(CHESS, ("SB",))))
    rows = team_standings(event).rows
    assert [row.rank for row in rows] == [1, 1]


def test_sumpts_sums_the_members_points():
    event = _places_event(ShortTeams.UNRANKED)
    rows = team_standings(event, ("SUMPTS",)).rows
    assert {row.team.id: row.values["SUMPTS"] for row in rows} == {1: 1.5, 2: 0.5, 3: 1.0, 4: 0.0}


# -- codes and presets ------------------------------------------------------------------------------

def test_codes_parse_and_refuse():
    assert TEAM_REGISTRY.parse("BH-C1:MP") == TEAM_REGISTRY.parse("BH:MP/C1").__class__(
        "BH-C1:MP", "BH", "MP", "", 1, 0, False)
    assert TEAM_REGISTRY.parse("ESB:MG").esb == "MG" == TEAM_REGISTRY.parse("EMGSB/C1").esb
    assert TEAM_REGISTRY.parse("FOUL:T").name == "FOUL:T"
    assert TEAM_REGISTRY[TEAM_REGISTRY.parse("FOUL").name] is TEAM_REGISTRY["FOUL:T"]
    assert [TEAM_REGISTRY.parse(code).name for code in ("win:t", "BWG:T", "BPG:T", "DE", "PREV")] == \
        ["WIN:T", "BWG:T", "BPG:T", "DE", "PREV"]
    for bad in ("XYZ", "BH:XX", "EDE/C1", "FOUL:MP", "EMMSB:MG", "WIN", "WIN:MP", "BWG:T/C1", "PREV:T"):
        with pytest.raises(InputError):
            TEAM_REGISTRY.parse(bad)


def test_registry_documents_every_rules_md_team_code():
    for code in ("MP", "GP", "MPVGP", "EDE", "ESB", "BH", "SSSC", "BC", "TBR", "BBE", "FOUL", "SUMPTS", "SUMRANK"):
        entry = TEAM_REGISTRY[code]
        assert entry.article and entry.definition and entry.name


def test_presets_cite_their_article():
    assert set(TEAM_PRESETS) == {"fide-team", "cxa-team", "cxa-team-rr", "cxa-team-swiss", "cxa-team-gp",
                                 "cxa-team-places"}
    for preset in TEAM_PRESETS.values():
        assert any(word in preset.description for word in ("FIDE", "CXA"))
        for code in preset.rules.tiebreaks:
            TEAM_REGISTRY.parse(code)
    assert "VN 21.2" in VN_MATCH.description


def test_mpvgp_is_the_other_score():
    event = load_tec()
    rows = team_standings(event, ("MPvGP",)).rows
    assert all(row.values["MPvGP"] == row.game_points for row in rows)


def test_after_round():
    standings = team_standings(load_tec(), ("GP",), after_round=1)
    assert standings.after_round == 1
    assert {row.team.id: row.match_points for row in standings.rows}[5] == 2.0


# -- properties ------------------------------------------------------------------------------------

_RESULTS = st.sampled_from([Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.WHITE_WINS_FORFEIT,
                            Result.BLACK_WINS_FORFEIT])


@st.composite
def small_events(draw):
    count = draw(st.integers(2, 6))
    rounds = draw(st.integers(1, 4))
    teams = tuple(Team(n, f"T{n}", tuple(n * 10 + b for b in range(1, 3))) for n in range(1, count + 1))
    matches = []
    for number in range(1, rounds + 1):
        order = draw(st.permutations(range(1, count + 1)))
        for first, second in zip(order[::2], order[1::2], strict=False):
            results = draw(st.lists(_RESULTS, min_size=2, max_size=2))
            boards = (Game(number, first * 10 + 1, second * 10 + 1, results[0]),
                      Game(number, second * 10 + 2, first * 10 + 2, results[1]))
            matches.append(TeamMatch(number, first, second, boards))
    scoring = TeamScoring(game=draw(st.sampled_from([CHESS, XIANGQI, THREE_POINT_COLOUR])), boards=2)
    return TeamEvent("p", teams, rounds, tuple(matches), scoring=scoring)


@settings(max_examples=60, deadline=None)
@given(small_events())
def test_match_points_sum_to_the_match_total(event):
    sheet = TeamSheet(event)
    scoring = event.scoring
    for match in event.matches:
        first, second = sheet.index[match.first], sheet.index[match.second]
        a = sheet.records[first][match.round - 1].mp
        b = sheet.records[second][match.round - 1].mp
        assert a + b in (scoring.match_win + scoring.match_loss, 2 * scoring.match_draw)


CHAIN = ("GP", "EDE", "BH:MP", "BH:GP/C1", "EMGSB", "SSSC")


@settings(max_examples=40, deadline=None)
@given(small_events(), st.data())
def test_swapping_two_team_names_changes_nothing(event, data):
    a, b = data.draw(st.permutations(range(len(event.teams))))[:2]
    names = [team.name for team in event.teams]
    names[a], names[b] = names[b], names[a]
    renamed = replace(event, teams=tuple(replace(team, name=name) for team, name in
                                         zip(event.teams, names, strict=True)))
    before = team_standings(event, CHAIN).rows
    after = team_standings(renamed, CHAIN).rows
    assert [(r.rank, r.team.id, r.match_points, r.game_points, r.values) for r in before] == \
        [(r.rank, r.team.id, r.match_points, r.game_points, r.values) for r in after]


def test_doctests():
    import doctest

    import ranking.standings.team
    import ranking.tiebreaks.codes

    for module in (ranking.standings.team, ranking.tiebreaks.codes):
        failures, tried = doctest.testmod(module)
        assert failures == 0 and tried > 0
