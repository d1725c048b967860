"""The FIDE Berger tables for round robins (C.05 Annex 1, "Berger Tables for Round-Robin
Tournaments"): who meets whom in which round, with which colours.  Pure arithmetic, importing
only the errors, so the withdrawal rules (VN 21.5.1) can place a game the file does not list
without loading the pairing machinery.

>>> berger_table(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> round_robin_schedule([11, 12, 13])[0]
[(12, 13), (11, None)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ranking.errors import InputError

#: One entry of a schedule round: (white, black), or (player, None) for the bye.
Pairing = tuple[int, int | None]


def berger_table(players: int) -> list[list[tuple[int, int]]]:
    """The FIDE Berger table (C.05 Annex 1) for ``players`` players: rounds 1..n-1, each a
    list of (white, black) pairing numbers in board order.

    An odd field uses the table of ``players + 1``; the pairing against that number is
    the bye (Annex 1: "the highest number counts as a bye").  The tables are built, for
    any even n, by the construction that reproduces the published ones (4 to 16 players,
    checked against them in ``tests/data/berger``):

    - in round r, the fixed player n meets p with 2p = r + 1 (mod n - 1), that is
      p = (r + 1) / 2 in odd rounds, with white, and p = n/2 + r/2 in even rounds, with
      black; this game is board 1;
    - board k + 1 (k = 1 .. n/2 - 1) is p + k (white) against p - k (black), counting
      round the circle 1 .. n - 1.

    >>> berger_table(6)[1]
    [(6, 4), (5, 3), (1, 2)]
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise InputError(f"a round robin needs a whole number of players, got {players!r}")
    if players < 2:
        raise InputError(f"a round robin needs at least 2 players, got {players}")
    n = players + players % 2
    circle = n - 1
    table: list[list[tuple[int, int]]] = []
    for rnd in range(1, n):
        if rnd % 2:
            p = (rnd + 1) // 2
            boards = [(p, n)]
        else:
            p = n // 2 + rnd // 2
            boards = [(n, p)]
        boards += [((p - 1 + k) % circle + 1, (p - 1 - k) % circle + 1) for k in range(1, n // 2)]
        table.append(boards)
    return table


def round_robin_schedule(player_ids: Sequence[int], double: bool = False) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin of ``player_ids``, given in pairing-number order
    (``player_ids[0]`` has pairing number 1), from ``berger_table``.

    Each round lists its games as (white, black) in board order (board k is entry k - 1);
    in an odd field it ends with one ``(player, None)``: that player has the bye (is
    paired with the missing number n + 1).

    ``double``: a double round robin, 2(n - 1) rounds.  The second cycle repeats the
    table with colours reversed, and, as C.05 Annex 1 recommends "for a double-round
    tournament", the order of the last two rounds of the first cycle is reversed (rounds
    n - 2 and n - 1 of the table are played as rounds n - 1 and n - 2) so that no player
    has the same colour three times in a row across the change of cycle.  The second
    cycle keeps the table's order: round n - 1 + r is table round r reversed.

    >>> round_robin_schedule([7, 8, 9, 10], double=True)
    [[(7, 10), (8, 9)], [(8, 10), (9, 7)], [(10, 9), (7, 8)], [(10, 7), (9, 8)], [(9, 10), (8, 7)], [(10, 8), (7, 9)]]
    """
    ids = list(player_ids)
    seen: set[int] = set()
    for pid in ids:
        if pid in seen:
            raise InputError(f"player {pid} appears twice in the round robin")
        seen.add(pid)
    table = berger_table(len(ids))
    number = dict(enumerate(ids, start=1))  # the phantom n + 1 of an odd field is missing

    def cycle(rounds: Iterable[list[tuple[int, int]]], reverse: bool) -> list[list[Pairing]]:
        schedule: list[list[Pairing]] = []
        for boards in rounds:
            games: list[Pairing] = []
            byes: list[Pairing] = []
            for white, black in boards:
                if white not in number:
                    byes.append((number[black], None))
                elif black not in number:
                    byes.append((number[white], None))
                else:
                    games.append((number[black], number[white]) if reverse else (number[white], number[black]))
            schedule.append(games + byes)
        return schedule

    if not double:
        return cycle(table, reverse=False)
    first = table[:-2] + table[-2:][::-1] if len(table) >= 2 else table
    return cycle(first, reverse=False) + cycle(table, reverse=True)
