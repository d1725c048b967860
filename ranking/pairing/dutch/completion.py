"""Whether the players not yet paired can all be paired (C.04.3 C4, completion), and who cannot.

An unweighted maximum matching (Edmonds' blossom method, breadth-first search with blossom
contraction) on the pairs that the absolute criteria allow.  When the players are odd, one
of them is left over for the pairing-allocated bye: a dummy vertex joined to the players
who may receive it turns "every player paired but one acceptable bye" into a perfect matching.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["complete_pairing", "maximum_matching"]


def maximum_matching(n: int, adj: Sequence[Sequence[int]], start: list[int] | None = None) -> list[int]:
    """A maximum-cardinality matching of the graph ``adj`` (``mate[v]`` or -1)."""
    match = list(start) if start is not None else [-1] * n
    if start is None:
        for v in range(n):
            if match[v] == -1:
                for u in adj[v]:
                    if match[u] == -1:
                        match[u], match[v] = v, u
                        break
    for root in range(n):
        if match[root] == -1:
            found = _augmenting_path(n, adj, match, root)
            if found is not None:
                v, parent = found
                while v != -1:
                    pv = parent[v]
                    ppv = match[pv]
                    match[v], match[pv] = pv, v
                    v = ppv
    return match


def _augmenting_path(n: int, adj: Sequence[Sequence[int]], match: list[int], root: int) -> tuple[int, list[int]] | None:
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    used[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adj[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                current = lca(v, to)
                blossom = [False] * n
                mark(v, current, to, blossom)
                mark(to, current, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return None


def complete_pairing(
    players: Sequence[int],
    compatible: Callable[[int, int], bool],
    may_get_bye: Callable[[int], bool],
) -> list[int] | None:
    """Players left unpaired by a best pairing of ``players`` under ``compatible``: ``[]`` or
    ``[bye]`` when a complete pairing exists (at most one player left over, one who
    ``may_get_bye``), else None.  A greedy pairing is tried first; the exact method only
    when it fails."""
    count = len(players)
    odd = count % 2 == 1
    if _greedy(players, compatible, may_get_bye, odd):
        return [] if not odd else [-1]
    n = count + (1 if odd else 0)
    adj: list[list[int]] = [[] for _ in range(n)]
    for i in range(count):
        a = players[i]
        for j in range(i + 1, count):
            if compatible(a, players[j]):
                adj[i].append(j)
                adj[j].append(i)
    if odd:
        for i in range(count):
            if may_get_bye(players[i]):
                adj[i].append(count)
                adj[count].append(i)
    mate = maximum_matching(n, adj)
    if any(m == -1 for m in mate):
        return None
    return [] if not odd else [players[mate[count]]]


def _greedy(
    players: Sequence[int], compatible: Callable[[int, int], bool], may_get_bye: Callable[[int], bool], odd: bool
) -> bool:
    rest = list(players)
    if odd:
        for k in range(len(rest) - 1, -1, -1):
            if may_get_bye(rest[k]):
                del rest[k]
                break
        else:
            return False
    taken = [False] * len(rest)
    for i, a in enumerate(rest):
        if taken[i]:
            continue
        for j in range(len(rest) - 1, i, -1):
            if not taken[j] and compatible(a, rest[j]):
                taken[i] = taken[j] = True
                break
        else:
            return False
    return True
