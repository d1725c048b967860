"""The ordering arithmetic every ranking shares, as plain functions of plain values.

- ``apply_chain``: a tie-break chain applied inside the groups still tied (FIDE C.07 4.2);
  ``runs_of_equal`` and ``sort_key`` cut an ordered list into tiers;
- ``cut_values``: the cuts and medians of C.07 14 with the VUR rule of 16.5.1;
- ``direct_encounter_tiers``: direct encounter on a mini-table (C.07 6.1-6.3);
- ``categories``: the C.07 16.2 category of each unplayed round;
- ``average_half_up``: an average of whole ratings rounded half up (C.07 10.1);
- ``FIDE_SWISS_CHAIN`` and ``FIDE_RR_CHAIN``: the chains the ``fide-swiss`` and ``fide-rr``
  presets use when the regulations name none (C.07 2.1, 4.1.1).

The standings engine (``ranking.standings.engine``) and the registries' chains
(``ranking.tiebreaks.registry.rank_by_chain``, individual and team) all rank with these, so they
can never order a tied group differently.  This module imports nothing: a command that reads a
file into the engine's columns starts quickly because it loads no model types.

>>> runs_of_equal([3, 1, 2, 0], [5, 7, 5, 5].__getitem__)
[[3], [1], [2, 0]]
>>> cut_values([(1.0, 1.0, False), (3.0, 3.0, False), (2.0, 2.0, False)], low=1, high=1, keep=0)
2.0
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

#: The FIDE C.07 (2026) default chains for individual Swiss events and round robins.
FIDE_SWISS_CHAIN = ("BH-C1", "BH", "SB", "DE", "WIN")
FIDE_RR_CHAIN = ("DE", "SB", "WIN", "KS")

#: How a criterion of a chain ranks (``apply_chain``).
SCORE, KEYED, ORDER = "score", "keyed", "order"

#: Classes of a round for ``categories``: played (or pending, or a round robin's free round),
#: pairing-allocated or full-point bye, forfeit win, forfeit loss, requested (half- or
#: zero-point) bye.  The first four are also the category they give (16.2.1, 16.2.2, 16.2.4).
PLAYED, FULL_BYE, FORFEIT_WIN, FORFEIT_LOSS, REQUESTED_BYE = 0, 1, 2, 4, 5


def runs_of_equal(ordered: list[int], key: Callable[[int], Any]) -> list[list[int]]:
    """Cut an ordered list of players into runs of equal ``key`` (the tiers of a criterion)."""
    tiers: list[list[int]] = []
    previous: object = object()
    for member in ordered:
        value = key(member)
        if tiers and value == previous:
            tiers[-1].append(member)
        else:
            tiers.append([member])
        previous = value
    return tiers


def sort_key(values: Sequence[Any], lower_is_better: bool) -> Callable[[int], tuple[bool, Any]]:
    """Ascending sort key for a scored criterion: best first; a missing value (None) last.
    The keys are made once, so sorting and cutting into runs look them up."""
    if lower_is_better:
        keys = [(value is None, value if value is not None else 0) for value in values]
    else:
        keys = [(value is None, -value if value is not None else 0) for value in values]
    return keys.__getitem__


def apply_chain(groups: list[list[int]], criteria: Sequence[tuple[str, str, Callable[..., Any], bool]],
                ids: Sequence[int]) -> tuple[list[list[int]], dict[str, list[Any]]]:
    """Apply each criterion of a chain inside the groups still tied (C.07 4.2).

    ``groups`` are the players (or teams, as indexes) tied on the primary score, best group
    first, members in starting-number order; ``ids`` their starting numbers, which order the
    members of a tier.  A criterion is ``(code, how, compute, lower_is_better)``: ``how`` is
    ``SCORE`` (``compute()`` gives one value per index), ``KEYED`` (``compute()`` gives the
    values and the keys to order by, best first) or ``ORDER`` (``compute(group)`` splits a
    tied group into tiers, best first).  Returns the final groups (members tied on everything)
    and each code's column: the values, or for ordering criteria the place inside the group
    tied before them (1 = first; 0 for everyone in a group they do not split).
    """
    count = len(ids)
    columns: dict[str, list[Any]] = {}
    for code, how, compute, lower_is_better in criteria:
        split: list[list[int]] = []
        if how == ORDER:
            places: list[Any] = [0] * count
            for group in groups:
                tiers = compute(group) if len(group) > 1 else [group]
                if len(tiers) > 1:
                    place = 1
                    for tier in tiers:
                        for member in tier:
                            places[member] = place
                        place += len(tier)
                split.extend(sorted(tier, key=ids.__getitem__) for tier in tiers)
            columns[code] = places
        else:
            if how == KEYED:
                values, keys = compute()
                key: Callable[[int], Any] = keys.__getitem__
            else:
                values = compute()
                key = sort_key(values, lower_is_better)
            columns[code] = values
            for group in groups:  # members are in starting-number order, and sorted() is stable
                split.extend(runs_of_equal(sorted(group, key=key), key) if len(group) > 1 else [group])
        groups = split
    return groups, columns


def cut_leaves_nothing(cut: int, median: int, rounds: int) -> bool:
    """Whether the Cn/Mn cuts of C.07 14 (``cut`` low cuts, ``median`` low and high ones) drop
    every value of ``rounds`` rounds, so the tie-break is 0 for everyone."""
    return rounds > 0 and cut + 2 * median >= rounds


def cut_values(items: list[tuple[float, Any, bool]], low: int, high: int, keep: int) -> float:
    """Sum ``items`` (contribution, significance, VUR) after ``low`` low cuts and ``high`` high
    cuts (C.07 14: Cn is n low cuts, Mn is n of each).

    A low cut drops the least significant value (C.07 14.1.1), except that where the player
    has VURs the VUR element with the lowest contribution is cut instead when it is not lower
    (C.07 16.5.1; on a tie the VUR).  Median-n (14.3/14.4 "in that order") makes all n low
    cuts first, one at a time, each applying 16.5.1 to the elements still present, then the n
    high cuts (plain highest values, docs/rules.md#c07-readings).  Cuts stop when they would leave fewer
    than ``keep`` values (``keep_rounds``, docs/rules.md#options).
    """
    if not (low or high):
        return sum(item[0] for item in items)
    items = list(items)
    keep = max(keep, 0)
    for _ in range(low):
        if len(items) <= keep or not items:
            break
        least = min(items, key=lambda item: item[1])
        vurs = [item for item in items if item[2]]
        if vurs:
            lowest_vur = min(vurs, key=lambda item: item[0])
            if lowest_vur[0] >= least[0]:
                least = lowest_vur
        items.remove(least)
    for _ in range(high):
        if len(items) <= keep or not items:
            break
        items.remove(max(items, key=lambda item: item[1]))
    return sum(item[0] for item in items)


def direct_encounter_tiers(group: list[int], totals: dict[tuple[int, int], list[float]], win: float,
                           all_met: bool) -> list[list[int]]:
    """C.07 6.2/6.3 on the mini-table ``totals``: (points, games) per ordered pair of players
    (or teams), which may hold pairs outside ``group``.  Repeated games count as their average
    (6.1.2).  When not all of the group met, a leader is placed only if no one else could reach
    its score by winning (``win``) every game still missing among them (6.3); ``all_met`` (the
    ZS reading) separates nobody then.  Sub-groups left tied are split again on their own
    games (6.2)."""
    if len(group) < 2:
        return [group]
    members = set(group)
    score = {me: 0.0 for me in group}
    opponents_met = {me: 0 for me in group}
    for (me, other), (points, games) in totals.items():
        if me in members and other in members:
            score[me] += points / games
            opponents_met[me] += 1
    missing = {me: len(group) - 1 - opponents_met[me] for me in group}
    if all(count == 0 for count in missing.values()):
        tiers = runs_of_equal(sorted(group, key=score.__getitem__, reverse=True), score.__getitem__)
    elif all_met:
        return [group]
    else:
        remaining = sorted(group, key=score.__getitem__, reverse=True)
        tiers = []
        while len(remaining) > 1:
            leader, rest = remaining[0], remaining[1:]
            best_chance = max(score[other] + win * missing[other] for other in rest)
            if score[leader] <= best_chance:
                break
            tiers.append([leader])
            remaining = rest
        tiers.append(remaining)
    if len(tiers) == 1:
        return tiers
    result: list[list[int]] = []
    for tier in tiers:
        result.extend(direct_encounter_tiers(tier, totals, win, all_met) if len(tier) > 1 else [tier])
    return result


def categories(classes: Sequence[int]) -> list[tuple[int, bool]]:
    """(category, voluntary) of every round, rounds 1..n in order (FIDE C.07 16.1-16.2), from
    each round's class (``PLAYED``, ``FULL_BYE``, ``FORFEIT_WIN``, ``FORFEIT_LOSS``,
    ``REQUESTED_BYE``).

    Category 0 is a game played; 1 a pairing-allocated or full-point bye (16.2.1); 2 a forfeit
    win (16.2.2); 3 a requested bye followed by a round that is not a VUR (16.2.3); 4 a forfeit
    loss (16.2.4); 5 a requested bye followed only by VURs (16.2.5).  A voluntary unplayed
    round (VUR, 16.1) is a requested bye or a forfeit loss.

    >>> categories([REQUESTED_BYE, PLAYED, REQUESTED_BYE, FORFEIT_LOSS])
    [(3, True), (0, False), (5, True), (4, True)]
    """
    result: list[tuple[int, bool]] = []
    only_vurs_follow = True
    for number in range(len(classes) - 1, -1, -1):
        kind = classes[number]
        if kind == REQUESTED_BYE:
            category, vur = (5 if only_vurs_follow else 3), True
        elif kind == FORFEIT_LOSS:
            category, vur = FORFEIT_LOSS, True
        else:
            category, vur = kind, False
            only_vurs_follow = False
        result.append((category, vur))
    result.reverse()
    return result


def average_half_up(ratings: Sequence[int]) -> int:
    """The average of whole ratings, rounded half up (C.07 10.1), in integer arithmetic.

    >>> average_half_up([2000, 2001])
    2001
    """
    return (2 * sum(ratings) + len(ratings)) // (2 * len(ratings))
