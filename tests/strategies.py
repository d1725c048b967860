"""Hypothesis strategies for property tests: small valid tournaments and scoring systems.

``tournaments()`` builds each tournament from hypothesis-drawn sizes and flags plus a
hypothesis-controlled ``random.Random``, so generation stays fast and still shrinks.
``renumbered`` renames players for the "renumbering changes nothing" property.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace

from hypothesis import strategies as st

from ranking.event.model import Bye, ByeKind, Game, GameKind, Player, Result, System, Tournament, Withdrawal
from ranking.scoring.rules import SCORING_SYSTEMS, Scoring

_RESULTS = tuple(Result)
_PLAYED = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
_REQUESTED = (ByeKind.HALF, ByeKind.ZERO, ByeKind.FULL)


def _chance(rng: random.Random, p: float) -> bool:
    """True with probability ``p``; False when hypothesis shrinks the random draws to 0."""
    return rng.random() >= 1.0 - p


def _rr_rounds(players: int, system: System) -> int:
    """Rounds of a complete (double) round robin of ``players``."""
    single = players - 1 + players % 2
    return 2 * single if system is System.DOUBLE_ROUND_ROBIN else single


def _player_ids(rng: random.Random, count: int) -> list[int]:
    """1..count, 1..count with gaps, or arbitrary positive ints (always unique)."""
    style = rng.random()
    if style < 0.5:
        return list(range(1, count + 1))
    if style < 0.8:
        return sorted(rng.sample(range(1, 2 * count + 3), count))
    return rng.sample(range(1, 10**6), count)


def _players(rng: random.Random, ids: Sequence[int]) -> tuple[Player, ...]:
    """Players with random ratings, some unrated, some sharing a rating."""
    shared = rng.choice((1500, 1800, 2000))
    players = []
    for pid in ids:
        u = rng.random()
        rating = rng.randint(1000, 2800) if u < 0.7 else shared if u < 0.85 else 0
        players.append(Player(id=pid, name=f"Player {pid}", rating=rating))
    return tuple(players)


def _result(rng: random.Random, *, unfinished: bool) -> Result | None:
    if unfinished and _chance(rng, 0.3):
        return None
    if _chance(rng, 0.15):
        return rng.choice(_RESULTS)  # includes the forfeits and the double forfeit
    return rng.choice(_PLAYED)


def _game(rng: random.Random, rnd: int, white: int, black: int, board: int, *, unfinished: bool) -> Game:
    result = _result(rng, unfinished=unfinished)
    forfeit = result is not None and result.is_forfeit
    fouls = _chance(rng, 0.15)
    return Game(
        round=rnd,
        white=white,
        black=black,
        result=result,
        board=board,
        rated=not _chance(rng, 0.05),
        colours_known=not (forfeit and _chance(rng, 0.3)),
        fouls_white=rng.randint(0, 3) if fouls else 0,
        fouls_black=rng.randint(0, 3) if fouls else 0,
    )


def _circle_schedule(
    rng: random.Random, ids: Sequence[int], double: bool
) -> list[list[tuple[int | None, int | None]]]:
    """A round robin by the circle method on shuffled ids; None stands for the bye slot."""
    slots: list[int | None] = list(ids)
    rng.shuffle(slots)
    if len(slots) % 2:
        slots.append(None)
    size = len(slots)
    rounds = []
    for rnd in range(size - 1):
        pairs = []
        for k in range(size // 2):
            a, b = slots[k], slots[size - 1 - k]
            pairs.append((a, b) if (rnd + k) % 2 == 0 else (b, a))
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    if double:
        rounds += [[(b, a) for a, b in pairs] for pairs in rounds]
    return rounds


@st.composite
def tournaments(
    draw: st.DrawFn,
    max_players: int = 12,
    max_rounds: int = 7,
    systems: Iterable[System] = (System.SWISS, System.ROUND_ROBIN),
    min_players: int = 2,
) -> Tournament:
    """Small valid tournaments, finished or in progress.

    Unique positive player ids (sometimes with gaps), ratings with unrated and equal
    ones, every player at most once per round (in a game, a bye or absent), no rematch
    in a Swiss or single round robin, all results and bye kinds, unfinished games only in
    the last round played, withdrawals (the player has no later game; later rounds have
    a zero-point bye or nothing), fouls, unrated games and forfeits without colours.
    A round robin has as many players as ``max_rounds`` allows for its full schedule.
    """
    system = draw(st.sampled_from(tuple(systems)))
    if system.is_round_robin:
        sizes = [
            n for n in range(max(2, min_players), max_players + 1) if _rr_rounds(n, system) <= max_rounds
        ]
        if not sizes:
            raise ValueError(f"no {system} of {min_players}..{max_players} players fits {max_rounds} rounds")
        count = draw(st.sampled_from(sizes))
        rounds = _rr_rounds(count, system)
    else:
        count = draw(st.integers(min_players, max_players))
        rounds = draw(st.integers(1, max_rounds))
    played = draw(st.integers(1, rounds) | st.just(rounds))
    unfinished = draw(st.integers(0, 4)) == 4  # shrinks towards finished rounds
    rng = draw(st.randoms(use_true_random=False))

    ids = _player_ids(rng, count)
    players = _players(rng, ids)
    if _chance(rng, 0.2):
        players = tuple(rng.sample(players, len(players)))

    withdrawn_after: dict[int, int] = {}
    withdrawals = []
    some_withdraw = _chance(rng, 0.3)
    for pid in ids:
        if some_withdraw and _chance(rng, 0.15):
            after = rng.randint(0, rounds - 1)
            withdrawn_after[pid] = after
            withdrawals.append(Withdrawal(pid, after))
    explicit_zero_byes = _chance(rng, 0.5)

    schedule = (
        _circle_schedule(rng, ids, system is System.DOUBLE_ROUND_ROBIN) if system.is_round_robin else None
    )
    met: set[frozenset[int]] = set()
    games: list[Game] = []
    byes: list[Bye] = []
    for rnd in range(1, played + 1):
        last = unfinished and rnd == played
        active = []
        for pid in ids:
            if withdrawn_after.get(pid, rounds) < rnd:
                if explicit_zero_byes:
                    byes.append(Bye(rnd, pid, ByeKind.ZERO))
            else:
                active.append(pid)
        pairs: list[tuple[int, int]] = []
        if schedule is not None:
            present = set(active)
            for a, b in schedule[rnd - 1]:
                if a in present and b in present:
                    pairs.append((a, b))
                    present -= {a, b}
                elif a is None or b is None:
                    alone = a if b is None else b
                    if alone in present:
                        byes.append(Bye(rnd, alone, ByeKind.PAIRING))
                        present.discard(alone)
            for pid in sorted(present):  # the scheduled opponent withdrew
                if _chance(rng, 0.5):
                    byes.append(Bye(rnd, pid, rng.choice(_REQUESTED)))
        else:
            waiting = []
            for pid in active:
                u = rng.random()
                if u >= 0.95:
                    continue  # absent, no record
                if u >= 0.88:
                    byes.append(Bye(rnd, pid, rng.choice(_REQUESTED)))
                else:
                    waiting.append(pid)
            rng.shuffle(waiting)
            leftover = []
            while waiting:
                first = waiting.pop()
                partner = next((p for p in waiting if frozenset((first, p)) not in met), None)
                if partner is None:
                    leftover.append(first)
                else:
                    waiting.remove(partner)
                    pairs.append((first, partner))
            for k, pid in enumerate(leftover):
                if k == 0 and rng.random() < 0.85:
                    byes.append(Bye(rnd, pid, ByeKind.PAIRING))
                elif _chance(rng, 0.5):
                    byes.append(Bye(rnd, pid, rng.choice(_REQUESTED)))
        for board, (white, black) in enumerate(pairs, start=1):
            met.add(frozenset((white, black)))
            games.append(_game(rng, rnd, white, black, board, unfinished=last))

    return Tournament(
        name="Hypothesis tournament",
        players=players,
        rounds=rounds,
        games=tuple(games),
        byes=tuple(byes),
        withdrawals=tuple(withdrawals),
        system=system,
        game=rng.choice(tuple(GameKind)),
    )


def renumbered(t: Tournament, mapping: dict[int, int]) -> Tournament:
    """``t`` with every player id ``p`` renamed ``mapping[p]`` (names and order kept).

    ``mapping`` must cover every player and be one-to-one.
    """
    ids = [p.id for p in t.players]
    missing = [pid for pid in ids if pid not in mapping]
    if missing:
        raise ValueError(f"mapping lacks players {missing}")
    if len({mapping[pid] for pid in ids}) != len(ids):
        raise ValueError("mapping is not one-to-one")
    return replace(
        t,
        players=tuple(replace(p, id=mapping[p.id]) for p in t.players),
        games=tuple(replace(g, white=mapping[g.white], black=mapping[g.black]) for g in t.games),
        byes=tuple(replace(b, player=mapping[b.player]) for b in t.byes),
        withdrawals=tuple(replace(w, player=mapping[w.player]) for w in t.withdrawals),
    )


def id_mappings(ids: Iterable[int], *, keep_order: bool = False) -> st.SearchStrategy[dict[int, int]]:
    """One-to-one maps of ``ids`` onto positive ints; ``keep_order`` keeps them increasing."""
    ids = sorted(ids)
    targets = st.lists(st.integers(1, 10**6), min_size=len(ids), max_size=len(ids), unique=True)
    if keep_order:
        targets = targets.map(sorted)
    return targets.map(lambda new: dict(zip(ids, new, strict=True)))


def scoring_systems() -> st.SearchStrategy[Scoring]:
    """One of ``ranking.scoring.rules.SCORING_SYSTEMS``."""
    return st.sampled_from(tuple(SCORING_SYSTEMS.values()))
