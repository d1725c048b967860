"""The readings of FIDE C.07 that docs/rules.md#c07-readings fixes, on the hand-made cases of
tests/data/c07_readings: every value of its
README, in both editions."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cli
import pytest

from ranking.scoring.rules import Edition, Options, Rules
from ranking.standings.individual import compute_standings
from tiebreak.files import load_tournament

DATA = Path(__file__).parent / "data" / "c07_readings"
BOTH = (Edition.FIDE_2024, Edition.FIDE_2026)


def values(file: str, edition: Edition, *codes: str) -> dict[str, dict[int, object]]:
    """{code: {player: value}} for the chain ``codes`` under ``edition``."""
    standings = compute_standings(load_tournament(DATA / file),
                                  Rules(tiebreaks=codes, options=Options(fide_edition=edition)))
    return {code: {row.player.id: row.values[code] for row in standings.rows} for code in codes}


def by_player(*column: object) -> dict[int, object]:
    return dict(enumerate(column, start=1))


# -- 1. the free round of an odd round robin (C.07 15.2, 15.3, 8.1, 9.1, 9.2) -----------------

@pytest.mark.parametrize("edition", BOTH)
def test_the_free_round_of_an_odd_round_robin_adds_nothing_to_bh_sb_or_koya(edition: Edition) -> None:
    """No dummy in BH, no 16.3 +1/2 for the opponents of a player whose last round is the
    free one (player 3), nothing in SB; Koya's limit is half of the 4 games each player is
    scheduled to play (2 points), not of the 5 rounds."""
    got = values("ex1_odd_rr.trf", edition, "SB", "BH", "KS")
    assert got["SB"] == by_player(5.75, 3.00, 3.50, 2.75, 1.50)
    assert got["BH"] == by_player(7.0, 8.0, 7.5, 8.0, 9.5)
    assert got["KS"] == by_player(2.5, 1.0, 1.5, 1.0, 0.5)


@pytest.mark.parametrize("edition", BOTH)
def test_sonneborn_berger_separates_the_tied_players_of_the_odd_round_robin(edition: Edition) -> None:
    """Players 2 and 4 both have 2 points; SB 3.00 against 2.75 places 2 before 4."""
    standings = compute_standings(load_tournament(DATA / "ex1_odd_rr.trf"),
                                  Rules(tiebreaks=("SB",), options=Options(fide_edition=edition)))
    ranks = {row.player.id: row.rank for row in standings.rows}
    assert ranks[2] < ranks[4]


@pytest.mark.parametrize("edition", BOTH)
def test_the_free_round_is_no_unplayed_round(edition: Edition) -> None:
    """Its points count in the score and in WIN only: no 16.2 category, not a VUR, no STD."""
    from ranking.scoring.scoresheet import Scoresheet

    tournament = load_tournament(DATA / "ex1_odd_rr.trf")
    sheet = Scoresheet(tournament, Rules(options=Options(fide_edition=edition)))
    free = [record for rows in sheet.records for record in rows if sheet.is_free_round(record)]
    assert len(free) == 5 and all(record.category == 0 and not record.vur for record in free)
    assert sheet.adjusted_scores == sheet.scores
    got = values("ex1_odd_rr.trf", edition, "REP", "STD")
    assert got["REP"] == by_player(5, 5, 5, 5, 5)  # no requested bye, no forfeit loss
    assert got["STD"] == by_player(3.0, 2.0, 2.5, 2.0, 0.5)  # four games each, no fifth round


# -- 2. round-robin forfeits in WON, BPG, BWG (C.07 15.2) --------------------------------------

EX2 = {  # edition: WON, BPG, BWG, REP of players 1-4; ARO of player 1
    Edition.FIDE_2024: ((2, 1, 0, 0), (1, 0, 1, 2), (1, 0, 0, 0), (3, 1, 3, 3), 1875),
    Edition.FIDE_2026: ((3, 1, 1, 0), (1, 0, 2, 2), (1, 0, 1, 0), (3, 1, 3, 3), 1875),
}


@pytest.mark.parametrize("edition", BOTH)
def test_round_robin_forfeits_in_type_b_tiebreaks(edition: Edition) -> None:
    """2026: a forfeit win is a game for WON, BPG (scheduled Black) and BWG, a forfeit loss is
    not; 2024: over-the-board games only.  No forfeit counts for ARO (10.1) in either."""
    won, bpg, bwg, rep, aro = EX2[edition]
    got = values("ex2_rr_forfeits.trf", edition, "WON", "BPG", "BWG", "REP", "ARO")
    assert got["WON"] == by_player(*won)
    assert got["BPG"] == by_player(*bpg)
    assert got["BWG"] == by_player(*bwg)
    assert got["REP"] == by_player(*rep)
    assert got["ARO"][1] == aro


@pytest.mark.parametrize(("edition", "flag"), [(Edition.FIDE_2024, "2024"), (Edition.FIDE_2026, "2026")])
def test_the_command_line_edition_reaches_round_robin_forfeits(edition: Edition, flag: str) -> None:
    result = cli.tiebreak("standings", DATA / "ex2_rr_forfeits.trf", "--tiebreaks", "WON,BPG,BWG",
                          "--fide-edition", flag, "--json")
    assert result.returncode == 0, result.stderr
    rows = {row["id"]: row["tiebreaks"] for row in json.loads(result.stdout)["standings"]}
    won, bpg, bwg, _, _ = EX2[edition]
    assert [rows[player]["WON"] for player in (1, 2, 3, 4)] == list(won)
    assert [rows[player]["BPG"] for player in (1, 2, 3, 4)] == list(bpg)
    assert [rows[player]["BWG"] for player in (1, 2, 3, 4)] == list(bwg)


def test_forfeits_count_as_games_with_the_p_modifier_in_both_editions() -> None:
    """/P (TRF-2026): forfeits are games against the scheduled opponent, wins and losses."""
    for edition in BOTH:
        got = values("ex2_rr_forfeits.trf", edition, "WON/P", "BPG/P")
        assert got["WON/P"] == by_player(3, 1, 1, 0)
        assert got["BPG/P"] == by_player(1, 1, 2, 2)


# -- 3. Fore Buchholz with a final-round forfeit (C.07 8.3) -------------------------------------

@pytest.mark.parametrize("edition", BOTH)
def test_fore_buchholz_counts_a_final_round_forfeit_as_a_played_draw(edition: Edition) -> None:
    """Player 1's final-round forfeit win over player 2 is a draw against player 2 (FB score
    1.0), not a dummy; player 2's round-2 zero-point bye is then 16.2.3 (seen as 0), not .5."""
    got = values("ex3_fb_forfeit.trf", edition, "FB")
    assert got["FB"] == by_player(4.0, 5.5, 5.0, 4.5, 3.0, 5.0)


@pytest.mark.parametrize("edition", BOTH)
def test_fore_buchholz_is_the_same_before_the_final_round_is_played(edition: Edition) -> None:
    """8.3 is meant for the final round's pairings: a paired game without a result yet is a draw
    too, so FB does not change when the results come in."""
    tournament = load_tournament(DATA / "ex3_fb_forfeit.trf")
    unplayed = replace(tournament, games=tuple(replace(game, result=None) if game.round == 3 else game
                                               for game in tournament.games))
    standings = compute_standings(unplayed, Rules(tiebreaks=("FB",), options=Options(fide_edition=edition)),
                                  after_round=3)
    assert {row.player.id: row.values["FB"] for row in standings.rows} == by_player(4.0, 5.5, 5.0, 4.5, 3.0, 5.0)


# -- 4. Median-2 (C.07 14.3/14.4, 16.5) -----------------------------------------------------------

@pytest.mark.parametrize(("edition", "bh"), [(Edition.FIDE_2024, 13.0), (Edition.FIDE_2026, 12.5)])
def test_median_2_makes_all_low_cuts_first_then_the_high_cuts(edition: Edition, bh: float) -> None:
    """Player 1's two VURs are cut first (16.5.1), then the two highest remaining values."""
    got = values("ex4_median2.trf", edition, "BH-M2", "BH", "BH-M1", "BH-C2")
    assert (got["BH-M2"][1], got["BH"][1], got["BH-M1"][1], got["BH-C2"][1]) == (2.0, bh, 7.0, 7.0)


# -- 5. SB-C1 with VURs (C.07 16.5.1) -------------------------------------------------------------

@pytest.mark.parametrize(("edition", "sb", "sb_c1"), [(Edition.FIDE_2024, 3.75, 3.25),
                                                      (Edition.FIDE_2026, 3.5, 3.0)])
def test_sb_cut_1_cuts_the_vur_with_the_lowest_contribution(edition: Edition, sb: float, sb_c1: float) -> None:
    """Player 3: the VUR candidate is the VUR element with the lowest contribution, not the
    lowest dummy score; the higher of it and the 14.1.1 least value is cut."""
    got = values("ex5_sbc1.trf", edition, "SB", "SB-C1")
    assert (got["SB"][3], got["SB-C1"][3]) == (sb, sb_c1)
