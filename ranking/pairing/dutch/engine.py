"""Pairing one round by the FIDE Dutch system (C.04.3, 2026): bracket by bracket, top down.

Each bracket is paired by maximum-weight matchings whose integer weights pack the criteria
as bit fields, most significant first (the "equivalent global matching formulation" of
docs/rules.md#the-matching-formulation): every matching of greatest weight is then a candidate
that is best on C4-C21 and, among those, the first one Art. 4 would generate.

- *Relaxed* solve: the graph holds the bracket and the next scoregroup only (enough for
  C6-C21, C8 looks one bracket ahead).  Its result stands when the players still to pair
  below can be completed (C4, C5); otherwise the bracket is solved again on the graph of
  all players not yet paired, with completion and the PAB on top of every other field.
- Solve A picks the MDP-pairing of a heterogeneous bracket (C.04.3 3.7: MDP set, then S2
  transposition); solve B pairs the homogeneous bracket or the remainder (3.6: exchange,
  then transposition).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ranking.pairing.dutch.colours import Preference, Strength, allocate, preference
from ranking.pairing.dutch.completion import complete_pairing, maximum_matching
from ranking.pairing.dutch.matching import lexicographic_matching
from ranking.pairing.dutch.state import Float, PlayerState, RoundState

__all__ = ["NoPairing", "RoundPairing", "pair_players"]


class NoPairing(Exception):
    """No pairing complies with C1-C3 and completion (1.9.3: the arbiter decides)."""

    def __init__(self, players: tuple[int, ...], reason: str) -> None:
        super().__init__(reason)
        self.players = players
        self.reason = reason


@dataclass(frozen=True)
class RoundPairing:
    """Pairs as (white, black) ids in board order, and the PAB recipient (or None)."""

    boards: tuple[tuple[int, int], ...]
    bye: int | None


# ---------------------------------------------------------------------------------------
# Round context: compatibility (C1, C3), colours (Art. 5), PAB eligibility (C2, C5)
# ---------------------------------------------------------------------------------------


class _Round:
    def __init__(self, rs: RoundState) -> None:
        self.rs = rs
        self.players = list(rs.players)
        self.order = {p.id: k for k, p in enumerate(self.players)}
        self.pref: dict[int, Preference] = {p.id: preference(p.colours) for p in self.players}
        self.initial = rs.initial_colour
        self.acceptable: set[int] = set()  # who may get the PAB (C2 and C5), when odd
        self._compatible: dict[tuple[int, int], bool] = {}
        self._colours: dict[tuple[int, int], tuple[int, int, int, int]] = {}

    def higher(self, a: PlayerState, b: PlayerState) -> tuple[PlayerState, PlayerState]:
        return (a, b) if self.order[a.id] < self.order[b.id] else (b, a)

    def compatible(self, a: int, b: int) -> bool:
        """C1 (not met, not a forbidden pair) and C3 (not two non-topscorers with the same
        absolute colour preference)."""
        key = (a, b) if a < b else (b, a)
        found = self._compatible.get(key)
        if found is None:
            pa, pb = self.rs.by_id[a], self.rs.by_id[b]
            found = b not in pa.opponents and frozenset(key) not in self.rs.forbidden
            if found:
                qa, qb = self.pref[a], self.pref[b]
                if (
                    qa.strength is Strength.ABSOLUTE
                    and qb.strength is Strength.ABSOLUTE
                    and qa.colour == qb.colour
                    and not (pa.topscorer or pb.topscorer)
                ):
                    found = False
            self._compatible[key] = found
        return found

    def white_of(self, a: PlayerState, b: PlayerState) -> int:
        """Who gets white in the pair a-b (Art. 5)."""
        high, low = self.higher(a, b)
        colour = allocate(high.colours, low.colours, high.rank_number, self.initial)
        return high.id if colour == "W" else low.id

    def colour_failures(self, a: PlayerState, b: PlayerState) -> tuple[int, int, int, int]:
        """(C10, C11, C12, C13) failures of the pair a-b with colours as Art. 5 gives them."""
        key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        found = self._colours.get(key)
        if found is not None:
            return found
        white = self.white_of(a, b)
        c10 = c11 = 0
        for p in (a, b):
            colour = "W" if p.id == white else "B"
            cd = self.pref[p.id].difference + (1 if colour == "W" else -1)
            if cd > 2 or cd < -2:
                c10 += 1
            if len(p.colours) >= 2 and p.colours[-1] == p.colours[-2] == colour:
                c11 += 1
        qa, qb = self.pref[a.id], self.pref[b.id]
        same = bool(qa.colour) and qa.colour == qb.colour
        c12 = 1 if same else 0
        c13 = (
            1
            if same
            and min(qa.strength, qb.strength) >= Strength.STRONG
            and not (qa.strength is Strength.ABSOLUTE and qb.strength is Strength.ABSOLUTE)
            else 0
        )
        found = (c10, c11, c12, c13)
        self._colours[key] = found
        return found

    def may_get_bye(self, pid: int) -> bool:
        """C2 and C5: an eligible player of the lowest score a complete pairing allows."""
        return pid in self.acceptable


# ---------------------------------------------------------------------------------------
# Bit fields
# ---------------------------------------------------------------------------------------

#: An edge class: a pair in the bracket, a pair of the next bracket, or completion only.
_BB, _BN, _NN, _X = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class _Edge:
    u: PlayerState  # the higher-ranked player
    v: PlayerState
    kind: int


@dataclass(frozen=True)
class _Group:
    """Terms solved apart from the others (``_Bracket.solve``); ``settles``: (bound, n) when
    every candidate that reaches ``bound`` on these terms is equal on the ``n`` groups after."""

    terms: list[_Term]
    settles: tuple[int, int] | None = None


class _Term:
    """One or more adjacent fields: ``totals[i]`` bounds the sum of field i over a matching;
    ``value(edge)`` yields (field, value) contributions.  ``decisive``: every field takes
    distinct values on edges of one vertex, so its best total names the one edge that gives
    it, and a matching best on the field holds that edge (a generation order's partner)."""

    __slots__ = ("decisive", "totals", "value")

    def __init__(
        self, totals: Sequence[int], value: Callable[[_Edge], Iterable[tuple[int, int]]], decisive: bool = False
    ) -> None:
        self.totals = list(totals)
        self.value = value
        self.decisive = decisive


def _one(total: int, fn: Callable[[_Edge], int]) -> _Term:
    return _Term([total], lambda e: ((0, fn(e)),))


#: The bits one solve packs at most (a wider field is a solve of its own): Python integers of
#: a few machine words keep the matcher fast, whatever the number of criteria.
STAGE_BITS = 600


def _stages(
    edges: list[_Edge], terms: list[_Term], budget: int = STAGE_BITS
) -> list[tuple[list[int], int, list[int]]]:
    """The terms' fields, the first most significant, cut into stages of at most ``budget``
    bits: per stage, each edge's packed value, the stage's width and the edges a decisive
    term's field of the stage gives a value to (``lexicographic_matching``)."""
    fields = [(t, i, max(1, total.bit_length())) for t, term in enumerate(terms) for i, total in enumerate(term.totals)]
    groups: list[list[tuple[int, int, int]]] = []
    width = 0
    for field in fields:
        if not groups or width + field[2] > budget:
            groups.append([])
            width = 0
        groups[-1].append(field)
        width += field[2]
    where: dict[tuple[int, int], tuple[int, int]] = {}  # (term, field) -> (stage, shift)
    widths = []
    for g, group in enumerate(groups):
        shift = 0
        for t, i, w in reversed(group):
            where[(t, i)] = (g, shift)
            shift += w
        widths.append(shift)
    values = [[0] * len(edges) for _ in groups]
    decided: list[list[int]] = [[] for _ in groups]
    for k, e in enumerate(edges):
        for t, term in enumerate(terms):
            for field, value in term.value(e):
                if value:
                    g, shift = where[(t, field)]
                    values[g][k] += value << shift
                    if term.decisive:
                        decided[g].append(k)
    return list(zip(values, widths, decided, strict=True))


# ---------------------------------------------------------------------------------------
# One bracket
# ---------------------------------------------------------------------------------------


@dataclass
class _Sides:
    """The players of one solve, by role."""

    mdps: list[PlayerState]  # MDPs that may still be paired in the bracket
    residents: list[PlayerState]  # residents that may still be paired in the bracket
    limbo: list[PlayerState]  # bracket players bound to float (next-bracket pairs only)
    nxt: list[PlayerState]  # residents of the next scoregroup
    lower: list[PlayerState]  # everyone below (full solves only)
    full: bool
    c9: bool  # the bracket downfloats one player, who gets the PAB: C9 applies


def _both(e: _Edge, test: Callable[[PlayerState], bool]) -> int:
    """How many of a bracket pair's two players pass ``test`` (0 for other edges)."""
    return test(e.u) + test(e.v) if e.kind == _BB else 0


def _levels(players: Iterable[PlayerState]) -> list[Fraction]:
    return sorted({p.score for p in players}, reverse=True)


class _Bracket:
    def __init__(self, rnd: _Round, sides: _Sides) -> None:
        self.r = rnd
        self.s = sides
        self.mdp_ids = {p.id for p in sides.mdps}
        self.res_ids = {p.id for p in sides.residents}
        self.limbo_ids = {p.id for p in sides.limbo}
        self.nxt_ids = {p.id for p in sides.nxt}
        self.graph = [*sides.mdps, *sides.residents, *sides.limbo, *sides.nxt, *(sides.lower if sides.full else [])]
        self.edges = self._edges()

    def _kind(self, a: PlayerState, b: PlayerState) -> int:
        """A pair of the bracket (MDP-resident or resident-resident, 3.3), of the next
        bracket (C8), or one that only counts for completion (C4): MDPs are never paired
        with each other in a bracket (3.2: S1 holds MDPs, S2 residents)."""
        in_b = self.mdp_ids | self.res_ids
        if a.id in in_b and b.id in in_b:
            if a.id in self.mdp_ids and b.id in self.mdp_ids:
                return _X
            return _BB
        side = in_b | self.limbo_ids
        if (a.id in side and b.id in self.nxt_ids) or (b.id in side and a.id in self.nxt_ids):
            return _BN
        if a.id in self.nxt_ids and b.id in self.nxt_ids:
            return _NN
        return _X

    def _edges(self) -> list[_Edge]:
        r = self.r
        edges = []
        g = self.graph
        full = self.s.full
        for i in range(len(g)):
            a = g[i]
            for j in range(i + 1, len(g)):
                b = g[j]
                if not r.compatible(a.id, b.id):
                    continue
                kind = self._kind(a, b)
                if kind == _X and not full:
                    continue
                u, v = r.higher(a, b)
                edges.append(_Edge(u, v, kind))
        return edges

    # -- the criteria, most significant first ----------------------------------------------

    def criteria(self) -> list[_Term]:
        """The fields of C4-C21 (C.04.3 2.2-2.4), most significant first.

        Readings (docs/rules.md#where-engines-differ, as bbpPairings v6 reads them): C8 counts
        the next bracket's pairs, then its paired players' scores; C9 applies to a bracket whose
        only downfloater gets the PAB (``_pair_bracket``); C10/C11 count every player (after C3 only pairs with
        a topscorer can fail them); C13 fails a pair whose two players prefer the same colour
        at least strongly, unless both absolutely; C18/C20 count an unpaired MDP as a
        larger score difference than any pair's.
        """
        s, r = self.s, self.r
        bracket = [*s.mdps, *s.residents]
        nb = len(bracket)
        terms: list[_Term] = []
        if s.full:
            everyone = len(self.graph)
            terms.append(_one(everyone // 2 + 1, lambda e: 1))  # C4: completion
            if everyone % 2:
                terms.append(_one(everyone, lambda e: (e.u.id not in r.acceptable) + (e.v.id not in r.acceptable)))
        terms.append(_one(nb // 2 + 1, lambda e: 1 if e.kind == _BB else 0))  # C6
        # C7: scores of the downfloaters, i.e. as many paired players of the higher scores
        resident_level = s.residents[0].score if s.residents else None
        for level in _levels(s.mdps):
            count = sum(1 for p in s.mdps if p.score == level)
            terms.append(_one(count, lambda e, lv=level: _both(e, lambda x, lv=lv: x.score == lv)))
        # C8: the next bracket, as many pairs and then as high paired scores as possible
        if s.nxt:
            floaters = [*bracket, *s.limbo]
            terms.append(_one((len(floaters) + len(s.nxt)) // 2 + 1, lambda e: 1 if e.kind in (_BN, _NN) else 0))
            for level in _levels(floaters):
                count = sum(1 for p in floaters if p.score == level)
                terms.append(_one(count, lambda e, lv=level: (e.u.score == lv) if e.kind == _BN else 0))
        # C9: the PAB assignee with as few unplayed games as possible, when it is this bracket's
        # only downfloater
        if s.c9:
            acceptable = r.acceptable
            total = sum(p.unplayed for p in [*bracket, *s.limbo] if p.id in acceptable)
            if total:
                terms.append(_one(total, lambda e: (e.u.unplayed if e.u.id in acceptable else 0)
                                  + (e.v.unplayed if e.v.id in acceptable else 0)))
        # C10-C13: colours
        pairs = nb // 2 + 1
        for k in range(4):
            if k < 2 and not any(p.topscorer for p in bracket):
                continue
            terms.append(_one(pairs, lambda e, k=k: (1 - r.colour_failures(e.u, e.v)[k]) if e.kind == _BB else 0))
        # C14-C17: floats of the rounds before
        for back in (1, 2):
            down = [p for p in s.residents if p.float_in(back) is Float.DOWN]
            if down:
                ids = {p.id for p in down}
                terms.append(_one(len(down), lambda e, ids=ids: _both(e, lambda x, ids=ids: x.id in ids)))
            up = {p.id for p in s.residents if p.float_in(back) is Float.UP}
            if s.mdps and up:
                terms.append(_one(pairs, lambda e, up=up: self._not_opponent_in(e, up)))
        # C18-C21: score differences of MDPs and their opponents with floats before
        if s.mdps and resident_level is not None:
            for back in (1, 2):
                down = {p.id for p in s.mdps if p.float_in(back) is Float.DOWN}
                if down:
                    terms.append(_one(len(down), lambda e, d=down: self._mdp_floated(e, d)))
                    for level in _levels(s.mdps):
                        terms.append(_one(pairs, lambda e, d=down, lv=level: self._not_diff(e, d, lv, own=True)))
                up = {p.id for p in s.residents if p.float_in(back) is Float.UP}
                if up:
                    for level in _levels(s.mdps):
                        terms.append(_one(pairs, lambda e, d=up, lv=level: self._not_diff(e, d, lv, own=False)))
        return terms

    def _not_opponent_in(self, e: _Edge, floated: set[int]) -> int:
        if e.kind != _BB:
            return 0
        return 0 if self._mdp_pair(e) and e.v.id in floated else 1

    def _mdp_floated(self, e: _Edge, floated: set[int]) -> int:
        return int(e.kind == _BB and self._mdp_pair(e) and e.u.id in floated)

    def _mdp_pair(self, e: _Edge) -> bool:
        return e.u.id in self.mdp_ids and e.v.id in self.res_ids

    def _not_diff(self, e: _Edge, floated: set[int], level: Fraction, own: bool) -> int:
        if e.kind != _BB:
            return 0
        if not self._mdp_pair(e):
            return 1
        who = e.u.id if own else e.v.id
        return 0 if (who in floated and e.u.score == level) else 1

    # -- generation order (Art. 4) --------------------------------------------------------

    def mdp_order(self) -> list[_Group]:
        """4.4 MDP sets (smallest differing BSN first), then 4.2 transpositions of S2."""
        s = self.s
        m0 = len(s.mdps)
        bsn = {p.id: k for k, p in enumerate(s.mdps, start=1)}
        rank = {p.id: k for k, p in enumerate(s.residents)}
        nres = len(s.residents)

        def chosen(e: _Edge) -> int:
            return 1 << (m0 - bsn[e.u.id]) if e.kind == _BB and self._mdp_pair(e) else 0

        def partner(e: _Edge) -> Iterable[tuple[int, int]]:
            if e.kind == _BB and self._mdp_pair(e):
                yield bsn[e.u.id] - 1, nres - rank[e.v.id]

        return [_Group([_one(1 << m0, chosen)]), _Group([_Term([nres] * m0, partner, decisive=True)])]

    def homogeneous_order(self, pairs: int) -> list[_Group]:
        """3.6 / 4.3 exchanges (fewest players, smallest BSN-sum difference, highest moved
        from S1, lowest moved from S2), then 4.2 transpositions, for S1 = the first
        ``pairs`` residents.  For a candidate, S1 holds the lower BSN of each pair."""
        s = self.s
        h = len(s.residents)
        bsn = {p.id: k for k, p in enumerate(s.residents, start=1)}

        def ends(e: _Edge) -> tuple[int, int] | None:
            if e.kind != _BB or e.u.id not in bsn or e.v.id not in bsn:
                return None
            a, b = bsn[e.u.id], bsn[e.v.id]
            return (a, b) if a < b else (b, a)

        def k_in_s1(e: _Edge) -> int:
            ab = ends(e)
            return 1 if ab and ab[0] <= pairs else 0

        def low_sum(e: _Edge) -> int:
            ab = ends(e)
            return h - ab[0] + 1 if ab else 0

        def kept(e: _Edge) -> int:
            ab = ends(e)
            if not ab:
                return 0
            return (1 << h) - (1 << ab[0]) if ab[0] <= pairs else 1 << h

        def moved_in(e: _Edge) -> int:
            ab = ends(e)
            return 1 << (h - ab[0]) if ab and ab[0] > pairs else 0

        def partner(e: _Edge) -> Iterable[tuple[int, int]]:
            ab = ends(e)
            if ab:
                yield ab[0] - 1, h - ab[1] + 1

        # Fewest players exchanged first: when no exchange is needed (every pair has a player of S1),
        # S1 itself is the set of lower BSNs, and the three exchange criteria are settled.
        return [
            _Group([_one(pairs, k_in_s1)], settles=(pairs, 3)),
            _Group([_one(pairs * (h + 1), low_sum)]),
            _Group([_one(pairs << (h + 1), kept)]),
            _Group([_one(1 << (h + 1), moved_in)]),
            _Group([_Term([h + 1] * h, partner, decisive=True)]),
        ]

    def solve(
        self, *groups: _Group, then: Callable[[dict[int, int]], Sequence[_Group]] | None = None
    ) -> dict[int, int]:
        """A matching of greatest weight: the best candidate, first in Art. 4 order (3.8).

        ``groups`` are most significant first; a group's fields are packed into stages of
        their own (``_stages``), so that the criteria are solved apart from the generation
        order, whose fine-grained weights would make that solve slow.  A group that
        ``settles`` the groups after it, once its total reaches the bound, spares their stages.
        ``then``, given the matching ``groups`` found, names groups solved after them (a
        generation order that depends on how many pairs the criteria allow).
        """
        index = {p.id: k for k, p in enumerate(self.graph)}

        def ids(mate: list[int]) -> dict[int, int]:
            return {self.graph[k].id: self.graph[m].id for k, m in enumerate(mate) if m != -1}

        more = None if then is None else lambda mate: self._stages(then(ids(mate)))
        edges = [(index[e.u.id], index[e.v.id]) for e in self.edges]
        return ids(lexicographic_matching(len(self.graph), edges, self._stages(groups), more))

    def _stages(self, groups: Sequence[_Group]) -> list[tuple[list[int], int, tuple[int, int] | None, list[int]]]:
        per_group = [_stages(self.edges, group.terms) for group in groups]
        stages: list[tuple[list[int], int, tuple[int, int] | None, list[int]]] = []
        for g, (group, made) in enumerate(zip(groups, per_group, strict=True)):
            stages += [(values, width, None, decided) for values, width, decided in made]
            if group.settles is not None and made:
                bound, count = group.settles
                skipped = sum(len(later) for later in per_group[g + 1 : g + 1 + count])
                values, width, _, decided = stages[-1]
                stages[-1] = (values, width, (bound, skipped), decided)
        return stages


def _bracket_pairs(mate: dict[int, int], ids: set[int]) -> list[tuple[int, int]]:
    return [(a, b) for a, b in mate.items() if a < b and a in ids and b in ids]


def _max_pairs(rnd: _Round, players: list[PlayerState]) -> int:
    """MaxPairs (C.04.3 3.1): the most pairs C1 and C3 allow among ``players``."""
    n = len(players)
    adj: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if rnd.compatible(players[i].id, players[j].id):
                adj[i].append(j)
                adj[j].append(i)
    mate = maximum_matching(n, adj)
    return sum(1 for m in mate if m != -1) // 2


def _pair_bracket(
    rnd: _Round,
    mdps: list[PlayerState],
    residents: list[PlayerState],
    nxt: list[PlayerState],
    lower: list[PlayerState],
) -> tuple[list[tuple[int, int]], list[PlayerState]]:
    """The pairs of one bracket and its downfloaters (C.04.3 3).

    C9 (the PAB assignee with the fewest unplayed games) applies to a bracket whose only
    downfloater gets the PAB: when nobody below may get it (C2, C5), a single downfloater of
    this bracket is the PAB assignee.  The bracket is paired without C9 first; if it then
    downfloats one player (C6 fixes how many), it is paired again with C9.
    """
    holds_pab = _holds_pab(rnd, [*mdps, *residents], [*nxt, *lower])
    if not nxt:  # the last bracket: its downfloater, if any, is the PAB assignee
        return _solve_bracket(rnd, mdps, residents, nxt, lower, holds_pab)
    found = _solve_bracket(rnd, mdps, residents, nxt, lower, False)
    if holds_pab and len(found[1]) == 1:
        found = _solve_bracket(rnd, mdps, residents, nxt, lower, True)
    return found


def _holds_pab(rnd: _Round, bracket: list[PlayerState], below: list[PlayerState]) -> bool:
    """Whether the PAB assignee is a player of ``bracket`` whose choice C9 can change: the
    players are odd, nobody ``below`` may get the PAB, and the bracket's players who may get
    it have not all had the same number of unplayed games."""
    acceptable = rnd.acceptable
    if not acceptable or any(p.id in acceptable for p in below):
        return False
    return len({p.unplayed for p in bracket if p.id in acceptable}) > 1


def _solve_bracket(
    rnd: _Round,
    mdps: list[PlayerState],
    residents: list[PlayerState],
    nxt: list[PlayerState],
    lower: list[PlayerState],
    c9: bool,
) -> tuple[list[tuple[int, int]], list[PlayerState]]:
    """A relaxed solve when the players below can then be completed, else a full one."""
    full = not nxt or not lower
    found = _try_bracket(rnd, mdps, residents, nxt, lower, full, c9)
    if found is None:
        found = _try_bracket(rnd, mdps, residents, nxt, lower, True, c9)
    assert found is not None
    return found


def _try_bracket(
    rnd: _Round,
    mdps: list[PlayerState],
    residents: list[PlayerState],
    nxt: list[PlayerState],
    lower: list[PlayerState],
    full: bool,
    c9: bool,
) -> tuple[list[tuple[int, int]], list[PlayerState]] | None:
    """Pair one bracket (C.04.3 3.6 homogeneous, 3.7 heterogeneous): solve A chooses the
    MDP-pairing (4.4 MDP set, 4.2 S2 transposition), solve B the remainder (4.3 exchange,
    4.2 transposition); a perfect first candidate is taken at once (3.4).  In a relaxed
    solve, None when the players below could not then be completed (C4, C5)."""
    pairs: list[tuple[int, int]] = []
    remainder = list(residents)
    limbo: list[PlayerState] = []
    p: int | None = None
    if mdps:
        bracket = _Bracket(rnd, _Sides(mdps, residents, [], nxt, lower, full, c9))
        mate = bracket.solve(_Group(bracket.criteria()), *bracket.mdp_order())
        paired_mdps = {m.id for m in mdps if mate.get(m.id) in bracket.res_ids}
        pairs = [(m, mate[m]) for m in sorted(paired_mdps, key=lambda x: rnd.order[x])]
        taken = paired_mdps | {b for _, b in pairs}
        remainder = [x for x in residents if x.id not in taken]
        limbo = [m for m in mdps if m.id not in paired_mdps]
        p = len(_bracket_pairs(mate, {x.id for x in remainder}))
    elif not full:
        p = _max_pairs(rnd, residents)
    if full and not mdps and p is None:
        p = _max_pairs(rnd, residents)
    if p:
        first = _first_candidate(rnd, remainder, p, limbo, nxt, lower, c9)
        if first is not None:
            pairs += first
            paired = {x for pair in pairs for x in pair}
            return pairs, [x for x in [*mdps, *residents] if x.id not in paired]
    taken_ids = {x for pair in pairs for x in pair}
    rest_lower = [x for x in lower if x.id not in taken_ids]
    bracket = _Bracket(rnd, _Sides([], remainder, limbo, nxt, rest_lower, full, c9))
    if full and not mdps:  # p is the pairs the criteria allow: the order is solved on after them

        def order(mate: dict[int, int]) -> list[_Group]:
            count = len(_bracket_pairs(mate, bracket.res_ids))
            return bracket.homogeneous_order(count) if count else []

        mate = bracket.solve(_Group(bracket.criteria()), then=order)
    else:
        mate = bracket.solve(_Group(bracket.criteria()), *(bracket.homogeneous_order(p) if p else []))
    own = _bracket_pairs(mate, bracket.res_ids)
    pairs += own
    paired = {x for pair in pairs for x in pair}
    downfloaters = [x for x in [*mdps, *residents] if x.id not in paired]
    if not full:
        below = [*downfloaters, *nxt, *lower]
        nb_matched = {a for a, b in mate.items() if a not in paired and b not in paired}
        rest = [x.id for x in below if x.id not in nb_matched]
        if complete_pairing(rest, rnd.compatible, rnd.may_get_bye) is None:
            return None
    return pairs, downfloaters


def _first_candidate(
    rnd: _Round,
    players: list[PlayerState],
    p: int,
    limbo: list[PlayerState],
    nxt: list[PlayerState],
    lower: list[PlayerState],
    c9: bool,
) -> list[tuple[int, int]] | None:
    """The first candidate of a homogeneous bracket or remainder (S1[i] v S2[i], 3.3) when it
    is perfect (3.4: C1-C5 met and every quality criterion at its best), else None.

    Perfect here means: no pair breaks C1 or C3 or fails C10-C13, no downfloater had a
    downfloat in the two rounds before (C14, C16), the last bracket's downfloater may get
    the PAB (C5), with the fewest unplayed games there when ``c9``, every downfloater can be paired
    in the next bracket and that bracket loses at most one player (C8), and the players
    below can be completed (C4).  Such a candidate is the one Art. 3.4 takes at once.
    """
    s1, s2 = players[:p], players[p:]
    pairs = []
    for a, b in zip(s1, s2, strict=False):
        if not rnd.compatible(a.id, b.id) or any(rnd.colour_failures(a, b)):
            return None
        pairs.append((a.id, b.id))
    left = s2[p:]
    if any(x.float_in(1) is Float.DOWN or x.float_in(2) is Float.DOWN for x in left):
        return None
    floaters = [*limbo, *left]
    matched: set[int] = set()
    if not nxt:
        if limbo or len(left) > 1:
            return None
        if left:
            bye = left[0]
            fewest = min((x.unplayed for x in players if rnd.may_get_bye(x.id)), default=None)
            if not rnd.may_get_bye(bye.id) or (c9 and bye.unplayed != fewest):
                return None
    elif c9:
        return None  # the only downfloater gets the PAB: left to the solve (C9)
    else:
        if len(floaters) > len(nxt):
            return None
        group = [*floaters, *nxt]
        floater_ids = {x.id for x in floaters}
        adj: list[list[int]] = [[] for _ in group]
        for i, x in enumerate(group):
            for j in range(i + 1, len(group)):
                y = group[j]
                if (x.id in floater_ids and y.id in floater_ids) or not rnd.compatible(x.id, y.id):
                    continue
                adj[i].append(j)
                adj[j].append(i)
        mate = maximum_matching(len(group), adj)
        if sum(1 for m in mate if m != -1) // 2 != len(group) // 2 or any(mate[i] == -1 for i in range(len(floaters))):
            return None
        matched = {group[i].id for i, m in enumerate(mate) if m != -1}
    rest = [x.id for x in [*floaters, *nxt, *lower] if x.id not in matched]
    if complete_pairing(rest, rnd.compatible, rnd.may_get_bye) is None:
        return None
    return pairs


# ---------------------------------------------------------------------------------------
# The round
# ---------------------------------------------------------------------------------------


def _pab_target(rnd: _Round) -> None:
    """C2 and C5: who may get the PAB: eligible players of the lowest score for which a
    complete round-pairing exists.  Raises NoPairing when none exists (1.9.3)."""
    players = rnd.players
    ids = [p.id for p in players]
    if len(players) % 2 == 0:
        if complete_pairing(ids, rnd.compatible, lambda pid: False) is None:
            raise NoPairing(*_explain(rnd, ids, set()))
        return
    eligible = [p for p in players if not p.had_pab_or_win_bye]
    for level in sorted({p.score for p in eligible}):
        rnd.acceptable = {p.id for p in eligible if p.score == level}
        if complete_pairing(ids, rnd.compatible, rnd.may_get_bye) is not None:
            return
    rnd.acceptable = {p.id for p in eligible}
    raise NoPairing(*_explain(rnd, ids, rnd.acceptable))


def _explain(rnd: _Round, ids: list[int], bye_ok: set[int]) -> tuple[tuple[int, ...], str]:
    """Who cannot be paired, and why, for the error message."""
    lonely = [pid for pid in ids if not any(rnd.compatible(pid, other_id) for other_id in ids if other_id != pid)]
    if lonely and (len(lonely) > 1 or lonely[0] not in bye_ok or len(ids) % 2 == 0):
        names = ", ".join(map(str, lonely))
        return tuple(lonely), (
            f"player{'s' if len(lonely) > 1 else ''} {names} cannot be paired: every other player present "
            "has already met them, is a forbidden opponent or has the same absolute colour preference (C1, C3)"
        )
    n = len(ids)
    adj: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if rnd.compatible(ids[i], ids[j]):
                adj[i].append(j)
                adj[j].append(i)
    mate = maximum_matching(n, adj)
    left = tuple(ids[k] for k in range(n) if mate[k] == -1)
    if len(ids) % 2 and len(left) == 1 and left[0] not in bye_ok:
        return left, (
            f"no complete pairing: it would leave player {left[0]} without an opponent, and every player who "
            "could take the pairing-allocated bye has already had one or scored a win without playing (C2)"
        )
    names = ", ".join(map(str, left))
    return left, (
        f"no complete pairing exists: players {names} would be left without an opponent "
        "(C1 no rematches, C2 one bye, C3 absolute colours); the arbiter decides (C.04.3 1.9.3)"
    )


def pair_players(rs: RoundState) -> RoundPairing:
    """The Dutch pairing of the players of ``rs`` (C.04.3 Art. 1-5)."""
    rnd = _Round(rs)
    players = rnd.players
    if not players:
        return RoundPairing((), None)
    if len(players) == 1:
        only = players[0]
        if only.had_pab_or_win_bye:
            raise NoPairing((only.id,), f"player {only.id} is the only player to pair and cannot get a second bye (C2)")
        return RoundPairing((), only.id)
    _pab_target(rnd)
    groups: list[list[PlayerState]] = []
    for p in players:
        if groups and groups[-1][0].score == p.score:
            groups[-1].append(p)
        else:
            groups.append([p])
    pairs: list[tuple[int, int]] = []
    mdps: list[PlayerState] = []
    for k, residents in enumerate(groups):
        nxt = groups[k + 1] if k + 1 < len(groups) else []
        lower = [p for g in groups[k + 2 :] for p in g]
        found, mdps = _pair_bracket(rnd, mdps, residents, nxt, lower)
        pairs += found
    bye = mdps[0].id if mdps else None
    if len(mdps) > 1:  # pragma: no cover - completion guarantees at most one
        raise NoPairing(tuple(p.id for p in mdps), "no complete pairing exists")
    return RoundPairing(_boards(rnd, pairs), bye)


def _boards(rnd: _Round, pairs: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Colours (Art. 5) and board order (GHR 3.6): the higher score of the pair's
    higher-ranked player, then the higher sum of scores, then that player's rank."""
    by_id = rnd.rs.by_id
    rows = []
    for a, b in pairs:
        pa, pb = by_id[a], by_id[b]
        high, low = rnd.higher(pa, pb)
        white = rnd.white_of(pa, pb)
        board = (white, b if white == a else a)
        rows.append(((-high.score, -(high.score + low.score), rnd.order[high.id]), board))
    rows.sort()
    return tuple(board for _, board in rows)
