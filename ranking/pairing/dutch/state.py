"""What the pairing of one round needs to know about each player, read from a ``Tournament``.

Everything here follows C.04.3 Art. 1 and the General Handling Rules (C.04.2): points and
pairing scores, colour histories of played games, floats, who already had a bye, who is
present.  Pure: a ``Tournament`` in, frozen values out.
"""

from __future__ import annotations

import enum
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from ranking.errors import InputError
from ranking.event.clock import paired_rounds, round_limit
from ranking.event.model import ByeKind, Game, Result, Tournament
from ranking.scoring.points import bye_points, game_points
from ranking.scoring.rules import Scoring

__all__ = [
    "Absence",
    "Float",
    "PairingOptions",
    "PlayerState",
    "RoundState",
    "round_state",
]


class Float(enum.StrEnum):
    """A float received in a round (C.04.3 1.4)."""

    DOWN = "down"
    UP = "up"


class Absence(enum.StrEnum):
    """Why a player is not paired in a round."""

    WITHDRAWN = "withdrawn"  # GHR 3.2
    ABSENT = "absent"  # known absent, or a late entry not yet arrived (GHR 2.4, 3.3)
    HALF_BYE = "half-point bye"  # requested byes (C.07 16.1; TRF H)
    FULL_BYE = "full-point bye"
    ZERO_BYE = "zero-point bye"


class Acceleration(enum.StrEnum):
    NONE = "none"
    BAKU = "baku"  # C.04.7 Art. 1


@dataclass(frozen=True)
class PairingOptions:
    """Choices the arbiter makes for a Swiss event (all off by default).

    ``acceleration``: ``"baku"`` adds the virtual points of the Baku method (C.04.7 Art. 1);
    explicit virtual points given in the file (TRF ``XXA`` or ``250``) are always used and
    win over it.  ``forbidden``: extra pairs of players who must not meet (added to TRF
    ``XXP``/``260`` records), by starting number.  ``forfeit_is_meeting``: a forfeited game
    counts as a meeting, so the two players are not paired again (Chinese xiangqi practice;
    **outside the FIDE rules**, where a forfeit is no game, GHR 3.5).  ``initial_colour``:
    ``"W"`` or ``"B"``, the colour of TPN 1 in round 1 (5.1), else the file's ``152``/``XXC``,
    else drawn by lot from ``lots_seed`` (or the event's name).  ``scoring`` replaces the
    event's scoring.
    """

    acceleration: Acceleration = Acceleration.NONE
    forbidden: frozenset[frozenset[int]] = frozenset()
    forfeit_is_meeting: bool = False
    initial_colour: str = ""
    lots_seed: str = ""
    scoring: Scoring | None = None


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player before the round is paired."""

    id: int
    tpn: int  # rank in the initial order: 1 = first (GHR 2)
    points: Fraction  # points scored so far
    score: Fraction  # pairing score: points + virtual points of this round (1.2, C.04.7)
    colours: tuple[str, ...]  # colours of played games, oldest first (1.6, GHR 3.4)
    opponents: frozenset[int]  # players met (C1)
    floats: tuple[Float | None, ...]  # float received in rounds 1 .. r-1 (1.4)
    had_pab_or_win_bye: bool  # C2: a PAB, or a win's points without playing
    unplayed: int  # rounds without a played game so far (C9)
    topscorer: bool  # 1.8: final round only, more than half the maximum score
    rank_number: int = 0  # 5.2.5: the TPN counted among the players in the event so far

    def float_in(self, rounds_back: int) -> Float | None:
        """The float received ``rounds_back`` rounds before the round being paired."""
        index = len(self.floats) - rounds_back
        return self.floats[index] if index >= 0 else None


@dataclass(frozen=True)
class RoundState:
    """The round to pair: who is to be paired (in Art. 1.2 order) and who is not."""

    round: int
    rounds: int
    players: tuple[PlayerState, ...]  # to be paired, by pairing score then TPN
    not_paired: tuple[tuple[int, Absence], ...]
    forbidden: frozenset[frozenset[int]]
    initial_colour: str
    scoring: Scoring
    by_id: dict[int, PlayerState] = field(default_factory=dict)


def _fraction(value: float) -> Fraction:
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def _records(t: Tournament, *tags: str) -> list[tuple[str, str]]:
    return [(tag, rest) for tag, rest in t.records if tag in tags]


def initial_colour(t: Tournament, options: PairingOptions) -> str:
    """The colour of TPN 1 in round 1 (C.04.3 5.1): the option, else TRF ``152``/``XXC``, else
    what round 1 shows (``round_one_colour``), else by lot.

    The lot is drawn reproducibly from ``options.lots_seed`` (else the event's name and its
    number of players), so pairing the same file twice gives the same colours, and
    renumbering the players does not change the draw.
    """
    if options.initial_colour:
        return _colour_word(options.initial_colour)
    recorded = recorded_colour(t)
    if recorded:
        return recorded
    shown = round_one_colour(t)
    if shown:
        return shown
    seed = options.lots_seed or f"{t.name}|{len(t.players)}"
    return "W" if hashlib.sha256(seed.encode("utf-8")).digest()[0] % 2 == 0 else "B"


def recorded_colour(t: Tournament) -> str:
    """The initial colour a TRF ``152`` (``W``/``B``) or ``XXC`` (``white1``/``black1``) record
    names, or ``""``."""
    for tag, rest in _records(t, "152", "XXC"):
        words = rest.lower().split()
        if tag == "152" and words and words[0][:1] in ("w", "b"):
            return "W" if words[0][:1] == "w" else "B"
        if tag == "XXC":
            if "white1" in words:
                return "W"
            if "black1" in words:
                return "B"
    return ""


def round_one_colour(t: Tournament) -> str:
    """The initial colour round 1 shows, ``W``, ``B`` or ``""`` (TRF-2026 ``152``: the colour
    of the highest-ranked player paired in round 1).  The players paired in round 1 (a game,
    forfeited or not, or the PAB) are taken in the initial order; the first whose game has
    known colours had the initial colour if his rank among them is odd (5.2.5), else the
    other one."""
    paired = {g.white: g for g in t.games if g.round == 1} | {g.black: g for g in t.games if g.round == 1}
    paired_ids = set(paired) | {b.player for b in t.byes if b.round == 1 and b.kind is ByeKind.PAIRING}
    for rank, pid in enumerate(sorted(paired_ids), start=1):
        game = paired.get(pid)
        if game is not None and game.colours_known:
            colour = "W" if game.white == pid else "B"
            return colour if rank % 2 else ("B" if colour == "W" else "W")
    return ""


def _colour_word(text: str) -> str:
    word = text.strip().lower()
    if word in ("w", "white", "red", "white1"):
        return "W"
    if word in ("b", "black", "black1"):
        return "B"
    raise InputError(f"initial colour {text!r}: expected white (red) or black")


def forbidden_pairs(t: Tournament, options: PairingOptions, rnd: int = 0) -> frozenset[frozenset[int]]:
    """Pairs that must not meet in round ``rnd``: TRF ``XXP`` (JaVaFo: starting numbers none of
    whom may meet another) and ``260`` (TRF-2026: the first and last round it applies to, then
    the starting numbers) records, plus ``options.forbidden``."""
    ids = {p.id for p in t.players}
    found: set[frozenset[int]] = set(options.forbidden)
    for tag, rest in _records(t, "XXP", "260"):
        tokens = rest.split()
        if tag == "260":
            if len(tokens) < 2 or not all(tok.isdigit() for tok in tokens):
                raise InputError(f"260 {rest.strip()!r}: expected the first and last round, then the starting "
                                 "numbers of players who must not meet (such as '260 001 005  12  37')")
            first, last = int(tokens[0]), int(tokens[1])
            tokens = tokens[2:]
            if rnd and not first <= rnd <= last:
                continue
        numbers = [int(tok) for tok in tokens if tok.isdigit() and int(tok) in ids]
        for i, a in enumerate(numbers):
            for b in numbers[i + 1 :]:
                if a != b:
                    found.add(frozenset((a, b)))
    return frozenset(found)


def virtual_points(t: Tournament, scoring: Scoring, options: PairingOptions) -> dict[int, dict[int, Fraction]]:
    """player -> round -> virtual points (C.04.7): explicit TRF ``XXA``/``250`` values, else Baku.

    ``XXA TPN v1 v2 ...`` gives a player's virtual points round by round; ``250 POINTS
    FIRST-ROUND LAST-ROUND FIRST-TPN LAST-TPN`` gives the same points to a range of players
    in a range of rounds (a team file's ``250`` starts with the match points, columns 5-8,
    left blank for individuals).  Baku (C.04.7 Art. 1): group A is the first 2·⌈N/4⌉ players of the
    initial order; in the first ⌈R/2⌉ rounds it gets a win's points in the first ⌈⌈R/2⌉/2⌉
    rounds and half of that in the others.
    """
    values: dict[int, dict[int, Fraction]] = defaultdict(dict)
    explicit = False
    for tag, rest in _records(t, "XXA", "250"):
        tokens = rest.split()
        try:
            if tag == "XXA":
                pid = int(tokens[0])
                for rnd, text in enumerate(tokens[1:], start=1):
                    values[pid][rnd] = Fraction(text)
            else:
                if len(tokens) == 6:  # match points, then game points (TRF-2026 columns 5-8, 10-13)
                    tokens = tokens[1:]
                points = Fraction(tokens[0])
                first_round, last_round, first, last = (int(x) for x in tokens[1:5])
                for pid in (p.id for p in t.players if first <= p.id <= last):
                    for rnd in range(first_round, last_round + 1):
                        values[pid][rnd] = points
        except (IndexError, ValueError, ZeroDivisionError):
            raise InputError(f"{tag} {rest.strip()!r}: expected virtual points (C.04.7) such as "
                             "'XXA 1 1.0 1.0 0.5' or '250 1.0 1 3 1 32'") from None
        explicit = True
    if explicit or options.acceleration is not Acceleration.BAKU:
        return values
    win = _fraction(scoring.win)
    if _fraction(scoring.draw) * 2 != win or scoring.loss != 0:
        raise InputError("Baku acceleration (C.04.7) needs a draw worth half a win and a loss worth nothing")
    ordered = sorted(p.id for p in t.players)
    group_a = ordered[: 2 * (-(-len(ordered) // 4))]
    accelerated = -(-t.rounds // 2)
    full = -(-accelerated // 2)
    for pid in group_a:
        for rnd in range(1, accelerated + 1):
            values[pid][rnd] = win if rnd <= full else win / 2
    return values


def round_state(t: Tournament, rnd: int, options: PairingOptions = PairingOptions()) -> RoundState:
    """The players of round ``rnd`` as the Dutch system sees them before pairing it.

    Points: the event's scoring for every game and bye (an unfinished game is a draw, GHR
    3.1).  Colours and meetings: played games only; forfeits are no game (GHR 3.5) unless
    ``forfeit_is_meeting``.  Floats (1.4.2-1.4.4): the higher pairing score of a played game
    downfloats, the lower upfloats; a PAB, and any round scoring more than a loss without
    playing, downfloats; nothing else floats.  C2: a PAB, or a win's points without playing,
    blocks a PAB.  Topscorers (1.8): in the last round, more than half of the points of a win
    in every round played so far.  Not paired: withdrawn players (GHR 3.2) and players with a
    bye or an absence entered for the round (GHR 2.4, 3.3).

    Raises ``InputError`` when the round is outside the event or already paired.
    """
    limit = round_limit(t)  # the event's clock: any round while the rounds are not known
    if limit is not None and not 1 <= rnd <= limit:
        raise InputError(f"round {rnd}: the event has rounds 1-{limit}")
    if rnd < 1:
        raise InputError(f"round {rnd}: rounds are numbered from 1")
    if rnd in paired_rounds(t):
        raise InputError(f"round {rnd} is already paired: remove its games to pair it again")
    scoring = options.scoring or (t.rules.scoring if t.rules is not None else Scoring())
    game_values, bye_values = _point_values(scoring)
    win, loss = game_values[(Result.WHITE_WINS, True)], game_values[(Result.BLACK_WINS, True)]
    ids = sorted(p.id for p in t.players)
    tpn = {pid: k for k, pid in enumerate(ids, start=1)}
    virtual = virtual_points(t, scoring, options)
    forbidden = forbidden_pairs(t, options, rnd)

    games_of: dict[int, dict[int, Game]] = defaultdict(dict)
    for g in t.games:
        if g.round < rnd:
            games_of[g.white][g.round] = g
            games_of[g.black][g.round] = g
    byes_of: dict[int, dict[int, ByeKind]] = defaultdict(dict)
    for b in t.byes:
        byes_of[b.player][b.round] = b.kind
    withdrawn_after = {w.player: w.after_round for w in t.withdrawals}

    # points per player per round, and the float of that round
    points: dict[int, list[Fraction]] = {pid: [] for pid in ids}
    unplayed_points: dict[int, list[Fraction | None]] = {pid: [] for pid in ids}  # None = a played game
    for k in range(1, rnd):
        for pid in ids:
            game = games_of[pid].get(k)
            if game is not None:
                pts, played = _game_points(game, pid, game_values)
            else:
                pts, played = bye_values[byes_of[pid].get(k)], False
            points[pid].append(pts)
            unplayed_points[pid].append(None if played else pts)

    def before(pid: int, k: int) -> Fraction:
        """Pairing score at the start of round k."""
        return sum(points[pid][: k - 1], Fraction(0)) + virtual.get(pid, {}).get(k, Fraction(0))

    final_round = t.rounds and rnd == t.rounds
    # 5.2.5 rank numbers: TPNs counted among the players in the event so far.  A player absent
    # now who was never paired (no game, forfeit or PAB) has not entered yet, like a late entry
    # not yet arrived (C.04.2 2.4); a player paired before keeps his place even when absent now.
    paired_before = {pid for pid in ids if games_of[pid] or any(
        kind is ByeKind.PAIRING for k, kind in byes_of[pid].items() if k < rnd)}
    in_event = [pid for pid in sorted(ids, key=tpn.__getitem__)
                if pid in paired_before or _absence(pid, rnd, byes_of, withdrawn_after) is None]
    rank_number = {pid: k for k, pid in enumerate(in_event, start=1)}
    states: list[PlayerState] = []
    not_paired: list[tuple[int, Absence]] = []
    for pid in ids:
        colours: list[str] = []
        met: set[int] = set()
        floats: list[Float | None] = []
        blocked = False
        unplayed = 0
        for k in range(1, rnd):
            game = games_of[pid].get(k)
            kind = byes_of[pid].get(k)
            if kind is ByeKind.PAIRING:
                blocked = True
            value = unplayed_points[pid][k - 1]
            if value is not None:
                unplayed += 1
                if value >= win:
                    blocked = True
            if game is not None and value is None:
                opponent = game.black if game.white == pid else game.white
                met.add(opponent)
                if game.colours_known:
                    colours.append("W" if game.white == pid else "B")
                mine, theirs = before(pid, k), before(opponent, k)
                floats.append(Float.DOWN if mine > theirs else Float.UP if mine < theirs else None)
            else:
                if game is not None and options.forfeit_is_meeting:
                    met.add(game.black if game.white == pid else game.white)
                gave_down = kind is ByeKind.PAIRING or (value is not None and value > loss)
                floats.append(Float.DOWN if gave_down else None)
        total = sum(points[pid], Fraction(0))
        reason = _absence(pid, rnd, byes_of, withdrawn_after)
        if reason is not None:
            not_paired.append((pid, reason))
            continue
        states.append(
            PlayerState(
                id=pid,
                tpn=tpn[pid],
                points=total,
                score=total + virtual.get(pid, {}).get(rnd, Fraction(0)),
                colours=tuple(colours),
                opponents=frozenset(met),
                floats=tuple(floats),
                had_pab_or_win_bye=blocked,
                unplayed=unplayed,
                topscorer=bool(final_round) and total * 2 > win * (rnd - 1),
                rank_number=rank_number[pid],
            )
        )
    states.sort(key=lambda s: (-s.score, s.tpn))
    return RoundState(
        round=rnd,
        rounds=t.rounds,
        players=tuple(states),
        not_paired=tuple(not_paired),
        forbidden=forbidden,
        initial_colour=initial_colour(t, options),
        scoring=scoring,
        by_id={s.id: s for s in states},
    )


def _absence(
    pid: int, rnd: int, byes_of: dict[int, dict[int, ByeKind]], withdrawn_after: dict[int, int]
) -> Absence | None:
    if pid in withdrawn_after and withdrawn_after[pid] < rnd:
        return Absence.WITHDRAWN
    kind = byes_of[pid].get(rnd)
    if kind is None:
        return None
    return {ByeKind.HALF: Absence.HALF_BYE, ByeKind.FULL: Absence.FULL_BYE}.get(kind, Absence.ZERO_BYE)


def _point_values(
    scoring: Scoring,
) -> tuple[dict[tuple[Result | None, bool], Fraction], dict[ByeKind | None, Fraction]]:
    """What each result gives white (``True``) and black, and what each bye is worth, under
    ``scoring``: the values of ``ranking.scoring.points`` (docs/rules.md#scoring), turned once a
    pairing into the exact fractions the pairing sums.  An unfinished game (``None``) counts as a
    draw (GHR 3.1); a round with neither game nor bye (``None``) as a zero-point bye."""
    games = {(result, white): _fraction(game_points(scoring, result, white))
             for result in Result for white in (True, False)}
    games.update({(None, white): games[(Result.DRAW, white)] for white in (True, False)})
    byes: dict[ByeKind | None, Fraction] = {kind: _fraction(bye_points(scoring, kind)) for kind in ByeKind}
    byes[None] = byes[ByeKind.ZERO]
    return games, byes


def _game_points(game: Game, pid: int, values: dict[tuple[Result | None, bool], Fraction]) -> tuple[Fraction, bool]:
    """(points, played) of ``pid`` in ``game`` (``values``: ``_point_values``); a forfeit is no game played."""
    return values[(game.result, game.white == pid)], game.result is None or not game.result.is_forfeit
