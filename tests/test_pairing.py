"""Pairings (``ranking.pairing.pairings``): Berger tables, round-robin schedules, imported Swiss rounds,
board order.

Fixtures: ``tests/data/berger/berger-NN.txt`` are the tables of FIDE C.05 Annex 1 as published
(one round a line, ``white-black`` per board); ``tests/data/validation/pairings`` are older
bbpPairings outputs (pre-2026 rules, one a Burstein event: its README), used as rounds to import.
"""

from __future__ import annotations

import doctest
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from build import make

import ranking.pairing.pairings
from ranking.errors import InputError
from ranking.event.model import Bye, ByeKind, Game, Player, Result, System, Tournament, Withdrawal
from ranking.formats.trf_read import parse_trf
from ranking.pairing.pairings import (
    berger_table,
    next_round_pairing,
    order_boards,
    pairings_from_trf,
    round_robin_schedule,
)

DATA = Path(__file__).parent / "data"
BERGER = DATA / "berger"
PAIRINGS = DATA / "validation" / "pairings"
#: bbpPairings files used here: plain, pairing-allocated byes, forfeits, forfeited pairs meeting
#: again (players 5 and 12, rounds 4 and 8), a zero-point bye entered before its round.
PAIRING_FILES = ["bbp_10p5r_s42", "bbp_11p5r_s42", "bbp_20p7r_s42", "bbp_40p9r_s42", "bbp_dutch_C5"]


def published(size: int) -> list[list[tuple[int, int]]]:
    text = (BERGER / f"berger-{size:02d}.txt").read_text(encoding="utf-8")
    return [
        [(int(white), int(black)) for white, black in re.findall(r"(\d+)-(\d+)", line)]
        for line in text.splitlines()
        if line.strip()
    ]


def colours(schedule: list[list[tuple[int, int | None]]], player: int) -> str:
    """The player's colours round by round: W, B, or - for the bye."""
    out = []
    for rnd in schedule:
        for white, black in rnd:
            if white == player:
                out.append("-" if black is None else "W")
            elif black == player:
                out.append("B")
    return "".join(out)


# ---------------------------------------------------------------------------------------
# Berger tables (FIDE C.05 Annex 1)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(4, 17, 2))
def test_berger_table_is_the_published_table(size: int) -> None:
    table = published(size)
    assert len(table) == size - 1
    assert all(len(rnd) == size // 2 for rnd in table)
    assert berger_table(size) == table


@pytest.mark.parametrize("size", range(3, 16, 2))
def test_odd_field_uses_the_next_table_and_its_highest_number_is_the_bye(size: int) -> None:
    table = published(size + 1)
    assert berger_table(size) == table
    schedule = round_robin_schedule(list(range(1, size + 1)))
    assert len(schedule) == size
    for rnd, expected in zip(schedule, table, strict=True):
        games = [(w, b) for w, b in expected if size + 1 not in (w, b)]
        (bye_holder,) = [w if b == size + 1 else b for w, b in expected if size + 1 in (w, b)]
        assert rnd == [*games, (bye_holder, None)]  # games in board order, then the bye


def test_the_constructions_of_the_brief_and_two_players() -> None:
    assert berger_table(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert berger_table(2) == [[(1, 2)]]
    assert round_robin_schedule([5, 9]) == [[(5, 9)]]
    assert round_robin_schedule([5, 9], double=True) == [[(5, 9)], [(9, 5)]]
    assert round_robin_schedule([5, 9, 7]) == [[(9, 7), (5, None)], [(5, 9), (7, None)], [(7, 5), (9, None)]]


@pytest.mark.parametrize("bad", [0, 1, -4, True, 4.0, "6"])
def test_berger_table_rejects_a_field_that_is_not_two_or_more(bad: object) -> None:
    with pytest.raises(InputError):
        berger_table(bad)  # type: ignore[arg-type]


def test_schedule_rejects_a_player_twice_and_too_few_players() -> None:
    with pytest.raises(InputError, match="player 4 appears twice"):
        round_robin_schedule([4, 5, 4])
    with pytest.raises(InputError):
        round_robin_schedule([4])


def test_schedule_uses_the_given_order_as_pairing_numbers() -> None:
    ids = [30, 10, 40, 20, 50, 60]  # pairing numbers 1..6
    number = {pid: k for k, pid in enumerate(ids, start=1)}
    schedule = round_robin_schedule(ids)
    assert [[(number[w], number[b]) for w, b in rnd] for rnd in schedule] == published(6)


@pytest.mark.parametrize("size", range(2, 21))
def test_single_round_robin_every_pair_once_everyone_every_round(size: int) -> None:
    ids = list(range(1, size + 1))
    schedule = round_robin_schedule(ids)
    assert len(schedule) == size - 1 + size % 2
    met = Counter(frozenset((w, b)) for rnd in schedule for w, b in rnd if b is not None)
    assert set(met) == {frozenset((a, b)) for a in ids for b in ids if a < b}
    assert set(met.values()) == {1}
    for rnd in schedule:
        seated = [p for w, b in rnd for p in (w, b) if p is not None]
        assert sorted(seated) == ids  # each player once: a game or the bye
        assert sum(b is None for _, b in rnd) == size % 2


@pytest.mark.parametrize("size", range(2, 21))
def test_single_round_robin_colour_balance(size: int) -> None:
    schedule = round_robin_schedule(list(range(1, size + 1)))
    for player in range(1, size + 1):
        sequence = colours(schedule, player)
        difference = sequence.count("W") - sequence.count("B")
        assert abs(difference) <= (1 if size % 2 == 0 else 0), (player, sequence)


@pytest.mark.parametrize("size", range(2, 17))
def test_double_round_robin_meets_twice_with_colours_reversed(size: int) -> None:
    ids = list(range(1, size + 1))
    schedule = round_robin_schedule(ids, double=True)
    single = round_robin_schedule(ids)
    assert len(schedule) == 2 * len(single)
    ordered = Counter((w, b) for rnd in schedule for w, b in rnd if b is not None)
    assert set(ordered.values()) == {1}
    assert all((b, w) in ordered for w, b in ordered)
    # C.05 Annex 1: the last two rounds of the first cycle are played in reverse order ...
    cycle = len(single)
    expected_first = single[:-2] + single[-2:][::-1] if cycle >= 2 else single
    assert schedule[:cycle] == expected_first
    # ... and the second cycle is the table in its own order with the colours reversed.
    assert schedule[cycle:] == [[(b, w) if b is not None else (w, b) for w, b in rnd] for rnd in single]


@pytest.mark.parametrize("size", range(3, 17))
def test_double_round_robin_never_gives_three_same_colours_in_a_row(size: int) -> None:
    schedule = round_robin_schedule(list(range(1, size + 1)), double=True)
    for player in range(1, size + 1):
        played = colours(schedule, player).replace("-", "")
        assert "WWW" not in played and "BBB" not in played, (player, played)
    # Without the swap the published table does give three in a row (which is why it exists).
    if size % 2 == 0:
        single = round_robin_schedule(list(range(1, size + 1)))
        plain = single + [[(b, w) for w, b in rnd] for rnd in single]  # type: ignore[misc]
        assert any("WWW" in colours(plain, p) or "BBB" in colours(plain, p) for p in range(1, size + 1))


# ---------------------------------------------------------------------------------------
# next_round_pairing
# ---------------------------------------------------------------------------------------


def round_robin(players: list[int], played: int, *, double: bool = False, rounds: int = 0) -> Tournament:
    """A round robin of ``players`` whose first ``played`` rounds are played (white wins)."""
    schedule = round_robin_schedule(players, double=double)
    games = tuple(
        Game(r, w, b, Result.WHITE_WINS, board)
        for r, rnd in enumerate(schedule[:played], start=1)
        for board, (w, b) in enumerate(((w, b) for w, b in rnd if b is not None), start=1)
    )
    byes = tuple(
        Bye(r, w, ByeKind.ZERO) for r, rnd in enumerate(schedule[:played], start=1) for w, b in rnd if b is None
    )
    system = System.DOUBLE_ROUND_ROBIN if double else System.ROUND_ROBIN
    people = tuple(Player(pid, f"Player {pid}") for pid in players)
    return Tournament("RR", people, rounds or len(schedule), games, byes, system=system)


def test_next_round_of_a_partly_played_round_robin() -> None:
    ids = [101, 102, 103, 104, 105, 106]  # starting numbers: pairing numbers 1..6
    t = round_robin(ids, played=2)
    games, byes = next_round_pairing(t)
    # Round 3 of the 6-player table: 2-6 3-1 4-5.
    assert games == [Game(3, 102, 106, None, 1), Game(3, 103, 101, None, 2), Game(3, 104, 105, None, 3)]
    assert byes == []


def test_next_round_uses_starting_number_order_whatever_the_player_order() -> None:
    t = round_robin([1, 2, 3, 4], played=0)
    shuffled = replace(t, players=tuple(reversed(t.players)))
    games, _ = next_round_pairing(shuffled)
    assert [(g.white, g.black) for g in games] == [(1, 4), (2, 3)]


def test_next_round_of_an_odd_round_robin_gives_a_zero_point_bye() -> None:
    t = round_robin([1, 2, 3, 4, 5], played=3)
    games, byes = next_round_pairing(t)
    # Round 4 of the 6-player table: 6-5 1-4 2-3, so player 5 sits out.
    assert [(g.board, g.white, g.black, g.result) for g in games] == [(1, 1, 4, None), (2, 2, 3, None)]
    assert byes == [Bye(4, 5, ByeKind.ZERO)]
    # A bye already recorded for that player and round is the one they sit the round out with.
    entered = replace(t, byes=(*t.byes, Bye(4, 5, ByeKind.HALF)))
    assert next_round_pairing(entered) == (games, [Bye(4, 5, ByeKind.HALF)])


def test_next_round_of_a_double_round_robin() -> None:
    t = round_robin([1, 2, 3, 4], played=3, double=True)
    games, byes = next_round_pairing(t)
    assert [(g.white, g.black) for g in games] == [(4, 1), (3, 2)]  # round 1 reversed
    assert byes == []
    # The first cycle ends with table rounds 3 then 2.
    first_cycle = [(g.round, g.white, g.black) for g in t.games]
    assert first_cycle == [(1, 1, 4), (1, 2, 3), (2, 2, 4), (2, 3, 1), (3, 4, 3), (3, 1, 2)]


def test_next_round_is_the_clocks_and_a_round_left_out_is_paired_by_its_number() -> None:
    t = round_robin([1, 2, 3, 4], played=3)
    gap = replace(t, games=tuple(g for g in t.games if g.round != 2))
    with pytest.raises(InputError, match=r"every round .*\(3 rounds\)"):  # the clock's next round: 4
        next_round_pairing(gap)
    games, _ = next_round_pairing(gap, 2)
    assert {g.round for g in games} == {2}
    assert [(g.white, g.black) for g in games] == [(4, 3), (1, 2)]
    with pytest.raises(InputError, match="round 3 of the round robin is already paired"):
        next_round_pairing(gap, 3)
    with pytest.raises(InputError, match="round 4: the round robin has rounds 1-3"):
        next_round_pairing(gap, 4)


def test_next_round_pairing_errors() -> None:
    with pytest.raises(InputError, match="Swiss"):
        next_round_pairing(make(["1-2 1-0; 3-4 0-1"]))
    with pytest.raises(InputError, match="every round"):
        next_round_pairing(round_robin([1, 2, 3, 4], played=3))
    with pytest.raises(InputError, match=r"every round .*\(2 rounds\)"):
        next_round_pairing(round_robin([1, 2, 3, 4], played=2, rounds=2))
    with pytest.raises(InputError, match="every round"):
        next_round_pairing(round_robin([1, 2, 3, 4], played=6, double=True))
    t = round_robin([1, 2, 3, 4], played=1)
    other = replace(t, games=(Game(1, 1, 2, Result.DRAW, 1), Game(1, 3, 4, Result.DRAW, 2)))
    with pytest.raises(InputError, match="not in the Berger table"):
        next_round_pairing(other)
    beyond = replace(t, games=(*t.games, Game(7, 1, 4, None, 1)), rounds=9)
    with pytest.raises(InputError, match="round 7: a round robin of 4 players has 3 rounds"):
        next_round_pairing(beyond)


def test_next_round_pairing_accepts_reversed_colours_in_a_recorded_game() -> None:
    t = round_robin([1, 2, 3, 4], played=1)
    swapped = replace(t, games=(Game(1, 4, 1, Result.DRAW, 1), *t.games[1:]))
    games, _ = next_round_pairing(swapped)
    assert {g.round for g in games} == {2}


def test_a_swiss_whose_rounds_are_not_known_takes_a_pairs_list_round_after_round() -> None:
    from ranking.pairing.pairings import pairings_from_list

    swiss = Tournament("Club", tuple(Player(pid, f"Player {pid}") for pid in range(1, 5)), 0)
    games, byes = pairings_from_list(swiss, "2\n1 4\n2 3\n", 1)
    assert [(g.white, g.black) for g in games] == [(1, 4), (2, 3)] and byes == []
    played = replace(swiss, games=tuple(replace(g, result=Result.DRAW) for g in games))
    with pytest.raises(InputError, match="round 1 is paired already"):
        pairings_from_list(played, "2\n4 1\n3 2\n", 1)
    assert len(pairings_from_list(played, "2\n4 2\n3 1\n", 2)[0]) == 2


# ---------------------------------------------------------------------------------------
# pairings_from_trf
# ---------------------------------------------------------------------------------------


def before(t: Tournament, rnd: int) -> Tournament:
    """The tournament as it stood when round ``rnd`` was paired."""
    return replace(
        t,
        games=tuple(g for g in t.games if g.round < rnd),
        byes=tuple(b for b in t.byes if b.round < rnd),
    )


def blank_round(text: str, rnd: int) -> str:
    """The file as the pairing program writes it: round ``rnd``'s game results blank."""
    at = 91 + 10 * (rnd - 1)  # 0-based start of the round's block
    out = []
    for line in text.splitlines():
        if line.startswith("001 ") and len(line) > at + 7 and line[at : at + 4].strip("0 "):
            line = line[: at + 7] + " " + line[at + 8 :]
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", PAIRING_FILES)
def test_every_round_of_a_bbp_file_imports_as_the_engine_paired_it(name: str) -> None:
    text = (PAIRINGS / f"{name}.trf").read_text(encoding="utf-8")
    full = parse_trf(text, name)
    for rnd in range(1, full.rounds + 1):
        state = before(full, rnd)
        games, byes = pairings_from_trf(state, text, rnd, source=name)
        assert games == [g for g in full.games if g.round == rnd]
        assert byes == [b for b in full.byes if b.round == rnd]


@pytest.mark.parametrize("name", ["bbp_11p5r_s42", "bbp_20p7r_s42"])
def test_a_new_round_has_no_results(name: str) -> None:
    text = (PAIRINGS / f"{name}.trf").read_text(encoding="utf-8")
    full = parse_trf(text, name)
    last = full.rounds
    games, byes = pairings_from_trf(before(full, last), blank_round(text, last), last, source=name)
    expected = [g for g in full.games if g.round == last]
    assert [(g.white, g.black, g.board) for g in games] == [(g.white, g.black, g.board) for g in expected]
    assert all(g.result is None for g in games)
    assert byes == [b for b in full.byes if b.round == last]  # "0000 - U" stays a pairing-allocated bye
    if name == "bbp_11p5r_s42":
        assert byes == [Bye(5, 6, ByeKind.PAIRING)]


def test_a_bye_entered_ahead_is_kept_and_not_returned_twice() -> None:
    name = "bbp_dutch_C5"  # player 4 asked for a zero-point bye in round 3; round 3 is not paired yet
    text = (PAIRINGS / f"{name}.trf").read_text(encoding="utf-8")
    full = parse_trf(text, name)
    assert pairings_from_trf(before(full, 3), text, 3) == ([], [Bye(3, 4, ByeKind.ZERO)])
    entered = replace(before(full, 3), byes=(*before(full, 3).byes, Bye(3, 4, ByeKind.ZERO)))
    assert pairings_from_trf(entered, text, 3) == ([], [])
    half = replace(before(full, 3), byes=(*before(full, 3).byes, Bye(3, 4, ByeKind.HALF)))
    with pytest.raises(InputError, match="player 4 has bye Z in the file, but the tournament records bye H"):
        pairings_from_trf(half, text, 3)


@pytest.fixture
def ten() -> tuple[str, Tournament]:
    text = (PAIRINGS / "bbp_10p5r_s42.trf").read_text(encoding="utf-8")
    return blank_round(text, 5), before(parse_trf(text), 5)


def test_unknown_player_names_the_line(ten: tuple[str, Tournament]) -> None:
    text, state = ten
    fewer = replace(state, players=state.players[:-1])  # the tournament has no player 10
    with pytest.raises(InputError) as error:
        pairings_from_trf(fewer, text, 5, source="r5.trf")
    assert str(error.value).startswith("r5.trf:11: player 10 (Test0010 Player0010) is not in the tournament")


def test_a_different_name_for_a_start_number_is_rejected(ten: tuple[str, Tournament]) -> None:
    text, state = ten
    renamed = replace(state, players=(replace(state.players[0], name="Carlsen, Magnus"), *state.players[1:]))
    with pytest.raises(InputError, match=r"r5.trf:2: player 1 is 'Test0001 Player0001' in the file but 'Carlsen"):
        pairings_from_trf(renamed, text, 5, source="r5.trf")
    # Case and blanks do not matter; a missing name is not checked.
    shouted = replace(state, players=(replace(state.players[0], name="TEST0001   player0001"), *state.players[1:]))
    assert pairings_from_trf(shouted, text, 5)[0]
    nameless = replace(state, players=(replace(state.players[0], name=""), *state.players[1:]))
    assert pairings_from_trf(nameless, text, 5)[0]


def test_a_player_of_the_tournament_missing_from_the_file(ten: tuple[str, Tournament]) -> None:
    text, state = ten
    more = replace(state, players=(*state.players, Player(11, "Late, Entry")))
    with pytest.raises(InputError, match=r"no line for player\(s\) 11 \(Late, Entry\)"):
        pairings_from_trf(more, text, 5)


def test_wrong_rounds(ten: tuple[str, Tournament]) -> None:
    text, state = ten
    with pytest.raises(InputError, match="round 6: the tournament has 5 rounds"):
        pairings_from_trf(state, text, 6)
    longer = replace(before(state, 5), rounds=7)
    with pytest.raises(InputError, match="round 6: round 5 is not paired yet"):
        pairings_from_trf(longer, text, 6)
    with pytest.raises(InputError, match="expected a round number"):
        pairings_from_trf(state, text, 0)
    # Round 6 exists in the tournament, but the file pairs nobody in it.
    full = parse_trf(text)
    six = replace(full, rounds=6)
    with pytest.raises(InputError, match=r"the file pairs nobody in round 6 \(its last paired round is 5\)"):
        pairings_from_trf(six, text, 6, source="r5.trf")


def test_a_round_already_paired(ten: tuple[str, Tournament]) -> None:
    text, _ = ten
    full = parse_trf(text)
    with pytest.raises(InputError, match="round 5: round 5 is already paired"):
        pairings_from_trf(full, text, 5)
    with pytest.raises(InputError, match="round 4: round 4 is already paired"):
        pairings_from_trf(before(full, 5), text, 4)
    with pytest.raises(InputError, match="round 3: round 4 is already paired"):
        pairings_from_trf(replace(full, games=tuple(g for g in full.games if g.round != 3)), text, 3)


def test_a_file_paired_from_other_results(ten: tuple[str, Tournament]) -> None:
    text, state = ten
    # In the tournament, round 1 went 1-2 and 6-7 instead of 1-6 and 2-7 (the file's).
    games = [g for g in state.games if not (g.round == 1 and {g.white, g.black} & {1, 2, 6, 7})]
    games += [Game(1, 1, 2, Result.DRAW, 9), Game(1, 6, 7, Result.DRAW, 10)]
    with pytest.raises(InputError, match=r"^r5\.trf:2: round 1: player 1 met 6 in the file but 2 in the tournament"):
        pairings_from_trf(replace(state, games=tuple(games)), text, 5, source="r5.trf")


def test_a_withdrawn_player_or_a_recorded_bye_must_not_be_paired(ten: tuple[str, Tournament]) -> None:
    text, state = ten
    gone = replace(state, withdrawals=(Withdrawal(3, 4),))
    with pytest.raises(InputError, match=r"r5.trf:4: round 5: player 3 is paired, but withdrew after round 4"):
        pairings_from_trf(gone, text, 5, source="r5.trf")
    resting = replace(state, byes=(Bye(5, 3, ByeKind.HALF),))
    with pytest.raises(InputError, match=r"player 3 is paired, but the tournament records a half bye \(H\)"):
        pairings_from_trf(resting, text, 5)


def test_a_malformed_file_names_the_source_and_line(ten: tuple[str, Tournament]) -> None:
    text, state = ten
    broken = text.replace("001    3 ", "001    X ", 1)
    with pytest.raises(InputError, match=r"^r5.trf:4: expected a start number"):
        pairings_from_trf(state, broken, 5, source="r5.trf")


def test_pairings_from_trf_returns_games_in_file_board_order_with_results_kept() -> None:
    text = (PAIRINGS / "bbp_10p5r_s42.trf").read_text(encoding="utf-8")
    full = parse_trf(text)
    games, byes = pairings_from_trf(before(full, 1), text, 1)
    assert [(g.board, g.white, g.black, g.result) for g in games] == [
        (1, 6, 1, Result.DRAW),
        (2, 2, 7, Result.WHITE_WINS),
        (3, 8, 3, Result.DRAW),
        (4, 4, 9, Result.WHITE_WINS),
        (5, 10, 5, Result.BLACK_WINS),
    ]
    assert byes == []


# ---------------------------------------------------------------------------------------
# order_boards
# ---------------------------------------------------------------------------------------


def test_order_boards_by_higher_score_then_sum_then_best_rank() -> None:
    games = [
        Game(4, 7, 8, None, 1),  # 1.5 + 1.5: higher score 1.5, sum 3.0
        Game(4, 3, 9, None, 2),  # 2.5 + 1.0: higher score 2.5
        Game(4, 5, 1, None, 3),  # 2.0 + 2.5: higher score 2.5, larger sum
        Game(4, 2, 6, None, 4),  # 2.0 + 1.0: higher score 2.0, sum 3.0
        Game(4, 4, 10, None, 5),  # 2.0 + 1.0: same as 2-6, but its higher player ranks better
    ]
    scores = {1: 2.5, 2: 2.0, 3: 2.5, 4: 2.0, 5: 2.0, 6: 1.0, 7: 1.5, 8: 1.5, 9: 1.0, 10: 1.0}
    ranks = {1: 1, 3: 2, 4: 3, 2: 4, 5: 5, 7: 6, 8: 7, 6: 8, 9: 9, 10: 10}
    ordered = order_boards(games, scores, ranks)
    assert [(g.board, g.white, g.black) for g in ordered] == [(1, 5, 1), (2, 3, 9), (3, 4, 10), (4, 2, 6), (5, 7, 8)]
    assert [replace(g, board=0) for g in ordered] == [
        replace(g, board=0) for g in (games[2], games[1], games[4], games[3], games[0])
    ]


def test_order_boards_errors() -> None:
    games = [Game(2, 1, 2, None), Game(2, 3, 4, None)]
    with pytest.raises(InputError, match="no score for player 4"):
        order_boards(games, {1: 1, 2: 1, 3: 0}, {1: 1, 2: 2, 3: 3, 4: 4})
    with pytest.raises(InputError, match="no rank for player 3"):
        order_boards(games, {1: 1, 2: 1, 3: 0, 4: 0}, {1: 1, 2: 2, 4: 4})
    with pytest.raises(InputError, match="one round at a time"):
        order_boards([*games, Game(3, 1, 3, None)], {1: 1, 2: 1, 3: 0, 4: 0}, {1: 1, 2: 2, 3: 3, 4: 4})
    assert order_boards([], {}, {}) == []


def test_docstring_examples() -> None:
    failures, tried = doctest.testmod(ranking.pairing.pairings)
    assert tried > 0 and failures == 0
