"""The Dutch engine's API: options, bad input, the checker and the output formats."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ranking.errors import InputError
from ranking.event.model import Bye, ByeKind, Game, Player, Result, Tournament, Withdrawal
from ranking.formats.tomlfile import parse_tournament_toml
from ranking.formats.trf_read import parse_trf
from ranking.pairing.dutch import (
    Absence,
    Acceleration,
    PairingOptions,
    check_round,
    pair_round,
    pairing_json,
    pairs_text,
)
from ranking.pairing.dutch.colours import allocate, preference
from ranking.pairing.dutch.matching import max_weight_matching
from tests.test_dutch_replay import SET, expected_pairs, truncated


def _event(size: int, rounds: int = 5, **kw) -> Tournament:
    players = tuple(Player(i, f"Player {i}", rating=2500 - i) for i in range(1, size + 1))
    return Tournament("Test Open", players, rounds, records=(("152", "W"),), **kw)


def _round_of(name: str, rnd: int) -> tuple[Tournament, set[tuple[int, int]], list[str]]:
    lines = (SET / f"{name}.trf").read_text().splitlines()
    return parse_trf(truncated(lines, rnd)), expected_pairs(lines, rnd), lines


# -- round 1, byes, absences -----------------------------------------------------------------


def test_round_one_pairs_top_half_against_bottom_half_and_alternates_colours():
    p = pair_round(_event(8))
    assert p.pairs == ((1, 5), (6, 2), (3, 7), (8, 4))
    assert p.bye is None and p.round == 1


def test_odd_field_gives_the_pab_to_the_last_player_in_round_one():
    assert pair_round(_event(7)).bye == 7


def test_requested_byes_absences_and_withdrawals_are_not_paired():
    games = (Game(1, 1, 4, Result.WHITE_WINS), Game(1, 5, 2, Result.DRAW), Game(1, 3, 6, Result.DRAW))
    byes = (Bye(2, 3, ByeKind.HALF), Bye(2, 4, ByeKind.ZERO))
    t = _event(6, games=games, byes=byes, withdrawals=(Withdrawal(5, 1),))
    p = pair_round(t, 2)
    assert {u.player: u.reason for u in p.unpaired} == {3: Absence.HALF_BYE, 4: Absence.ZERO_BYE, 5: Absence.WITHDRAWN}
    assert sorted([x for pair in p.pairs for x in pair] + [p.bye]) == [1, 2, 6]


def test_late_entry_is_paired_from_the_round_it_arrives():
    t = _event(5, byes=(Bye(1, 5, ByeKind.ZERO),))
    r1 = pair_round(t, 1)
    assert 5 not in [x for pair in r1.pairs for x in pair] and r1.bye is None
    games = tuple(Game(1, w, b, Result.WHITE_WINS, n) for n, (w, b) in enumerate(r1.pairs, start=1))
    r2 = pair_round(replace(t, games=games), 2)
    assert 5 in [x for pair in r2.pairs for x in pair] + [r2.bye]


# -- options -----------------------------------------------------------------------------------


def test_forbidden_pairs_from_xxp_260_the_options_and_the_tournament_file():
    base = _event(4)
    assert (1, 3) in pair_round(base).pairs
    for records in ((("XXP", "1 3"),), (("260", "001 005    1    3"),), (("pairing.forbidden", "1 3"),)):
        p = pair_round(replace(base, records=base.records + records))
        assert {1, 3} not in [set(pair) for pair in p.pairs]
    # TRF-2026 260 names the rounds it applies to: from round 2 on, 1 and 3 may meet in round 1
    assert (1, 3) in pair_round(replace(base, records=(*base.records, ("260", "002 005    1    3")))).pairs
    p = pair_round(base, options=PairingOptions(forbidden=frozenset({frozenset((1, 3))})))
    assert {1, 3} not in [set(pair) for pair in p.pairs]


def test_a_forfeit_is_no_meeting_unless_the_xiangqi_option_says_so():
    t = _event(2, rounds=3, games=(Game(1, 1, 2, Result.WHITE_WINS_FORFEIT),))
    assert set(pair_round(t, 2).pairs[0]) == {1, 2}
    with pytest.raises(InputError, match="cannot be paired"):
        pair_round(t, 2, PairingOptions(forfeit_is_meeting=True))
    on = replace(t, records=(*t.records, ("pairing.forfeit_is_meeting", "true")))
    with pytest.raises(InputError, match="cannot be paired"):
        pair_round(on, 2)


def test_initial_colour_from_152_xxc_the_option_and_a_reproducible_lot():
    plain = _event(4)
    assert pair_round(plain).pairs[0] == (1, 3)
    black = replace(plain, records=(("XXC", "black1"),))
    assert pair_round(black).pairs[0] == (3, 1)
    assert pair_round(plain, options=PairingOptions(initial_colour="black")).pairs[0] == (3, 1)
    drawn = replace(plain, records=())
    assert pair_round(drawn) == pair_round(drawn)
    seeds = {pair_round(drawn, options=PairingOptions(lots_seed=str(k))).pairs[0] for k in range(12)}
    assert seeds == {(1, 3), (3, 1)}


@pytest.mark.parametrize("rnd", [1, 2, 3, 4, 5, 6])
def test_baku_acceleration_gives_the_explicit_virtual_points_of_the_reference_file(rnd: int):
    t, expected, _ = _round_of("dev_a64_r9_accel", rnd)
    without = replace(t, records=tuple(r for r in t.records if r[0] != "XXA"))
    p = pair_round(without, rnd, PairingOptions(acceleration=Acceleration.BAKU))
    assert set(p.pairs) | ({(p.bye, 0)} if p.bye else set()) == expected
    as_250 = replace(without, records=(*without.records, ("250", "1.0 1 3 1 32"), ("250", "0.5 4 5 1 32")))
    q = pair_round(as_250, rnd)
    assert (q.pairs, q.bye) == (p.pairs, p.bye)


def test_three_one_zero_scoring_pairs_by_the_points_the_event_awards():
    t, expected, _ = _round_of("dev_n12_r7_p310", 5)
    p = pair_round(t, 5)
    assert set(p.pairs) | ({(p.bye, 0)} if p.bye else set()) == expected


# -- bad input -------------------------------------------------------------------------------


def test_a_round_already_paired_is_refused_in_one_line():
    t = _event(4, games=(Game(1, 1, 3, Result.DRAW), Game(1, 4, 2, Result.DRAW)))
    with pytest.raises(InputError) as error:
        pair_round(t, 1)
    assert "already paired" in str(error.value) and "\n" not in str(error.value)


def test_a_round_beyond_the_events_rounds_is_refused():
    with pytest.raises(InputError, match="rounds 1-5"):
        pair_round(_event(4), 6)


def test_a_round_that_cannot_be_paired_says_who_and_why():
    t = _event(2, rounds=3, games=(Game(1, 1, 2, Result.DRAW),))
    with pytest.raises(InputError) as error:
        pair_round(t, 2)
    text = str(error.value)
    assert text.startswith("round 2 cannot be paired: players 1, 2 cannot be paired") and "\n" not in text


def test_a_second_bye_is_refused_when_nobody_else_can_take_it():
    games = (Game(1, 1, 2, Result.WHITE_WINS_FORFEIT), Game(2, 1, 3, Result.DRAW))
    t = _event(3, rounds=3, games=games, byes=(Bye(1, 3, ByeKind.PAIRING), Bye(2, 2, ByeKind.PAIRING)))
    with pytest.raises(InputError, match="cannot be paired"):
        pair_round(t, 3)


def test_bad_option_values_are_one_line_input_errors():
    t = replace(_event(4), records=(("pairing.acceleration", "fast"),))
    with pytest.raises(InputError, match="expected baku or none"):
        pair_round(t)
    with pytest.raises(InputError, match="initial colour"):
        pair_round(_event(4), options=PairingOptions(initial_colour="green"))


# -- the checker -----------------------------------------------------------------------------


def test_the_checker_accepts_the_round_bbppairings_made():
    lines = (SET / "dev_n21_r7_forfeits.trf").read_text().splitlines()
    whole = parse_trf("\n".join(lines) + "\n")
    check = check_round(whole, 5)
    assert check.same and not check.violations


def test_the_checker_reports_swapped_colours_and_a_rematch_pair_by_pair():
    t = _event(4, games=(Game(1, 1, 3, Result.DRAW), Game(1, 4, 2, Result.DRAW)))
    check = check_round(t, 1, [(3, 1), (4, 2)])
    assert [d.dutch for d in check.differences] == [(1, 3)]
    assert "white to 1" in check.differences[0].text and not check.violations
    t2 = replace(t, games=(*t.games, Game(2, 1, 2, Result.DRAW), Game(2, 3, 4, Result.DRAW)))
    check = check_round(t2, 2, [(1, 3), (2, 4)])
    assert {v.rule for v in check.violations} == {"C1"}
    assert not check.same
    assert all("\n" not in d.text for d in check.differences)


def test_the_checker_reports_a_player_left_out_and_a_second_bye():
    t = _event(3, games=(Game(1, 1, 2, Result.WHITE_WINS),), byes=(Bye(1, 3, ByeKind.PAIRING),))
    check = check_round(t, 2, [(1, 2)], bye=3)
    rules = {v.rule for v in check.violations}
    assert "C1" in rules and "C2" in rules


# -- formats and helpers -----------------------------------------------------------------------


def test_pairs_text_is_the_javafo_list_and_json_names_the_players():
    p = pair_round(_event(5))
    assert pairs_text(p) == "3\n1 3\n4 2\n5 0\n"
    data = pairing_json(p, _event(5))
    assert data["boards"][0] == {"board": 1, "white": 1, "white_name": "Player 1", "black": 3, "black_name": "Player 3"}
    assert data["bye"] == 5 and data["round"] == 1 and data["not_paired"] == []


def test_a_tournament_file_names_the_pairing_options():
    text = """
[tournament]
name = "Club Swiss"
system = "swiss"
rounds = 5
records = [["152", "B"], ["pairing.forbidden", "1 3"]]

[[players]]
id = 1
name = "A"
[[players]]
id = 2
name = "B"
[[players]]
id = 3
name = "C"
[[players]]
id = 4
name = "D"
"""
    p = pair_round(parse_tournament_toml(text))
    assert p.pairs == ((4, 1), (2, 3))


def test_colour_allocation_follows_article_5():
    assert preference(()).strength == 0
    assert allocate(("W", "B"), ("B", "W"), 1, "B") == "W"  # 5.2.1 both granted
    assert allocate(("W", "W"), ("W", "B"), 2, "W") == "B"  # 5.2.2 the absolute one
    assert allocate(("B", "W"), ("W", "B", "W"), 1, "W") == "W"  # 5.2.2 strong beats mild
    assert allocate(("B", "W", "B", "W"), ("W", "B", "B", "W"), 1, "W") == "B"  # 5.2.3 the latest difference
    assert allocate((), (), 1, "B") == "B" and allocate((), (), 2, "B") == "W"  # 5.2.5


def test_the_matcher_finds_the_heaviest_matching_with_wide_weights():
    big = 1 << 300
    assert max_weight_matching(4, [(0, 1, big), (1, 2, big + 1), (2, 3, big)]) == [1, 0, 3, 2]
    assert max_weight_matching(3, [(0, 1, 5), (1, 2, 6), (0, 2, 7)]) == [2, -1, 0]
