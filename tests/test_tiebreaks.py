"""Tie-breaks and options pinned on small tournaments written by hand."""

from __future__ import annotations

import pytest
from build import make

from ranking.errors import InputError
from ranking.event.model import System
from ranking.scoring.rules import (
    THREE_POINT_COLOUR,
    XIANGQI,
    ByeValue,
    Edition,
    Options,
    PreviousMode,
    Rules,
    Scoring,
)
from ranking.standings.individual import compute_standings
from ranking.tiebreaks.individual import REGISTRY
from ranking.tiebreaks.presets import PRESETS, XIANGQI_MATCH, get_preset


def table(tournament, *codes: str, scoring: Scoring | None = None, **options) -> dict[int, tuple]:
    rules = Rules(scoring or Scoring(), tuple(codes), Options(**options))
    standings = compute_standings(tournament, rules)
    return {row.player.id: (row.rank, row.points, *(row.values[code] for code in codes)) for row in standings.rows}


def test_slash_and_dash_modifiers_are_the_same_code() -> None:
    assert REGISTRY.parse("BH/C1").canonical == REGISTRY.parse("BH-C1").canonical == "BH/C1"
    assert REGISTRY.parse("bh/m2/p") == REGISTRY.parse("BH/M2/P")._replace(code="bh/m2/p")
    assert REGISTRY.parse("PS-D").name == "PS-D"
    assert REGISTRY.parse("GE").name == "GE"


@pytest.mark.parametrize(("code", "message"), [
    ("XYZ", "unknown tie-break 'XYZ'"),
    ("BH/Q1", "unknown modifier 'Q1'"),
    ("WIN/C1", "WIN takes no C modifier"),
    ("BH/C1/C2", "modifier cut given twice"),
])
def test_bad_codes_are_refused_with_the_reason(code: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        REGISTRY.parse(code)


def test_a_code_given_twice_in_a_chain_is_refused() -> None:
    with pytest.raises(InputError, match="appears twice"):
        compute_standings(make(["1-2 1-0"]), Rules(tiebreaks=("BH-C1", "BH/C1")))


def test_json_keys_are_the_codes_as_given() -> None:
    standings = compute_standings(make(["1-2 1-0", "2-1 ="]), Rules(tiebreaks=("BH/C1", "sb")))
    assert standings.as_json()["standings"][0]["tiebreaks"].keys() == {"BH/C1", "sb"}


def test_players_equal_on_everything_share_the_better_place() -> None:
    tournament = make(["1-2 1-0; 3-4 1-0", "1-3 =; 2-4 ="])
    ranks = {pid: row[0] for pid, row in table(tournament, "BH").items()}
    assert ranks == {1: 1, 3: 1, 2: 3, 4: 3}


def test_three_point_colour_scoring_favours_the_second_mover_in_draws() -> None:
    """CXA 13.3: win 3, loss 0, a draw 1 for red (first mover) and 2 for black."""
    rows = table(make(["1-2 ="]), scoring=THREE_POINT_COLOUR)
    assert rows[1][1] == 1.0 and rows[2][1] == 2.0


def test_custom_bye_values() -> None:
    tournament = make(["1-2 1-0; 3 U", "1-3 =; 2 H"])
    custom = Scoring(pairing_bye=0.5, half_bye=0.0)
    rows = table(tournament, scoring=custom)
    assert rows[3][1] == 1.0 and rows[2][1] == 0.0


def test_double_forfeit_scores_nothing_for_either_player() -> None:
    rows = table(make(["1-2 --"]))
    assert rows[1][1] == rows[2][1] == 0.0


def test_cxa_bye_counts_as_the_lowest_final_score_in_buchholz() -> None:
    """CXA 14.4: the bye's missing opponent counts as the lowest final score in the field."""
    tournament = make(["1-2 1-0; 3 U", "1-3 1-0; 2 U"])
    rows = table(tournament, "BH", scoring=XIANGQI, bye_value_in_bh=ByeValue.LOWEST_SCORE)
    # scores: 1 -> 4, 2 -> 2, 3 -> 2; the lowest is 2
    assert rows[3][2] == 4.0 + 2.0
    assert table(tournament, "BH", scoring=XIANGQI, bye_value_in_bh=ByeValue.ZERO)[3][2] == 4.0


def test_fide_2026_caps_the_bye_dummy_at_draw_points_per_round() -> None:
    tournament = make(["1 U; 2-3 1-0", "1-2 1-0", "1-3 1-0"])
    # 2 ends on 1 point but was absent in the last round: opponents count 1.5 (16.3); 3 has 0.
    assert table(tournament, "BH", fide_edition=Edition.FIDE_2024)[1][2] == 3.0 + 1.5 + 0.0
    assert table(tournament, "BH", fide_edition=Edition.FIDE_2026)[1][2] == 1.5 + 1.5 + 0.0


def test_foul_counts_fouls_and_fewer_is_better() -> None:
    tournament = make(["1-2 =; 3-4 ="], fouls={(1, 1): 2, (1, 4): 1})
    rows = table(tournament, "FOUL")
    assert (rows[1][2], rows[4][2], rows[2][2]) == (2, 1, 0)
    assert rows[2][0] == 1 and rows[4][0] == 3 and rows[1][0] == 4


def test_deb_ranks_the_player_who_had_black_in_their_game() -> None:
    tournament = make(["1-2 =; 3-4 1-0"])
    rows = table(tournament, "DEB")
    assert (rows[2][0], rows[1][0], rows[2][2], rows[1][2]) == (2, 3, 1, 2)


def test_prev_compares_the_score_after_earlier_rounds() -> None:
    # 1 and 2 end on 2 points: running scores 1 -> 0, 1, 2 and 2 -> 1, 1, 2.
    tournament = make(["1-3 0-1; 2-4 1-0", "1-5 1-0; 2-6 0-1", "1-7 1-0; 2-8 1-0"])
    cumulative = table(tournament, "PREV")
    assert (cumulative[2][2], cumulative[1][2]) == (1, 2)  # after round 2: 1 each; round 1: 2 led
    by_round = table(tournament, "PREV", prev_mode=PreviousMode.ROUND_RESULT)
    assert (by_round[1][2], by_round[2][2]) == (1, 2)  # round 3 equal; round 2: 1 won


def test_ps_d_drops_the_first_rounds_one_by_one() -> None:
    # running scores 1 -> 1, 1, 2, 3 and 2 -> 0.5, 1.5, 2, 3: equal PS (7); without
    # round 1: 6 against 6.5.
    tournament = make(["1-3 1-0; 2-4 =", "1-5 0-1; 2-6 1-0", "1-7 1-0; 2-8 =", "1-9 1-0; 2-10 1-0"])
    rows = table(tournament, "PS", "PS-D")
    assert rows[1][2] == rows[2][2] == 7.0
    assert (rows[2][3], rows[1][3]) == (1, 2)
    assert (rows[2][0], rows[1][0]) == (1, 2)


def test_lots_are_reproducible_from_the_seed() -> None:
    tournament = make(["1-2 =; 3-4 ="])
    first = table(tournament, "LOT", lots_seed="2026-hanoi")
    assert first == table(tournament, "LOT", lots_seed="2026-hanoi")
    assert sorted(row[0] for row in first.values()) == [1, 2, 3, 4]
    assert {tuple(sorted(row[0] for row in table(tournament, "LOT", lots_seed=str(seed)).values()))
            for seed in range(5)} == {(1, 2, 3, 4)}


def test_koya_limit_moves_the_threshold_by_half_points() -> None:
    tournament = make(["1-2 1-0; 3-4 =", "1-3 1-0; 2-4 1-0", "1-4 =; 2-3 ="], system=System.ROUND_ROBIN)
    # final: 1 -> 2.5, 2 -> 1.5, 3 -> 1, 4 -> 1; half of the maximum is 1.5
    rows = {limit: table(tournament, f"KS/L{limit:+d}" if limit else "KS") for limit in (-1, 0, 1)}
    assert rows[0][1][2] == 1.0  # only 2 (1.5) qualifies among 1's opponents
    assert rows[-1][1][2] == 2.5  # threshold 1: everyone
    assert rows[1][1][2] == 0.0  # threshold 2: nobody


def test_standard_points() -> None:
    tournament = make(["1-2 1-0; 3 H", "1-3 +-; 2 U"])
    rows = table(tournament, "STD")
    assert rows[1][2] == 2.0 and rows[3][2] == 0.5 and rows[2][2] == 1.0


def test_match_scoring_counts_match_points_and_game_points() -> None:
    """CXA 14.2 / VN 21.2: two games per round form a match; MP decide, GP break ties."""
    rounds = ["1-2 1-0; 2-1 =; 3-4 =; 4-3 =", "1-3 =; 3-1 =; 2-4 1-0; 4-2 1-0"]
    rows = table(make(rounds), "GP", scoring=XIANGQI_MATCH)
    assert rows[1][1:] == (3.0, 5.0)  # match won 3-1 (2 MP), match drawn 2-2 (1 MP)
    assert rows[3][1:] == (2.0, 4.0)
    assert rows[2][1:] == (1.0, 3.0)


def test_a_match_drawn_by_forfeits_is_a_drawn_unplayed_round() -> None:
    """Two games between the same two players in a round, each won by forfeit by one side, make
    a drawn match of forfeits: an unplayed round (a forfeit, C.07 16.2.4) with a draw's outcome.
    SB counts half of its 2026 dummy (the lower of the two scores), STD half a point."""
    rounds = ["1-2 +-; 2-1 +-; 3-4 1-0; 4-3 0-1", "1-3 1-0; 3-1 0-1; 2-4 =; 4-2 ="]
    rows = table(make(rounds), "SB", "STD", scoring=Scoring(match=(2.0, 1.0, 0.0)))
    assert rows[1][1:] == (3.0, 1.0 + 2.0, 1.5)  # a drawn forfeit round: min(3, 2) / 2; then 2 x 1
    assert rows[2][1:] == (2.0, 1.0 + 0.5, 1.0)  # min(2, 3) / 2; then a drawn match against 1 MP


def test_unfinished_games_count_for_nothing_yet() -> None:
    rows = table(make(["1-2 1-0; 3-4 ?"]), "BH")
    assert rows[3][1] == rows[4][1] == 0.0
    assert rows[1][2] == 0.0


def test_after_round_limits_the_rounds_counted() -> None:
    tournament = make(["1-2 1-0", "2-1 1-0"])
    standings = compute_standings(tournament, Rules(), after_round=1)
    assert standings.after_round == 1
    assert [row.points for row in standings.rows] == [1.0, 0.0]
    with pytest.raises(InputError, match="after-round 5"):
        compute_standings(tournament, Rules(), after_round=5)


def test_round_robin_counts_forfeits_as_games_but_swiss_does_not() -> None:
    """C.07 15.2 (round robins) against 16 (Swiss), seen through SB."""
    rounds = ["1-2 +-; 3-4 1-0", "1-3 1-0; 2-4 =", "1-4 1-0; 2-3 ="]
    rr = table(make(rounds, system=System.ROUND_ROBIN), "SB", fide_edition=Edition.FIDE_2024)
    swiss = table(make(rounds), "SB", fide_edition=Edition.FIDE_2024)
    assert rr[1][2] == 1.0 + 1.5 + 0.5  # 2 scored 1, 3 scored 1.5, 4 scored 0.5
    assert swiss[1][2] == 3.0 + 1.5 + 0.5  # the forfeit win counts the dummy: own score 3


def test_every_preset_cites_its_rule_and_parses() -> None:
    tournament = make(["1-2 1-0; 3-4 =", "1-3 =; 2-4 1-0"])
    for name, rules in PRESETS.items():
        assert rules.description, name
        standings = compute_standings(tournament, rules)
        assert len(standings.rows) == 4
    with pytest.raises(InputError, match="unknown preset 'nope'"):
        get_preset("nope")


def test_rating_tie_breaks_ignore_unrated_opponents() -> None:
    tournament = make(["1-2 1-0", "1-3 ="], ratings={1: 2000, 2: 1800, 3: 0})
    rows = table(tournament, "ARO", "TPR", "PTP")
    assert rows[1][2:] == (1800, 1800 + 800, 1800 + 800)
    assert rows[3][2] == 2000


def test_options_from_a_mapping_name_the_bad_key_and_value() -> None:
    assert Options.from_mapping({"keep_rounds": 7, "fide_edition": "2024"}).keep_rounds == 7
    with pytest.raises(ValueError, match="unknown option 'keep'"):
        Options.from_mapping({"keep": 7})
    with pytest.raises(ValueError, match="expected fide, lowest-score, zero"):
        Options.from_mapping({"bye_value_in_bh": "low"})


def test_direct_encounter_places_a_leader_the_missing_games_cannot_catch() -> None:
    """C.07 6.3: A beat B, C and D; B drew C; D met neither B nor C.  A's 3 points cannot be
    reached (B or C: 0.5 + 1 missing game; D: 0 + 2), so A is first; B, C, D stay tied.
    The fillers 5-10 bring everyone to 3 points."""
    tournament = make([
        "1-2 1-0; 3-5 1-0; 4-6 1-0",
        "1-3 1-0; 2-5 1-0; 4-7 1-0",
        "1-4 1-0; 2-3 =; 5-6 =",
        "2-8 1-0; 3-9 1-0; 4-10 1-0",
        "2-9 =; 3-10 =; 4-8 0-1",
    ], players=10)
    rows = table(tournament, "DE")
    assert [rows[p][1] for p in (1, 2, 3, 4)] == [3.0, 3.0, 3.0, 3.0]
    assert [rows[p][2] for p in (1, 2, 3, 4)] == [1, 2, 2, 2]
    assert [rows[p][0] for p in (1, 2, 3, 4)] == [1, 2, 2, 2]


def test_direct_encounter_averages_repeated_games() -> None:
    """C.07 6.1.2: in a double round robin each opponent counts by the average score."""
    rounds = ["1-2 1-0; 3-4 1-0", "1-3 =; 2-4 1-0", "4-1 0-1; 2-3 1-0",
              "2-1 =; 4-3 =", "3-1 =; 4-2 =", "1-4 =; 3-2 0-1"]
    tournament = make(rounds, system=System.DOUBLE_ROUND_ROBIN)
    rows = table(tournament, "DE")
    # 1 and 2 end on 4; between them 1 scored 1 and 0.5: an average of 0.75 against 0.25
    assert rows[1][1] == rows[2][1] == 4.0
    assert (rows[1][2], rows[2][2]) == (1, 2)


def test_direct_encounter_is_applied_again_to_a_sub_group_left_tied() -> None:
    """C.07 6.2: 1-4 all met and end on 2 points.  Mini-table: 1 and 2 on 2, 3 and 4 on 1.
    Applied again to {1, 2}: they drew, still tied; to {3, 4}: 3 beat 4."""
    rounds = ["1-2 =; 3-4 1-0", "1-3 1-0; 2-4 =", "1-4 =; 2-3 1-0", "3-5 1-0; 4-6 1-0; 7-1 1-0; 8-2 1-0"]
    rows = table(make(rounds), "DE")
    assert {rows[p][1] for p in (1, 2, 3, 4)} == {2.0}
    assert [rows[p][2] for p in (1, 2, 3, 4)] == [1, 1, 3, 4]


def test_a_bye_requested_for_a_future_round_does_not_advance_the_standings() -> None:
    tournament = make(["1-2 1-0; 3-4 =", "1-3 ?; 2-4 ?", "", "", "1 H"], players=4)
    standings = compute_standings(tournament)
    assert standings.after_round == 1
    assert [row.points for row in standings.rows] == [1.0, 0.5, 0.5, 0.0]


def test_the_rating_difference_rounds_the_fractional_score_half_up_to_hundredths():
    """B.02 8.1.1 as TPR reads it (C.07 10.2): p = points / games, rounded half up to two
    decimals, then the table's dp; in integers, against exact fractions over every score of up to
    40 games (halves included, where p is exactly some k + 0.005)."""
    from decimal import ROUND_HALF_UP, Decimal
    from fractions import Fraction

    from ranking.tiebreaks.ratings import _DP, rating_difference

    def by_the_table(p: Fraction) -> int:
        hundredths = int((Decimal(p.numerator) * 100 / Decimal(p.denominator)).quantize(Decimal(1), ROUND_HALF_UP))
        return _DP[hundredths - 50] if hundredths >= 50 else -_DP[50 - hundredths]

    for games in range(1, 41):
        for half_points in range(2 * games + 1):
            assert rating_difference(half_points, games) == by_the_table(Fraction(half_points, 2 * games)), \
                (half_points, games)
    assert rating_difference(1, 100) == -_DP[49] == -677  # p = 0.005 rounds up to 0.01
