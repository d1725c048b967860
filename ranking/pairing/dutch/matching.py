"""Maximum-weight matching in a general graph, with exact integer weights of any width.

The primal-dual blossom method of Edmonds (1965), in the O(n³) organisation described by
Galil ("Efficient algorithms for finding maximum matching in graphs", ACM Computing
Surveys 18, 1986): grow alternating trees from every free vertex, shrink odd cycles into
blossoms, adjust the dual variables by the smallest admissible step, augment when two trees
touch.  Weights are Python integers, so a weight may pack many lexicographic fields
(``ranking.pairing.dutch.weights``); no floating point is used anywhere.

>>> max_weight_matching(4, [(0, 1, 5), (1, 2, 8), (2, 3, 5)])
[1, 0, 3, 2]

``lexicographic_matching`` maximises several weights in turn, most significant first, each
solve on narrow weights: after a solve, only the edges an optimal matching may use stay (zero
reduced cost), and a small weight that is greatest exactly for the optimal matchings
(complementary slackness: every vertex of positive dual covered, every blossom of positive
dual full) is carried on top of the next weight.

>>> lexicographic_matching(4, [(0, 1), (1, 2), (2, 3)], [([1, 1, 1], 2), ([0, 0, 1], 1)])
[1, 0, 3, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ranking.pairing.dutch.completion import maximum_matching

__all__ = ["lexicographic_matching", "max_weight_matching"]

_FREE, _S, _T = 0, 1, 2
_MARK = 4  # breadcrumb while looking for a blossom base


def max_weight_matching(vertices: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """A matching of greatest total weight: ``mate[v]`` is v's partner, or -1.

    ``edges`` are ``(u, v, weight)`` with ``0 <= u, v < vertices``, ``u != v`` and integer
    weights; at most one edge per pair.  Edges of weight <= 0 are never needed and are
    dropped.  The matching is not forced to be of maximum cardinality: give every edge a
    large common bonus for that.
    """
    edges = [(u, v, w) for u, v, w in edges if w > 0]
    if not edges:
        return [-1] * vertices
    return _Blossoms(vertices, edges).solve()


Stage = (
    tuple[Sequence[int], int]
    | tuple[Sequence[int], int, tuple[int, int] | None]
    | tuple[Sequence[int], int, tuple[int, int] | None, Collection[int]]
)


def lexicographic_matching(
    vertices: int,
    edges: Sequence[tuple[int, int]],
    stages: Sequence[Stage],
    then: Callable[[list[int]], Sequence[Stage]] | None = None,
) -> list[int]:
    """A matching that maximises the weights of ``stages`` lexicographically: the first
    stage's total, then among those matchings the second's, and so on.

    ``edges`` are ``(u, v)`` pairs; each stage is ``(values, width)``: a non-negative integer
    per edge, and a width in bits such that no matching's total reaches ``2 ** width``.
    Equivalent to one solve on the weights ``values_1 << (width_2 + ...) | values_2 << ...``
    but every solve works on numbers of a few words, and on the edges still in play only.
    A stage may carry a third item, (bound, n): when the matching it finds totals ``bound``
    on it, the caller knows the next ``n`` stages to be equal for every such matching, and
    they are not solved.  A stage may carry a fourth item, the edges it decides: such an edge
    in the matching found is held by every matching optimal on this stage and the ones before
    (for instance, when the stage's fields each take distinct values on edges of one vertex),
    so its pair is set aside with the others every optimal matching holds.  ``then``, given
    the matching ``stages`` found, names more stages, solved after them as if given with them
    (a later weight that depends on the earlier optimum).
    """
    state = _Lexicographic(vertices, edges)
    state.solve(stages)
    if then is not None:
        state.solve(then(state.mate()))
    return state.mate()


class _Lexicographic:
    """The stages solved so far: the edges still in play, their optimality weight, the last
    solve's matching and the pairs set aside."""

    def __init__(self, vertices: int, edges: Sequence[tuple[int, int]]) -> None:
        self.vertices = vertices
        self.edges = edges
        self.active = list(range(len(edges)))
        self.carried = [0] * len(edges)  # the previous stages' optimality weight, per edge
        self.found: dict[int, int] = {}  # the last solve's matching
        self.fixed: dict[int, int] = {}  # pairs every optimal matching holds, set aside
        self.skip = 0

    def mate(self) -> list[int]:
        mate = [-1] * self.vertices
        for x, y in (*self.found.items(), *self.fixed.items()):
            mate[x] = y
        return mate

    def solve(self, stages: Sequence[Stage]) -> None:
        edges, carried, fixed = self.edges, self.carried, self.fixed
        for stage in stages:
            values, width = stage[0], stage[1]
            if self.skip:
                self.skip -= 1
                continue
            active = self.active
            weighted = [(carried[k] << width) + values[k] for k in active]
            if not any(weighted):
                continue
            present = sorted({x for k in active for x in edges[k]})
            local = {v: i for i, v in enumerate(present)}
            solver = _Blossoms(len(present), [(local[edges[k][0]], local[edges[k][1]], w)
                                              for k, w in zip(active, weighted, strict=True)])
            found = self.found = {present[i]: present[j] for i, j in enumerate(solver.solve()) if j != -1}
            settles = stage[2] if len(stage) > 2 else None
            if settles is not None:
                total = sum(values[k] for k in active if found.get(edges[k][0]) == edges[k][1])
                self.skip = settles[1] if total == settles[0] else 0
            kept = []
            for k, optimal in zip(active, solver.optimality(), strict=True):
                if optimal is not None:
                    kept.append(k)
                    carried[k] = optimal
            covered = {present[i] for i in range(len(present)) if solver.dual[i] > 0}
            decided = stage[3] if len(stage) > 3 else ()
            if decided:
                held = {x for k in decided if found.get(edges[k][0], -1) == edges[k][1] for x in edges[k]}
                for x in held:
                    fixed[x] = found[x]
                kept = [k for k in kept if edges[k][0] not in held and edges[k][1] not in held]
            self.active = _without_forced_pairs(edges, kept, covered, fixed)


def _without_forced_pairs(
    edges: Sequence[tuple[int, int]], active: list[int], covered: set[int], fixed: dict[int, int]
) -> list[int]:
    """The edges still in play once the pairs every optimal matching holds are set aside: a
    vertex that every optimal matching covers (``covered``) and that has one edge left is
    matched along it; its partner's other edges go, which may leave another such vertex.
    The pairs go into ``fixed``."""
    at: dict[int, list[int]] = {}
    for k in active:
        for x in edges[k]:
            at.setdefault(x, []).append(k)
    gone: set[int] = set()
    degree = {x: len(ks) for x, ks in at.items()}
    queue = [x for x in covered if degree.get(x) == 1]
    while queue:
        x = queue.pop()
        if degree.get(x) != 1:
            continue
        (k,) = (k for k in at[x] if k not in gone)
        a, b = edges[k]
        fixed[a], fixed[b] = b, a
        for y in edges[k]:
            degree[y] = 0
            for other in at[y]:
                if other in gone:
                    continue
                gone.add(other)
                z = edges[other][0] if edges[other][1] == y else edges[other][1]
                if degree.get(z):
                    degree[z] -= 1
                    if degree[z] == 1 and z in covered:
                        queue.append(z)
    return [k for k in active if k not in gone]


class _Blossoms:
    """The state of one solve.  Blossoms are numbered ``vertices .. 2*vertices-1``;
    an edge k has the endpoints ``2k`` (at ``u``) and ``2k+1`` (at ``v``)."""

    def __init__(self, n: int, edges: list[tuple[int, int, int]]) -> None:
        self.n = n
        self.edges = edges
        self.endpoint = [x for u, v, _ in edges for x in (u, v)]
        self.weight2 = [2 * w for _, _, w in edges]
        self.eu = [u for u, _, _ in edges]
        self.ev = [v for _, v, _ in edges]
        self.neighbour_ends: list[list[int]] = [[] for _ in range(n)]
        for k, (u, v, _) in enumerate(edges):
            self.neighbour_ends[u].append(2 * k + 1)
            self.neighbour_ends[v].append(2 * k)
        # per vertex, (remote endpoint, edge, neighbour, doubled weight): the scan reads these
        self.adjacent = [[(p, p >> 1, self.endpoint[p], self.weight2[p >> 1]) for p in ends]
                         for ends in self.neighbour_ends]
        top = max(w for _, _, w in edges)
        self.mate = [-1] * n  # remote endpoint index of the matched edge
        self.label = [0] * (2 * n)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        self.base = list(range(n)) + [-1] * n
        self.endps: list[list[int]] = [[] for _ in range(2 * n)]
        self.bestedge = [-1] * (2 * n)
        self.bestslack = [0] * (2 * n)  # bestedge's slack, valid while bestversion is the dual version
        self.bestversion = [-1] * (2 * n)
        self.version = 0  # the dual step count
        self.bestedges: list[list[int] | None] = [None] * (2 * n)
        self.unused = list(range(n, 2 * n))
        self.dual = [top] * n + [0] * n  # vertex duals as 2u, blossom duals as z
        self.allowed = [False] * len(edges)
        self.queue: list[int] = []

    # -- helpers -------------------------------------------------------------------------

    def slack(self, k: int) -> int:
        return self.dual[self.eu[k]] + self.dual[self.ev[k]] - self.weight2[k]

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        out: list[int] = []
        stack = [b]
        n = self.n
        childs = self.childs
        while stack:
            x = stack.pop()
            for c in childs[x]:
                if c < n:
                    out.append(c)
                else:
                    stack.append(c)
        return out

    def assign_label(self, w: int, t: int, p: int) -> None:
        while True:
            b = self.inblossom[w]
            self.label[w] = self.label[b] = t
            self.labelend[w] = self.labelend[b] = p
            self.bestedge[w] = self.bestedge[b] = -1
            if t == _S:
                self.queue.extend(self.leaves(b))
                return
            base = self.base[b]
            mate = self.mate[base]
            w, t, p = self.endpoint[mate], _S, mate ^ 1

    def scan_blossom(self, v: int, w: int) -> int:
        """The base of the blossom closed by edge v-w, or -1 when the two trees differ."""
        path = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & _MARK:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = _S | _MARK
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = _S
        return base

    def add_blossom(self, base: int, k: int) -> None:
        u, w, _ = self.edges[k]
        inblossom = self.inblossom
        bb = inblossom[base]
        bv = inblossom[u]
        bw = inblossom[w]
        b = self.unused.pop()
        self.base[b] = base
        self.parent[b] = -1
        self.parent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            u = self.endpoint[self.labelend[bv]]
            bv = inblossom[u]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            w = self.endpoint[self.labelend[bw]]
            bw = inblossom[w]
        self.childs[b] = path
        self.endps[b] = endps
        self.label[b] = _S
        self.labelend[b] = self.labelend[bb]
        self.dual[b] = 0
        for x in self.leaves(b):
            if self.label[inblossom[x]] == _T:
                self.queue.append(x)
            inblossom[x] = b
        # best edges from the new blossom to other S-blossoms
        best_to = [-1] * (2 * self.n)
        best_slack = [0] * (2 * self.n)
        for child in path:
            if self.bestedges[child] is None:
                lists = [[p // 2 for p in self.neighbour_ends[x]] for x in self.leaves(child)]
            else:
                lists = [self.bestedges[child]]  # type: ignore[list-item]
            for ks in lists:
                for kk in ks:
                    i, j, _ = self.edges[kk]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if bj != b and self.label[bj] == _S:
                        s = self.slack(kk)
                        if best_to[bj] == -1 or s < best_slack[bj]:
                            best_to[bj] = kk
                            best_slack[bj] = s
            self.bestedges[child] = None
            self.bestedge[child] = -1
        chosen = [kk for kk in best_to if kk != -1]
        self.bestedges[b] = chosen
        self.bestversion[b] = -1
        best = -1
        best_s = 0
        for kk in chosen:
            s = self.slack(kk)
            if best == -1 or s < best_s:
                best, best_s = kk, s
        self.bestedge[b] = best

    def expand_blossom(self, b: int, endstage: bool) -> None:
        for s in self.childs[b]:
            self.parent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            elif endstage and self.dual[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for x in self.leaves(s):
                    self.inblossom[x] = s
        if not endstage and self.label[b] == _T:
            # relabel the children on the even path from the entry child to the base
            entry = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
            childs = self.childs[b]
            endps = self.endps[b]
            j = childs.index(entry)
            if j & 1:
                j -= len(childs)
                step, trick = 1, 0
            else:
                step, trick = -1, 1
            p = self.labelend[b]
            while j != 0:
                self.label[self.endpoint[p ^ 1]] = 0
                self.label[self.endpoint[endps[j - trick] ^ trick ^ 1]] = 0
                self.assign_label(self.endpoint[p ^ 1], _T, p)
                self.allowed[endps[j - trick] // 2] = True
                j += step
                p = endps[j - trick] ^ trick
                self.allowed[p // 2] = True
                j += step
            bv = childs[j]
            self.label[self.endpoint[p ^ 1]] = self.label[bv] = _T
            self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
            self.bestedge[bv] = -1
            j += step
            while childs[j] != entry:
                bv = childs[j]
                if self.label[bv] == _S:
                    j += step
                    continue
                reached = next((x for x in self.leaves(bv) if self.label[x] != 0), -1)
                if reached != -1:
                    self.label[reached] = 0
                    self.label[self.endpoint[self.mate[self.base[bv]]]] = 0
                    self.assign_label(reached, _T, self.labelend[reached])
                j += step
        self.label[b] = self.labelend[b] = -1
        self.childs[b] = []
        self.endps[b] = []
        self.base[b] = -1
        self.bestedges[b] = None
        self.bestedge[b] = -1
        self.unused.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs = self.childs[b]
        endps = self.endps[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            step, shift = 1, 0
        else:
            step, shift = -1, 1
        while j != 0:
            j += step
            t = childs[j]
            p = endps[j - shift] ^ shift
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p])
            j += step
            t = childs[j]
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.childs[b] = childs[i:] + childs[:i]
        self.endps[b] = endps[i:] + endps[:i]
        self.base[b] = self.base[self.childs[b][0]]

    def augment_matching(self, k: int) -> None:
        v, w, _ = self.edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = self.inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if self.labelend[bs] == -1:
                    break
                t = self.endpoint[self.labelend[bs]]
                bt = self.inblossom[t]
                s = self.endpoint[self.labelend[bt]]
                j = self.endpoint[self.labelend[bt] ^ 1]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = self.labelend[bt]
                p = self.labelend[bt] ^ 1

    # -- after the solve: what an optimal matching may use -----------------------------------

    def optimality(self) -> list[int | None]:
        """Per edge: None when it has a positive reduced cost (no optimal matching uses it),
        else its weight in a matching that is greatest exactly for the optimal matchings: one
        per end of positive dual, one per blossom of positive dual holding both ends."""
        dual, eu, ev, w2 = self.dual, self.eu, self.ev, self.weight2
        chains = [self._chain(v) for v in range(self.n)]
        found: list[int | None] = []
        for k in range(len(self.edges)):
            u, v = eu[k], ev[k]
            slack = dual[u] + dual[v] - w2[k]
            weight = (dual[u] > 0) + (dual[v] > 0)
            chain_u, chain_v = chains[u], chains[v]
            if chain_u and chain_v:
                for x, y in zip(chain_u, chain_v, strict=False):
                    if x != y:
                        break
                    slack += 2 * dual[x]
                    weight += dual[x] > 0
            found.append(None if slack else weight)
        return found

    def _chain(self, v: int) -> list[int]:
        """The blossoms holding vertex v, outermost first."""
        found = []
        b = self.parent[v]
        while b != -1:
            found.append(b)
            b = self.parent[b]
        found.reverse()
        return found

    # -- the main loop -------------------------------------------------------------------

    def warm_start(self) -> None:
        """Start from a maximum-cardinality matching of the edges of greatest weight: they are
        tight under the starting duals (every vertex at half the greatest weight), so the
        matching, the duals and the equal duals of the free vertices are what a later stage of
        the method could have reached; each edge matched here is an augmentation (a scan of
        the whole graph) saved."""
        top2 = max(self.weight2)
        n = self.n
        adj: list[list[int]] = [[] for _ in range(n)]
        edge_of: dict[tuple[int, int], int] = {}
        for k, w2 in enumerate(self.weight2):
            if w2 == top2:
                u, v = self.eu[k], self.ev[k]
                adj[u].append(v)
                adj[v].append(u)
                edge_of[(u, v)] = edge_of[(v, u)] = k
        mate = self.mate
        for u, v in enumerate(maximum_matching(n, adj)):
            if u < v:
                k = edge_of[(u, v)]
                mate[u], mate[v] = (2 * k + 1, 2 * k) if self.eu[k] == u else (2 * k, 2 * k + 1)

    def solve(self) -> list[int]:
        n = self.n
        endpoint = self.endpoint
        inblossom = self.inblossom
        label = self.label
        self.warm_start()
        for _stage in range(n):
            for i in range(2 * n):
                label[i] = 0
                self.bestedge[i] = -1
            for i in range(n, 2 * n):
                self.bestedges[i] = None
            self.allowed = [False] * len(self.edges)
            allowed = self.allowed
            self.queue = []
            for v in range(n):
                if self.mate[v] == -1 and label[inblossom[v]] == 0:
                    self.assign_label(v, _S, -1)
            augmented = False
            while True:
                dual = self.dual
                eu, ev, w2 = self.eu, self.ev, self.weight2
                bestedge = self.bestedge
                bestslack, bestversion, version = self.bestslack, self.bestversion, self.version
                while self.queue and not augmented:
                    v = self.queue.pop()
                    bv = inblossom[v]
                    dv = dual[v]
                    for p, k, w, wk in self.adjacent[v]:
                        bw = inblossom[w]
                        if bv == bw:
                            continue
                        tight = allowed[k]
                        if not tight:
                            kslack = dv + dual[w] - wk
                            if kslack <= 0:
                                allowed[k] = tight = True
                        if tight:
                            if label[bw] == 0:
                                self.assign_label(w, _T, p ^ 1)
                                bv = inblossom[v]
                            elif label[bw] == _S:
                                base = self.scan_blossom(v, w)
                                if base >= 0:
                                    self.add_blossom(base, k)
                                    bv = inblossom[v]
                                else:
                                    self.augment_matching(k)
                                    augmented = True
                                    break
                            elif label[w] == 0:
                                label[w] = _T
                                self.labelend[w] = p ^ 1
                        elif label[bw] == _S:
                            e = bestedge[bv]
                            if e == -1 or kslack < (bestslack[bv] if bestversion[bv] == version
                                                    else dual[eu[e]] + dual[ev[e]] - w2[e]):
                                bestedge[bv] = k
                                bestslack[bv] = kslack
                                bestversion[bv] = version
                        elif label[w] == 0:
                            e = bestedge[w]
                            if e == -1 or kslack < (bestslack[w] if bestversion[w] == version
                                                    else dual[eu[e]] + dual[ev[e]] - w2[e]):
                                bestedge[w] = k
                                bestslack[w] = kslack
                                bestversion[w] = version
                if augmented:
                    break
                # the dual step
                delta_type = 1
                delta = min(dual[:n])
                delta_edge = -1
                delta_blossom = -1
                parent = self.parent
                for v in range(n):
                    e = bestedge[v]
                    if e != -1 and label[inblossom[v]] == 0:
                        d = dual[eu[e]] + dual[ev[e]] - w2[e]
                        if d < delta:
                            delta, delta_type, delta_edge = d, 2, e
                for b in range(2 * n):
                    e = bestedge[b]
                    if e != -1 and label[b] == _S and parent[b] == -1:
                        d = (dual[eu[e]] + dual[ev[e]] - w2[e]) // 2
                        if d < delta:
                            delta, delta_type, delta_edge = d, 3, e
                for b in range(n, 2 * n):
                    if self.base[b] >= 0 and self.parent[b] == -1 and label[b] == _T and self.dual[b] < delta:
                        delta, delta_type, delta_blossom = self.dual[b], 4, b
                for v in range(n):
                    lv = label[inblossom[v]]
                    if lv == _S:
                        dual[v] -= delta
                    elif lv == _T:
                        dual[v] += delta
                for b in range(n, 2 * n):
                    if self.base[b] >= 0 and self.parent[b] == -1:
                        if label[b] == _S:
                            dual[b] += delta
                        elif label[b] == _T:
                            dual[b] -= delta
                self.version += 1
                if delta_type == 1:
                    break
                if delta_type == 2:
                    allowed[delta_edge] = True
                    i, j, _ = self.edges[delta_edge]
                    if label[inblossom[i]] == 0:
                        i, j = j, i
                    self.queue.append(i)
                elif delta_type == 3:
                    allowed[delta_edge] = True
                    i, _j, _ = self.edges[delta_edge]
                    self.queue.append(i)
                else:
                    self.expand_blossom(delta_blossom, False)
            if not augmented:
                break
            for b in range(n, 2 * n):
                if self.parent[b] == -1 and self.base[b] >= 0 and label[b] == _S and self.dual[b] == 0:
                    self.expand_blossom(b, True)
        return [endpoint[p] if p != -1 else -1 for p in self.mate]
