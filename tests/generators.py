"""Synthetic tournaments for benchmarks and tests: a large Swiss open and a round robin.

``generate_swiss`` pairs by score groups (top half against bottom half, floaters down,
no rematches, colours alternating where possible); it is not FIDE Dutch, only realistic
enough for standings to have the usual mix of byes, forfeits and withdrawals.  Both
generators are deterministic for a seed.  Run as a script for a one-line summary::

    python tests/generators.py 1000 11
"""

from __future__ import annotations

import random
import sys
from itertools import groupby

from ranking.event.model import Bye, ByeKind, Game, Player, Result, System, Tournament, Withdrawal

UNRATED_SHARE = 0.03
HALF_BYE_SHARE = 0.01  # of player-rounds
FORFEIT_SHARE = 0.005  # of games, one side wins by forfeit
DOUBLE_FORFEIT_SHARE = 0.001  # of games
WITHDRAWAL_SHARE = 0.02  # of players
WHITE_ADVANTAGE = 35  # Elo points
UNRATED_STRENGTH = 1500
WINDOW = 24  # how far down the bottom half the greedy pairing looks for an opponent
COLOUR_REACH = 4  # how many of the nearest opponents are tried for matching colour preferences
BACKTRACK_POOL = 64  # largest pool the end-of-round repair re-pairs exhaustively
BACKTRACK_STEPS = 200_000  # work budget of one repair (players looked at)
PAB_TRIES = 8  # players tried for the pairing-allocated bye when the rest cannot be paired

_FEDERATIONS = ("GER", "FRA", "ESP", "ITA", "NED", "POL", "ENG", "USA", "IND", "CHN", "VIE", "NOR")


def _players(count: int, rng: random.Random, *, by_rating: bool) -> tuple[Player, ...]:
    """``count`` players with ids 1..count: by descending rating (Swiss) or in random order."""
    ratings = [
        0 if rng.random() < UNRATED_SHARE else min(2800, max(1000, round(rng.gauss(1750, 380))))
        for _ in range(count)
    ]
    if by_rating:
        ratings.sort(key=lambda r: (r == 0, -r))
    players = []
    for number, rating in enumerate(ratings, start=1):
        title = "GM" if rating >= 2500 else "IM" if rating >= 2400 else "FM" if rating >= 2300 else ""
        players.append(
            Player(
                id=number,
                name=f"Player {number:05d}",
                rating=rating,
                federation=rng.choice(_FEDERATIONS),
                title=title,
            )
        )
    return tuple(players)


def _play(white_rating: int, black_rating: int, rng: random.Random) -> Result:
    """A result drawn from the rating difference, with draws likelier between equals."""
    white = (white_rating or UNRATED_STRENGTH) + WHITE_ADVANTAGE
    black = black_rating or UNRATED_STRENGTH
    expected = 1.0 / (1.0 + 10.0 ** ((black - white) / 400.0))
    draw = max(0.04, 0.36 - 0.6 * abs(expected - 0.5))
    win = max(0.0, expected - draw / 2)
    u = rng.random()
    if u < win:
        return Result.WHITE_WINS
    if u < win + draw:
        return Result.DRAW
    return Result.BLACK_WINS


def _forfeit_or_play(white_rating: int, black_rating: int, rng: random.Random) -> Result:
    u = rng.random()
    if u < DOUBLE_FORFEIT_SHARE:
        return Result.DOUBLE_FORFEIT
    if u < DOUBLE_FORFEIT_SHARE + FORFEIT_SHARE:
        return Result.WHITE_WINS_FORFEIT if rng.random() < 0.5 else Result.BLACK_WINS_FORFEIT
    return _play(white_rating, black_rating, rng)


def _preference(history: list[int]) -> tuple[int, int]:
    """Colour preference (+1 white, -1 black, 0 none) and strength (2 absolute, 1 mild)."""
    if not history:
        return 0, 0
    balance = sum(history)
    if balance > 1 or history[-2:] == [1, 1]:
        return -1, 2
    if balance < -1 or history[-2:] == [-1, -1]:
        return 1, 2
    if balance:
        return -balance, 1
    return -history[-1], 1


def _compatible(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """False when both players must have the same colour."""
    return not (a[1] == 2 and b[1] == 2 and a[0] == b[0])


def _pick(i: int, bottom: list[int], taken: list[bool], banned: set[int], prefs: list, player: int) -> int:
    """Index in ``bottom`` of an opponent for the i-th top player, or -1.

    Nearest to i first; among the ``COLOUR_REACH`` nearest, one whose colour preference
    differs is preferred, else the nearest whose absolute preference does not clash.
    """
    mine = prefs[player]
    compatible = fallback = -1
    seen = 0
    size = len(bottom)
    for j in (*range(i, min(size, i + WINDOW)), *range(i - 1, max(-1, i - WINDOW), -1)):
        if taken[j] or bottom[j] in banned:
            continue
        theirs = prefs[bottom[j]]
        if seen < COLOUR_REACH and (mine[0] != theirs[0] or mine[0] == 0):
            return j
        seen += 1
        if compatible < 0 and _compatible(mine, theirs):
            compatible = j
            if seen >= COLOUR_REACH:
                return j
        if fallback < 0:
            fallback = j
    return compatible if compatible >= 0 else fallback


def _greedy(pool: list[int], met: list[set[int]], pairs: list[tuple[int, int]]) -> list[int]:
    """Pair ``pool`` in order, each with the first later player not yet met; return the rest."""
    free = list(pool)
    unpaired = []
    while free:
        first = free.pop(0)
        for k, other in enumerate(free[:WINDOW]):
            if other not in met[first]:
                pairs.append((first, other))
                del free[k]
                break
        else:
            unpaired.append(first)
    return unpaired


def _backtrack(pool: list[int], met: list[set[int]]) -> list[tuple[int, int]] | None:
    """A perfect matching of ``pool`` without rematches, or None (also when it takes too long).

    Depth first, always pairing next the player with the fewest possible opponents.
    """
    steps = 0

    def solve(rest: list[int]) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not rest:
            return []
        steps += len(rest)
        if steps > BACKTRACK_STEPS:
            return None
        options = {p: [q for q in rest if q != p and q not in met[p]] for p in rest}
        first = min(rest, key=lambda p: len(options[p]))
        for other in options[first]:
            found = solve([p for p in rest if p != first and p != other])
            if found is not None:
                return [(first, other), *found]
        return None

    return solve(pool)


def _pair_round(
    order: list[int], score: list[int], met: list[set[int]], prefs: list
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair ``order`` (players by rank) by score groups; return pairs and the unpairable."""
    rank = {p: k for k, p in enumerate(order)}
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    for _, group in groupby(order, key=score.__getitem__):
        members = carry + list(group)
        carry = [members.pop()] if len(members) % 2 else []
        half = len(members) // 2
        top, bottom = members[:half], members[half:]
        taken = [False] * len(bottom)
        rest_top = []
        for i, player in enumerate(top):
            j = _pick(i, bottom, taken, met[player], prefs, player)
            if j < 0:
                rest_top.append(player)
            else:
                taken[j] = True
                pairs.append((player, bottom[j]))
        leftovers = rest_top + [b for j, b in enumerate(bottom) if not taken[j]]
        leftovers.sort(key=rank.__getitem__)
        carry = sorted(_greedy(leftovers, met, pairs) + carry, key=rank.__getitem__)
    if not carry:
        return pairs, []
    # Repair the bottom boards: re-pair the last few pairs together with the floaters.
    undo = 1
    while True:
        undo = min(undo, len(pairs))
        pool = sorted(carry + [p for pair in pairs[len(pairs) - undo :] for p in pair], key=rank.__getitem__)
        if len(pool) > BACKTRACK_POOL:
            return pairs, carry
        matching = _backtrack(pool, met)
        if matching is not None:
            return pairs[: len(pairs) - undo] + matching, []
        if undo == len(pairs):
            return pairs, carry
        undo *= 2


def _colours(higher: int, lower: int, prefs: list, board: int, first_white: bool) -> tuple[int, int]:
    """(white, black) for a pair; ``higher`` is the better-ranked player."""
    (ph, sh), (pl, sl) = prefs[higher], prefs[lower]
    if ph == 0 and pl == 0:
        higher_white = (board % 2 == 1) == first_white
    elif ph == 0:
        higher_white = pl < 0
    elif pl == 0 or ph != pl:
        higher_white = ph > 0
    elif sl > sh:
        higher_white = pl < 0
    else:
        higher_white = ph > 0
    return (higher, lower) if higher_white else (lower, higher)


def generate_swiss(players: int, rounds: int, seed: int = 1) -> Tournament:
    """A Swiss open of ``players`` over ``rounds`` rounds, deterministic for ``seed``.

    Starting numbers follow rating (unrated last).  About 1% of player-rounds are
    requested half-point byes, 0.5% of games are forfeited (0.1% double forfeits) and 2%
    of players withdraw; an odd field gives a pairing-allocated bye to the lowest-ranked
    player without one.  Should the pairing ever be impossible without a rematch (only
    when ``rounds`` nears ``players``), the players left over get a zero-point bye.
    """
    if players < 2 or rounds < 1:
        raise ValueError("a Swiss needs at least 2 players and 1 round")
    rng = random.Random(seed)
    field = _players(players, rng, by_rating=True)
    count = len(field)
    ids = [p.id for p in field]
    ratings = [p.rating for p in field]
    score = [0] * count  # half-points
    met: list[set[int]] = [set() for _ in range(count)]
    history: list[list[int]] = [[] for _ in range(count)]
    had_pab = [False] * count
    withdraw_after = [rounds + 1] * count
    withdrawals = []
    if rounds > 1:
        for k in range(count):
            if rng.random() < WITHDRAWAL_SHARE:
                withdraw_after[k] = rng.randint(1, rounds - 1)
                withdrawals.append(Withdrawal(ids[k], withdraw_after[k]))
    first_white = rng.random() < 0.5
    games: list[Game] = []
    byes: list[Bye] = []

    for rnd in range(1, rounds + 1):
        pool = []
        for k in range(count):
            if withdraw_after[k] < rnd:
                byes.append(Bye(rnd, ids[k], ByeKind.ZERO))
            elif rng.random() < HALF_BYE_SHARE:
                byes.append(Bye(rnd, ids[k], ByeKind.HALF))
                score[k] += 1
            else:
                pool.append(k)
        pool.sort(key=lambda k: (-score[k], -ratings[k], k))
        prefs = [_preference(h) for h in history]
        if len(pool) % 2:
            # The lowest-ranked without a bye; the next ones only if the rest cannot be paired.
            candidates = [k for k in reversed(pool) if not had_pab[k]] or [pool[-1]]
            tries = []
            for pab in candidates[:PAB_TRIES]:
                pairs, unpaired = _pair_round([k for k in pool if k != pab], score, met, prefs)
                tries.append((pab, pairs, unpaired))
                if not unpaired:
                    break
            pab, pairs, unpaired = tries[-1] if not tries[-1][2] else tries[0]
            had_pab[pab] = True
            score[pab] += 2
            byes.append(Bye(rnd, ids[pab], ByeKind.PAIRING))
        else:
            pairs, unpaired = _pair_round(pool, score, met, prefs)
        for k in unpaired:
            byes.append(Bye(rnd, ids[k], ByeKind.ZERO))
        for board, (higher, lower) in enumerate(pairs, start=1):
            white, black = _colours(higher, lower, prefs, board, first_white)
            result = _forfeit_or_play(ratings[white], ratings[black], rng)
            games.append(Game(rnd, ids[white], ids[black], result, board=board))
            met[white].add(black)
            met[black].add(white)
            if not result.is_forfeit:
                history[white].append(1)
                history[black].append(-1)
            points_white, points_black = result.outcomes  # half-points
            score[white] += points_white
            score[black] += points_black

    return Tournament(
        name=f"Generated Swiss open ({players} players, {rounds} rounds, seed {seed})",
        players=field,
        rounds=rounds,
        games=tuple(games),
        byes=tuple(byes),
        withdrawals=tuple(withdrawals),
        system=System.SWISS,
    )


def berger_round(size: int, rnd: int) -> list[tuple[int, int]]:
    """Round ``rnd`` (1..size-1) of the Berger table for an even ``size``: (white, black) by board.

    Pairs follow FIDE C.05 Annex 1: board 1 holds the last number, whose colour
    alternates; the others meet when their numbers add up to rnd + 1 modulo size - 1.
    """
    m = size - 1

    def wrap(x: int) -> int:
        return (x - 1) % m + 1

    anchor = next(i for i in range(1, size) if (2 * i) % m == (rnd + 1) % m)
    pairs = [(size, anchor) if rnd % 2 == 0 else (anchor, size)]
    for k in range(1, size // 2):
        a, b = wrap(anchor + k), wrap(anchor - k)
        low, high = min(a, b), max(a, b)
        pairs.append((low, high) if (high - low) % 2 else (high, low))
    return pairs


def generate_round_robin(players: int, seed: int = 1) -> Tournament:
    """A finished single round robin on Berger tables, deterministic for ``seed``.

    Starting numbers are drawn by lot (ratings in random order); with an odd count the
    player drawn against the missing number gets a pairing-allocated bye.
    """
    if players < 2:
        raise ValueError("a round robin needs at least 2 players")
    rng = random.Random(seed)
    field = _players(players, rng, by_rating=False)
    rating = {p.id: p.rating for p in field}
    size = players + players % 2
    games: list[Game] = []
    byes: list[Bye] = []
    for rnd in range(1, size):
        board = 0
        for white, black in berger_round(size, rnd):
            if white > players or black > players:
                byes.append(Bye(rnd, min(white, black), ByeKind.PAIRING))
                continue
            board += 1
            games.append(Game(rnd, white, black, _play(rating[white], rating[black], rng), board=board))
    return Tournament(
        name=f"Generated round robin ({players} players, seed {seed})",
        players=field,
        rounds=size - 1,
        games=tuple(games),
        byes=tuple(byes),
        system=System.ROUND_ROBIN,
    )


def summary(t: Tournament) -> str:
    """One line: players, rounds, games, byes by kind, forfeits and withdrawals."""
    forfeits = sum(1 for g in t.games if g.result is not None and g.result.is_forfeit)
    doubles = sum(1 for g in t.games if g.result is Result.DOUBLE_FORFEIT)
    kinds = {kind: sum(1 for b in t.byes if b.kind is kind) for kind in ByeKind}
    bye_text = " ".join(f"{kind.value}={n}" for kind, n in kinds.items() if n)
    return (
        f"players={len(t.players)} rounds={t.rounds} games={len(t.games)} "
        f"byes={len(t.byes)} ({bye_text or 'none'}) forfeits={forfeits} (double={doubles}) "
        f"withdrawals={len(t.withdrawals)}"
    )


def main(argv: list[str] | None = None) -> None:
    """``generate.py PLAYERS ROUNDS [SEED]``: print a summary of the generated Swiss."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3):
        raise SystemExit("usage: python tests/generators.py PLAYERS ROUNDS [SEED]")
    seed = int(args[2]) if len(args) == 3 else 1
    print(summary(generate_swiss(int(args[0]), int(args[1]), seed)))


if __name__ == "__main__":
    main()
