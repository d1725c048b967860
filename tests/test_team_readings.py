"""Three readings of FIDE C.07 for teams (issue 15, classes 1-3), on the hand-made cases of
tests/data/teams (README.md there works every value out by hand), in both editions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_teams import load_tec

from ranking.event.model import Team, TeamBye, TeamByeKind, TeamEvent, TeamMatch
from ranking.scoring.rules import Edition, Options, TeamScoring
from ranking.scoring.team_sheet import TeamSheet
from ranking.standings.team import team_event_of, team_standings
from ranking.tiebreaks.team import _event_board_totals
from tiebreak.files import load_tournament

DATA = Path(__file__).parent / "data" / "teams"
BOTH = (Edition.FIDE_2024, Edition.FIDE_2026)


def event(file: str, edition: Edition) -> TeamEvent:
    loaded = team_event_of(load_tournament(DATA / file))
    return replace(loaded, rules=replace(loaded.rules, options=Options(fide_edition=edition)))


def team_values(loaded: TeamEvent, *codes: str) -> dict[str, dict[int, object]]:
    rows = team_standings(loaded, codes).rows
    return {code: {row.team.id: row.values[code] for row in rows} for code in codes}


def by_team(*column: object) -> dict[int, object]:
    return dict(enumerate(column, start=1))


# -- 1. BC, TBR and BBE on their own (C.07 12.1-12.3) ---------------------------------------------

A, B, C, D, E = 1, 2, 3, 4, 5


@pytest.mark.parametrize("edition", BOTH)
def test_board_tiebreaks_alone_count_every_board_of_the_event(edition: Edition) -> None:
    """Per board over both rounds, a pairing bye a win on every board (12): A 1½, ½, 1;
    B 1, 1½, 2; C ½, 2, ½; D 2, 1, 1½; E 1, 1, 1; BC = sum of board number x points."""
    sheet = TeamSheet(event("board-tiebreaks-swiss.trf", edition))
    totals = _event_board_totals(sheet, list(range(5)))
    assert totals is not None
    per_board = {sheet.teams[me].id: [totals[me][board] for board in (1, 2, 3)] for me in totals}
    assert per_board == {A: [1.5, 0.5, 1.0], B: [1.0, 1.5, 2.0], C: [0.5, 2.0, 0.5], D: [2.0, 1.0, 1.5],
                         E: [1.0, 1.0, 1.0]}
    board_count = {team: sum(board * points for board, points in enumerate(row, start=1))
                   for team, row in per_board.items()}
    assert board_count == {A: 5.5, B: 10.0, C: 6.0, D: 8.5, E: 6.0}


@pytest.mark.parametrize("edition", BOTH)
@pytest.mark.parametrize(("code", "places", "order"), [
    ("BC", {D: 1, B: 2, A: 1, C: 2, E: 2}, [D, B, A, C, E]),
    ("TBR", {D: 1, B: 2, A: 1, E: 2, C: 3}, [D, B, A, E, C]),
    ("BBE", {D: 1, B: 2, C: 1, A: 2, E: 3}, [D, B, C, A, E]),
])
def test_board_tiebreaks_alone_separate_tied_groups_of_any_size(edition: Edition, code: str,
                                                               places: dict[int, int], order: list[int]) -> None:
    """{B, D} never met and {A, C, E} are three: both groups are separated (C and E share their
    BC place, 6 each)."""
    standings = team_standings(event("board-tiebreaks-swiss.trf", edition), ("GP", code))
    assert {row.team.id: row.values[code] for row in standings.rows} == places
    assert [row.team.id for row in standings.rows] == order
    if code == "BC":
        ranks = {row.team.id: row.rank for row in standings.rows}
        assert ranks[C] == ranks[E] == 4


@pytest.mark.parametrize("edition", BOTH)
@pytest.mark.parametrize("code", ["EDEBT", "EDEBB", "EDET", "EDEB"])
def test_board_steps_inside_the_combined_codes_stay_between_two_teams_that_met(edition: Edition,
                                                                               code: str) -> None:
    """C.07 13.3.2: EDE leaves both groups tied, and the board step takes exactly two teams
    from their own matches, so nobody is separated here."""
    values = team_values(event("board-tiebreaks-swiss.trf", edition), "GP", code)
    assert set(values[code].values()) == {0}


def test_board_tiebreaks_alone_leave_teams_tied_when_a_match_has_only_totals() -> None:
    """The FIDE TEC exercise gives board results for one match only (round 3, teams 11 and 14):
    every other match is known by its totals, so no board tie-break on its own can be computed
    (the exercise's 46-48 use EDEBT, EDET and EDEB, which still separate them)."""
    for code in ("BC", "TBR", "BBE"):
        ranks = {row.team.id: row.rank for row in team_standings(load_tec(), ("GP", code)).rows}
        assert ranks[11] == ranks[14], code


def test_a_forfeited_match_is_a_forfeit_on_every_board() -> None:
    """12: individual forfeits count as wins and losses; a match forfeited without its boards
    is a forfeit on every board, and the team that lost it scores nothing on any board."""
    teams = (Team(1, "A"), Team(2, "B"), Team(3, "C"), Team(4, "D"))
    matches = (TeamMatch(1, 1, 2, forfeit="+-"), TeamMatch(1, 3, 4, first_points=1.0, second_points=1.0))
    sheet = TeamSheet(TeamEvent("f", teams, 1, matches, scoring=TeamScoring(boards=2)))
    assert _event_board_totals(sheet, [0, 1]) == {0: {1: 1.0, 2: 1.0}, 1: {1: 0.0, 2: 0.0}}
    assert _event_board_totals(sheet, [2, 3]) is None  # totals only: the boards are unknown


def test_a_bye_scores_each_board_as_the_event_values_the_bye() -> None:
    """12 (issue 26): a bye's boards come from ``TeamScoring.unplayed_board``, the one table:
    a win on every board by default, and the event's own value of a PAB where it gives one
    (``team_pab``, TRF-2026 320), so the boards add up to the game points the standings count."""
    teams = (Team(1, "A"), Team(2, "B"))
    byes = (TeamBye(1, 1, TeamByeKind.PAB), TeamBye(1, 2, TeamByeKind.FPB))
    for scoring, pab, fpb in ((TeamScoring(boards=2), 1.0, 1.0),
                              (TeamScoring(boards=2, pab=(1.0, 1.0), fpb=(2.0, 1.5)), 0.5, 0.75)):
        sheet = TeamSheet(TeamEvent("b", teams, 1, byes=byes, scoring=scoring))
        totals = _event_board_totals(sheet, [0, 1])
        assert totals == {0: {1: pab, 2: pab}, 1: {1: fpb, 2: fpb}}
        assert [sum(totals[team].values()) for team in (0, 1)] == sheet.gp


# -- 2. the free round of an odd team round robin (C.07 15.2-15.3) ------------------------------------

ODD_RR = {  # team A, B, C
    "BH:MP": (3.0, 4.0, 5.0), "BH:GP": (3.0, 4.5, 4.5), "EMMSB": (5.0, 2.0, 3.0),
    "EMGSB": (5.0, 1.5, 4.0), "EGMSB": (4.5, 3.0, 3.0), "EGGSB": (4.5, 2.25, 3.75),
}


@pytest.mark.parametrize("edition", BOTH)
def test_the_free_round_of_an_odd_team_round_robin_adds_nothing(edition: Edition) -> None:
    """No 16.4 dummy for the team sitting out, no 16.3 draw seen by the opponents of C, whose
    last round is its free one."""
    loaded = event("odd-round-robin.trf", edition)
    got = team_values(loaded, *ODD_RR)
    assert got == {code: by_team(*values) for code, values in ODD_RR.items()}
    sheet = TeamSheet(loaded)
    assert sheet.seen("MP") == sheet.mp == [3.0, 2.0, 1.0]
    assert sheet.seen("GP") == sheet.gp == [3.0, 1.5, 1.5]
    free = [record for rows in sheet.records for record in rows if sheet.is_free_round(record)]
    assert len(free) == 3 and all(record.category == 0 and not record.vur for record in free)


@pytest.mark.parametrize("edition", BOTH)
def test_a_free_round_recorded_as_a_team_pab_counts_in_the_score_only(edition: Edition) -> None:
    """TRF-2026 320 records the free rounds as PABs: 2 MP and 2 GP each, no dummy."""
    loaded = event("odd-round-robin-pab.trf", edition)
    rows = {row.team.id: (row.match_points, row.game_points) for row in team_standings(loaded, ()).rows}
    assert rows == by_team((5.0, 5.0), (4.0, 3.5), (3.0, 3.5))
    got = team_values(loaded, "BH:MP", "BH:GP", "EMMSB", "EMGSB")
    assert got == {"BH:MP": by_team(7.0, 8.0, 9.0), "BH:GP": by_team(7.0, 8.5, 8.5),
                   "EMMSB": by_team(11.0, 6.0, 5.0), "EMGSB": by_team(11.0, 4.5, 7.0)}


def test_a_swiss_team_bye_keeps_its_dummy() -> None:
    """Art. 16 still applies in a Swiss (C.07 15.3): the same matches paired as a Swiss give the
    team sitting out a 16.4 dummy (2024: its own score)."""
    loaded = event("odd-round-robin-pab.trf", Edition.FIDE_2024)
    swiss = replace(loaded, rules=replace(loaded.rules, round_robin=False))
    assert team_values(swiss, "BH:MP")["BH:MP"] == by_team(12.0, 12.0, 12.0)


# -- 3. a forfeited match in a team round robin (C.07 15.2) -------------------------------------------

RR_FORFEIT = {  # team A, B, C, D
    "BH:MP": (8.0, 10.0, 9.0, 9.0), "BH:MP/C1": (6.0, 7.0, 7.0, 7.0), "BH:MP/M1": (3.0, 3.0, 3.0, 3.0),
    "BH:GP": (8.0, 9.0, 9.5, 9.5), "BH:GP/C1": (5.5, 6.5, 7.0, 7.0), "BH:GP/M1": (2.5, 2.5, 3.0, 3.0),
}


@pytest.mark.parametrize("edition", BOTH)
def test_a_forfeited_match_in_a_team_round_robin_is_cut_like_a_played_match(edition: Edition) -> None:
    """D lost its round-2 match to A by forfeit: a played match for tie-breaks (15.2), so
    /C1 cuts D's lowest value (B, 2 MP) and /M1 the lowest and the highest, not the forfeit."""
    got = team_values(event("round-robin-forfeit.trf", edition), *RR_FORFEIT)
    assert got == {code: by_team(*values) for code, values in RR_FORFEIT.items()}


@pytest.mark.parametrize("edition", BOTH)
def test_teams_tied_on_points_stay_tied_on_the_cut_buchholz(edition: Edition) -> None:
    """C and D (3 MP, 2½ GP) both have BH:MP/C1 7: the forfeit no longer ranks D after C."""
    rows = team_standings(event("round-robin-forfeit.trf", edition), ("GP", "BH:MP/C1")).rows
    ranks = {row.team.id: row.rank for row in rows}
    assert ranks[3] == ranks[4] == 2

