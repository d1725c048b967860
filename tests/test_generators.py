"""The benchmark generators and the hypothesis strategies make valid tournaments."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import pairwise

import pytest
from build import BYE_POINTS, CHESS_POINTS
from generators import berger_round, generate_round_robin, generate_swiss, main, summary
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from strategies import id_mappings, renumbered, scoring_systems, tournaments

from ranking.event.model import ByeKind, Result, System, Tournament
from ranking.scoring.rules import SCORING_SYSTEMS


def check_invariants(t: Tournament) -> None:
    """Assert what every tournament, generated or read, must satisfy."""
    ids = [p.id for p in t.players]
    assert len(ids) == len(set(ids)), "duplicate player ids"
    assert all(isinstance(pid, int) and pid > 0 for pid in ids), "player ids must be positive ints"
    known = set(ids)
    assert t.rounds >= 1

    seen: dict[int, Counter[int]] = defaultdict(Counter)
    playing: dict[int, set[int]] = defaultdict(set)
    boards: dict[int, list[int]] = defaultdict(list)
    meetings: Counter[frozenset[int]] = Counter()
    for g in t.games:
        assert 1 <= g.round <= t.rounds, g
        assert g.white in known and g.black in known, g
        assert g.white != g.black, g
        assert g.fouls_white >= 0 and g.fouls_black >= 0, g
        seen[g.round].update((g.white, g.black))
        playing[g.round].update((g.white, g.black))
        boards[g.round].append(g.board)
        meetings[frozenset((g.white, g.black))] += 1
    for b in t.byes:
        assert 1 <= b.round <= t.rounds, b
        assert b.player in known, b
        assert b.player not in playing[b.round], f"bye for a player who plays: {b}"
        seen[b.round][b.player] += 1
    for rnd, counts in seen.items():
        twice = [pid for pid, n in counts.items() if n > 1]
        assert not twice, f"round {rnd}: players {twice} appear more than once"
    for rnd, numbers in boards.items():
        assert sorted(numbers) == list(range(1, len(numbers) + 1)), f"round {rnd}: boards {sorted(numbers)}"

    most = 2 if t.system is System.DOUBLE_ROUND_ROBIN else 1
    repeated = {tuple(sorted(pair)): n for pair, n in meetings.items() if n > most}
    assert not repeated, f"pairs meeting too often: {repeated}"

    withdrawn = Counter(w.player for w in t.withdrawals)
    assert all(n == 1 for n in withdrawn.values()), "a player withdraws twice"
    for w in t.withdrawals:
        assert w.player in known, w
        assert 0 <= w.after_round < t.rounds, w
        later_games = [g for g in t.games if g.round > w.after_round and w.player in (g.white, g.black)]
        assert not later_games, f"{w}: paired after withdrawing: {later_games}"
        later_byes = [b for b in t.byes if b.round > w.after_round and b.player == w.player]
        assert all(b.kind is ByeKind.ZERO for b in later_byes), f"{w}: {later_byes}"

    unfinished_rounds = {g.round for g in t.games if g.result is None}
    if unfinished_rounds:
        last = max(g.round for g in t.games)
        assert unfinished_rounds == {last}, f"unfinished games outside the last round: {unfinished_rounds}"


def _score_before(t: Tournament) -> dict[int, dict[int, float]]:
    """Chess score of every player before each round (round -> player -> points)."""
    per_round: dict[int, Counter[int]] = defaultdict(Counter)
    for g in t.games:
        points_white, points_black = CHESS_POINTS[g.result]
        per_round[g.round][g.white] += points_white
        per_round[g.round][g.black] += points_black
    for b in t.byes:
        per_round[b.round][b.player] += BYE_POINTS[b.kind]
    running: Counter[int] = Counter()
    before = {}
    for rnd in range(1, t.rounds + 1):
        before[rnd] = {p.id: running[p.id] for p in t.players}
        running.update(per_round[rnd])
    return before


def _colour_sequences(t: Tournament) -> dict[int, list[str]]:
    sequences: dict[int, list[str]] = defaultdict(list)
    for g in sorted(t.games, key=lambda g: g.round):
        if g.result is not None and not g.result.is_forfeit:
            sequences[g.white].append("W")
            sequences[g.black].append("B")
    return sequences


@pytest.fixture(scope="module")
def open_1000() -> Tournament:
    return generate_swiss(1000, 11)


@pytest.mark.parametrize(
    ("players", "rounds"), [(2, 1), (3, 2), (4, 3), (7, 6), (10, 9), (11, 10), (51, 9), (400, 13)]
)
def test_swiss_is_valid(players: int, rounds: int) -> None:
    t = generate_swiss(players, rounds, seed=players)
    check_invariants(t)
    assert t.rounds == rounds and len(t.players) == players
    assert [p.id for p in t.players] == list(range(1, players + 1))


def test_open_is_valid(open_1000: Tournament) -> None:
    check_invariants(open_1000)


def test_swiss_is_deterministic() -> None:
    assert generate_swiss(300, 9, seed=7) == generate_swiss(300, 9, seed=7)
    assert generate_swiss(300, 9, seed=7) != generate_swiss(300, 9, seed=8)


def test_round_robin_is_deterministic() -> None:
    assert generate_round_robin(10, seed=3) == generate_round_robin(10, seed=3)
    assert generate_round_robin(10, seed=3) != generate_round_robin(10, seed=4)


def test_open_has_the_requested_proportions(open_1000: Tournament) -> None:
    t = open_1000
    player_rounds = len(t.players) * t.rounds
    kinds = Counter(b.kind for b in t.byes)
    single = sum(1 for g in t.games if g.result in (Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT))
    double = sum(1 for g in t.games if g.result is Result.DOUBLE_FORFEIT)
    draws = sum(1 for g in t.games if g.result is Result.DRAW)
    assert 0.005 <= kinds[ByeKind.HALF] / player_rounds <= 0.016
    assert 0.002 <= single / len(t.games) <= 0.01
    assert 1 <= double <= 0.003 * len(t.games)
    assert 0.15 <= draws / len(t.games) <= 0.4
    assert 0.01 <= len(t.withdrawals) / len(t.players) <= 0.035
    assert 1 <= sum(1 for p in t.players if p.rating == 0) <= 0.06 * len(t.players)
    assert all(p.rating == 0 or 1000 <= p.rating <= 2800 for p in t.players)
    assert kinds[ByeKind.FULL] == 0
    assert len(t.games) >= 0.95 * player_rounds / 2


def test_open_withdrawals_have_zero_byes_for_every_later_round(open_1000: Tournament) -> None:
    zero = {(b.round, b.player) for b in open_1000.byes if b.kind is ByeKind.ZERO}
    for w in open_1000.withdrawals:
        assert 1 <= w.after_round < open_1000.rounds
        assert all((rnd, w.player) in zero for rnd in range(w.after_round + 1, open_1000.rounds + 1))
    withdrawn = {w.player for w in open_1000.withdrawals}
    assert all(player in withdrawn for _, player in zero), "zero-point byes only after withdrawing"


def test_open_pairing_bye_goes_to_the_lowest_ranked_without_one(open_1000: Tournament) -> None:
    t = open_1000
    before = _score_before(t)
    rating = {p.id: p.rating for p in t.players}
    pab_round: dict[int, int] = {}
    for rnd in range(1, t.rounds + 1):
        paired = {pid for g in t.games if g.round == rnd for pid in (g.white, g.black)}
        byes = [b.player for b in t.byes if b.round == rnd and b.kind is ByeKind.PAIRING]
        assert len(byes) <= 1
        everyone = paired | {b.player for b in t.byes if b.round == rnd}
        assert len(everyone) == len(t.players), f"round {rnd}: players left out"
        if not byes:
            continue
        receiver = byes[0]
        assert receiver not in pab_round, "two pairing-allocated byes"
        pab_round[receiver] = rnd

        def rank(pid: int, rnd: int = rnd) -> tuple[float, int, int]:
            return (-before[rnd][pid], -rating[pid], pid)

        below = [pid for pid in paired if rank(pid) > rank(receiver)]
        assert all(pid in pab_round for pid in below), f"round {rnd}: {receiver} is not the lowest"


def test_open_pairs_within_score_groups(open_1000: Tournament) -> None:
    t = open_1000
    before = _score_before(t)
    for rnd in range(2, t.rounds + 1):
        games = [g for g in t.games if g.round == rnd]
        equal = sum(1 for g in games if before[rnd][g.white] == before[rnd][g.black])
        assert equal >= 0.7 * len(games), f"round {rnd}: {equal}/{len(games)} within a score group"
        close = sum(1 for g in games if abs(before[rnd][g.white] - before[rnd][g.black]) <= 1)
        assert close >= 0.98 * len(games)
        # boards go down the score groups
        tops = [max(before[rnd][g.white], before[rnd][g.black]) for g in sorted(games, key=lambda g: g.board)]
        assert tops[0] == max(tops) and tops[-1] <= tops[len(tops) // 2]


def test_open_colours_alternate(open_1000: Tournament) -> None:
    sequences = _colour_sequences(open_1000)
    unbalanced = [pid for pid, seq in sequences.items() if abs(seq.count("W") - seq.count("B")) > 2]
    three = [pid for pid, seq in sequences.items() if "WWW" in "".join(seq) or "BBB" in "".join(seq)]
    alternating = sum(1 for seq in sequences.values() for a, b in pairwise(seq) if a != b) / sum(
        len(seq) - 1 for seq in sequences.values()
    )
    assert len(unbalanced) <= 0.01 * len(sequences)
    assert len(three) <= 0.01 * len(sequences)
    assert alternating >= 0.85


@pytest.mark.parametrize(("players", "rounds"), [(12, 9), (16, 9), (30, 15)])
def test_long_small_swisses_pair_everyone(players: int, rounds: int) -> None:
    for seed in range(20):
        t = generate_swiss(players, rounds, seed=seed)
        check_invariants(t)
        zero = [b for b in t.byes if b.kind is ByeKind.ZERO]
        withdrawn = {w.player for w in t.withdrawals}
        assert all(b.player in withdrawn for b in zero), "unpairable players left out"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 9, 10, 16])
def test_round_robin_is_complete(players: int) -> None:
    t = generate_round_robin(players, seed=players)
    check_invariants(t)
    assert t.system is System.ROUND_ROBIN
    assert t.rounds == players - 1 + players % 2
    pairs = Counter(frozenset((g.white, g.black)) for g in t.games)
    assert len(pairs) == players * (players - 1) // 2 and set(pairs.values()) == {1}
    byes = Counter(b.player for b in t.byes)
    if players % 2:
        assert all(b.kind is ByeKind.PAIRING for b in t.byes)
        assert sorted(byes) == [p.id for p in t.players] and set(byes.values()) == {1}
    else:
        assert not byes
    for seq in _colour_sequences(t).values():
        assert abs(seq.count("W") - seq.count("B")) <= 1 + players % 2


def test_berger_round_matches_the_fide_tables() -> None:
    assert [berger_round(4, r) for r in (1, 2, 3)] == [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
    ]
    assert [berger_round(6, r) for r in range(1, 6)] == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_summary_and_main(capsys: pytest.CaptureFixture[str]) -> None:
    main(["40", "5", "3"])
    out = capsys.readouterr().out
    assert out == summary(generate_swiss(40, 5, 3)) + "\n"
    assert out.startswith("players=40 rounds=5 games=")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments(systems=tuple(System)))
def test_strategy_tournaments_are_valid(t: Tournament) -> None:
    check_invariants(t)
    assert len(t.players) <= 12 and t.rounds <= 7


@settings(max_examples=50, deadline=None)
@given(tournaments(max_players=30, max_rounds=11, systems=(System.SWISS,)), st.data())
def test_renumbered_tournaments_are_valid_and_reversible(t: Tournament, data: st.DataObject) -> None:
    mapping = data.draw(id_mappings(p.id for p in t.players))
    moved = renumbered(t, mapping)
    check_invariants(moved)
    assert {p.id for p in moved.players} == set(mapping.values())
    assert renumbered(moved, {new: old for old, new in mapping.items()}) == t


def test_renumbered_rejects_bad_mappings() -> None:
    t = generate_round_robin(4)
    with pytest.raises(ValueError):
        renumbered(t, {1: 5, 2: 6, 3: 7})
    with pytest.raises(ValueError):
        renumbered(t, {1: 5, 2: 5, 3: 7, 4: 8})


def test_scoring_systems_draws_every_scoring_system_of_the_rules() -> None:
    """The property tests run under every scoring system Tiebreak names (the colour-dependent
    draws of three-point-colour included): each one is drawn."""
    for name, system in SCORING_SYSTEMS.items():
        assert find(scoring_systems(), lambda scoring, system=system: scoring == system) == system, name


@pytest.mark.parametrize(
    ("what", "condition"),
    [
        ("a double forfeit", lambda t: any(g.result is Result.DOUBLE_FORFEIT for g in t.games)),
        ("an unfinished game", lambda t: any(g.result is None for g in t.games)),
        ("a withdrawal", lambda t: bool(t.withdrawals)),
        ("every bye kind", lambda t: {b.kind for b in t.byes} == set(ByeKind)),
        ("ids with gaps", lambda t: sorted(p.id for p in t.players) != list(range(1, len(t.players) + 1))),
        ("an unrated player", lambda t: any(p.rating == 0 for p in t.players)),
        ("fouls", lambda t: any(g.fouls_white or g.fouls_black for g in t.games)),
        ("a round robin bye", lambda t: t.system.is_round_robin and bool(t.byes)),
        ("a tournament in progress", lambda t: 0 < t.rounds_with_results < t.rounds),
    ],
)
def test_strategy_covers(what: str, condition) -> None:
    find(
        tournaments(systems=tuple(System)),
        condition,
        settings=settings(max_examples=2000, database=None, phases=(Phase.generate,)),
    )
