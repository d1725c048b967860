"""The FIDE Dutch system (C.04.3, rules in force from 1 February 2026): pairing a Swiss round.

Rules: C.04.3 FIDE (Dutch) System approved by the FIDE Council on 28/10/2025, with C.04.1
(basic rules), C.04.2 (general handling rules) and C.04.7 (acceleration) of the same date;
``docs/rules.md#dutch-system`` is our reading.  Verified against bbpPairings v6.0.0, a
FIDE-endorsed engine, on the 129 rounds of ``tests/data/pairings-dutch-2026`` and the 832 of
``tests/data/pairings-dutch-fresh``.  Everything here is pure: a ``Tournament`` in, frozen
values out.

>>> from ranking.event.model import Player, Tournament
>>> t = Tournament("Mini", tuple(Player(i, f"P{i}") for i in range(1, 6)), rounds=3,
...                records=(("152", "W"),))
>>> p = pair_round(t)
>>> [(b.white, b.black) for b in p.boards], p.bye
([(1, 3), (4, 2)], 5)
>>> print(pairs_text(p), end="")
3
1 3
4 2
5 0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ranking.errors import InputError
from ranking.event.clock import next_round, paired_rounds
from ranking.event.model import ByeKind, Tournament
from ranking.pairing.dutch.colours import Strength, preference
from ranking.pairing.dutch.engine import NoPairing, pair_players
from ranking.pairing.dutch.state import (
    Absence,
    Acceleration,
    PairingOptions,
    RoundState,
    initial_colour,
    recorded_colour,
    round_one_colour,
    round_state,
)

__all__ = [
    "Absence",
    "Acceleration",
    "Board",
    "Difference",
    "Pairing",
    "PairingOptions",
    "RoundCheck",
    "Unpaired",
    "Violation",
    "before_round",
    "check_round",
    "check_rounds",
    "options_from_tournament",
    "pair_round",
    "pairing_json",
    "pairs_text",
    "round_check_json",
]


@dataclass(frozen=True, slots=True)
class Board:
    """One game of the round: ``white`` moves first (red in xiangqi)."""

    number: int
    white: int
    black: int


@dataclass(frozen=True, slots=True)
class Unpaired:
    """A player who is not paired in the round, and why (GHR 2.4, 3.2, 3.3)."""

    player: int
    reason: Absence


@dataclass(frozen=True)
class Pairing:
    """The pairing of one round: boards in board order (GHR 3.6), the pairing-allocated bye
    (C.04.1 Art. 3; None when the players are even), and who is not paired and why."""

    round: int
    boards: tuple[Board, ...]
    bye: int | None
    unpaired: tuple[Unpaired, ...] = ()

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """(white, black) per board, in board order."""
        return tuple((b.white, b.black) for b in self.boards)


def options_from_tournament(tournament: Tournament, base: PairingOptions | None = None) -> PairingOptions:
    """Pairing options a tournament file names in its kept records.

    The TRF records are read where they are used (``152``/``XXC`` initial colour, ``XXA``/``250``
    virtual points, ``XXP``/``260`` forbidden pairs).  A tournament TOML file names the same
    choices as records of its own (``records = [["pairing.acceleration", "baku"], ...]``):
    ``pairing.acceleration`` (``baku`` | ``none``), ``pairing.forfeit_is_meeting``
    (``true`` | ``false``; outside the FIDE rules), ``pairing.initial_colour`` (``white`` |
    ``black``) and ``pairing.forbidden`` (starting numbers who must not meet one another, one
    record per group); bbpPairings' ``192 FIDE_DUTCH_2025_BAKU`` also turns Baku on.  Options
    given in ``base`` win over the file.
    """
    options = base or PairingOptions()
    changes: dict[str, object] = {}
    forbidden = set(options.forbidden)
    ids = {p.id for p in tournament.players}
    for tag, rest in tournament.records:
        text = rest.strip()
        if tag == "192" and "BAKU" in text.upper():
            changes.setdefault("acceleration", Acceleration.BAKU)
        elif tag == "pairing.acceleration":
            try:
                changes["acceleration"] = Acceleration(text.lower())
            except ValueError:
                raise InputError(f"pairing.acceleration {text!r}: expected baku or none") from None
        elif tag == "pairing.forfeit_is_meeting":
            if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise InputError(f"pairing.forfeit_is_meeting {text!r}: expected true or false")
            changes["forfeit_is_meeting"] = text.lower() in ("true", "yes", "1")
        elif tag == "pairing.initial_colour":
            changes["initial_colour"] = text
        elif tag == "pairing.forbidden":
            numbers = []
            for token in text.replace(",", " ").split():
                if not token.isdigit() or int(token) not in ids:
                    raise InputError(f"pairing.forbidden {text!r}: {token!r} is not a player's starting number")
                numbers.append(int(token))
            forbidden |= {frozenset((a, b)) for a in numbers for b in numbers if a < b}
    if base is not None:  # explicit options win
        defaults = PairingOptions()
        for name in ("acceleration", "forfeit_is_meeting", "initial_colour"):
            if getattr(base, name) != getattr(defaults, name):
                changes.pop(name, None)
    if "initial_colour" in changes:
        initial_colour(tournament, PairingOptions(initial_colour=str(changes["initial_colour"])))  # validates
    return replace(options, forbidden=frozenset(forbidden), **changes)  # type: ignore[arg-type]


def pair_round(
    tournament: Tournament, round: int | None = None, options: PairingOptions | None = None
) -> Pairing:
    """The Dutch pairing of ``round`` (default: the next one) of a Swiss ``tournament``.

    Entries the tournament already holds for the round (half-, full- and zero-point byes,
    absences) are honoured; withdrawn players are not paired.  Raises ``InputError`` (one
    line) when the round is outside the event, already paired, or cannot be paired: it
    names who cannot be paired and why.
    """
    rnd = next_round(tournament) if round is None else round
    rs = round_state(tournament, rnd, options_from_tournament(tournament, options))
    try:
        found = pair_players(rs)
    except NoPairing as error:
        raise InputError(f"round {rnd} cannot be paired: {error.reason}") from None
    return Pairing(
        round=rnd,
        boards=tuple(Board(k, w, b) for k, (w, b) in enumerate(found.boards, start=1)),
        bye=found.bye,
        unpaired=tuple(Unpaired(pid, reason) for pid, reason in rs.not_paired),
    )


def pairs_text(pairing: Pairing) -> str:
    """The JaVaFo / bbpPairings pairs list: the number of pairs, then ``WHITE BLACK`` per
    board in board order, then ``PLAYER 0`` for the pairing-allocated bye."""
    lines = [f"{b.white} {b.black}" for b in pairing.boards]
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    return "\n".join([str(len(lines)), *lines]) + "\n"


def pairing_json(pairing: Pairing, tournament: Tournament | None = None) -> dict[str, object]:
    """The pairing as plain JSON values; with ``tournament``, players' names are added.

    ``{"round": 5, "boards": [{"board": 1, "white": 3, "black": 8}], "bye": 12,
    "not_paired": [{"player": 4, "reason": "half-point bye"}]}``
    """
    names = {p.id: p.name for p in tournament.players} if tournament is not None else {}

    def who(key: str, pid: int) -> dict[str, object]:
        return {key: pid, f"{key}_name": names[pid]} if pid in names else {key: pid}

    return {
        "round": pairing.round,
        "boards": [{"board": b.number, **who("white", b.white), **who("black", b.black)} for b in pairing.boards],
        "bye": pairing.bye,
        "not_paired": [{**who("player", u.player), "reason": u.reason.value} for u in pairing.unpaired],
    }


# ---------------------------------------------------------------------------------------
# Checking a round paired elsewhere
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Violation:
    """An absolute rule a proposed pairing breaks: ``rule`` is the article (``C1``, ``C2``,
    ``C3``, ``C.04.1 6``...), ``players`` who are concerned, ``text`` one line for the arbiter."""

    rule: str
    players: tuple[int, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Difference:
    """Where a proposed pairing differs from the Dutch one: the Dutch board (white, black) or
    bye (player, 0), and what the proposal does with those players instead."""

    dutch: tuple[int, int] | None
    proposed: tuple[tuple[int, int], ...]
    text: str


@dataclass(frozen=True)
class RoundCheck:
    """A proposed round compared with the Dutch pairing of the same round."""

    dutch: Pairing
    differences: tuple[Difference, ...]
    violations: tuple[Violation, ...]

    @property
    def same(self) -> bool:
        return not self.differences


def check_round(
    tournament: Tournament,
    round: int,
    boards: Sequence[tuple[int, int]] | None = None,
    bye: int | None = None,
    options: PairingOptions | None = None,
) -> RoundCheck:
    """Compare a proposed pairing of ``round`` with the Dutch system's, pair by pair.

    ``boards`` are (white, black) pairs and ``bye`` the PAB recipient; when ``boards`` is
    None, the games and PAB the tournament holds for ``round`` are the proposal (a round
    imported from another program).  The Dutch pairing is made from the rounds before,
    keeping the round's requested byes and absences.  Violations name the absolute rules
    the proposal breaks: C1 (rematch, forbidden pair), C2 (second bye), C3 and C.04.1 Art.
    6-7 (absolute colours), players paired twice, and present players left out.
    """
    if boards is None:
        boards = [(g.white, g.black) for g in sorted(tournament.games, key=lambda g: g.board) if g.round == round]
        pab = [b.player for b in tournament.byes if b.round == round and b.kind is ByeKind.PAIRING]
        bye = pab[0] if pab else bye
    before = before_round(tournament, round)
    options = options_from_tournament(before, options)
    if not options.initial_colour:  # round 1 shows it (TRF-2026 152) even when round 1 is the one checked
        options = replace(options, initial_colour=initial_colour(tournament, options))
    rs = round_state(before, round, options)
    violations = tuple(_violations(rs, boards, bye))
    try:
        found = pair_players(rs)
        dutch = Pairing(
            round,
            tuple(Board(k, w, b) for k, (w, b) in enumerate(found.boards, start=1)),
            found.bye,
            tuple(Unpaired(pid, reason) for pid, reason in rs.not_paired),
        )
    except NoPairing as error:
        raise InputError(f"round {round} cannot be paired by the Dutch system: {error.reason}") from None
    return RoundCheck(dutch, tuple(_differences(dutch, boards, bye)), violations)


def _differences(dutch: Pairing, boards: Sequence[tuple[int, int]], bye: int | None) -> Iterable[Difference]:
    where: dict[int, tuple[int, int]] = {}
    for w, b in boards:
        where[w] = (w, b)
        where[b] = (w, b)
    if bye is not None:
        where[bye] = (bye, 0)
    proposed = set(boards) | ({(bye, 0)} if bye is not None else set())
    expected = [*dutch.pairs, *([(dutch.bye, 0)] if dutch.bye is not None else [])]
    for w, b in expected:
        if (w, b) in proposed:
            continue
        if b and (b, w) in proposed:
            yield Difference((w, b), ((b, w),), f"{w}-{b}: the Dutch system gives white to {w}, the round to {b}")
            continue
        theirs = tuple(dict.fromkeys(x for x in (where.get(w), where.get(b)) if x is not None))
        shown = ", ".join(f"{x}-{y}" if y else f"bye {x}" for x, y in theirs) or "nothing"
        dutch_text = f"{w}-{b}" if b else f"the bye to {w}"
        yield Difference((w, b), theirs, f"the Dutch system pairs {dutch_text}; the round has {shown}")


def _violations(rs: RoundState, boards: Sequence[tuple[int, int]], bye: int | None) -> Iterable[Violation]:
    present = rs.by_id
    seen: dict[int, int] = {}
    absent = dict(rs.not_paired)
    for w, b in boards:
        for pid in (w, b):
            if pid in seen:
                yield Violation("C.04.1 1", (pid,), f"player {pid} is paired twice")
            seen[pid] = 1
            if pid not in present:
                why = absent[pid].value if pid in absent else "not a player of the event"
                yield Violation("C.04.2 3", (pid,), f"player {pid} is paired but is not to be paired ({why})")
        if w not in present or b not in present:
            continue
        pw, pb = present[w], present[b]
        if b in pw.opponents:
            yield Violation("C1", (w, b), f"{w}-{b}: the players have already met")
        if frozenset((w, b)) in rs.forbidden:
            yield Violation("C1", (w, b), f"{w}-{b}: a forbidden pair")
        qw, qb = preference(pw.colours), preference(pb.colours)
        if qw.strength is Strength.ABSOLUTE and qb.strength is Strength.ABSOLUTE and qw.colour == qb.colour:
            if not (pw.topscorer or pb.topscorer):
                must = "white" if qw.colour == "W" else "black"
                yield Violation("C3", (w, b), f"{w}-{b}: both must have {must} (C3)")
            # with a topscorer (final round, 1.8) they may meet, and one of them cannot get
            # his colour (5.2.2; the last-round exception of C.04.1 Art. 6-7)
            continue
        for pid, q, colour in ((w, qw, "W"), (b, qb, "B")):
            if q.strength is Strength.ABSOLUTE and q.colour != colour:
                must = "white" if q.colour == "W" else "black"
                yield Violation("C.04.1 6-7", (pid,), f"{w}-{b}: player {pid} must have {must}")
    if bye is not None:
        if bye in seen:
            yield Violation("C.04.1 1", (bye,), f"player {bye} is paired and also has the bye")
        elif bye in present and present[bye].had_pab_or_win_bye:
            yield Violation("C2", (bye,), f"player {bye} already had a bye or a win without playing (C2)")
        seen[bye] = 1
    missing = [pid for pid in present if pid not in seen]
    if missing:
        yield Violation("C.04.1 1", tuple(missing), f"not paired: {', '.join(map(str, missing))}")
    if len(present) % 2 == 0 and bye is not None:
        yield Violation("C.04.1 3", (bye,), f"a bye for {bye} although the players to pair are even")


def before_round(tournament: Tournament, round: int) -> Tournament:
    """``tournament`` as it stood before ``round`` was paired: the games and byes of the rounds
    before it, of ``round`` the entries known in advance (requested byes, absences), and the
    withdrawals made before it (a later one was not known yet).  The initial colour is recorded
    (TRF-2026 ``152``, JaVaFo ``XXC``) when only round 1 showed it, so that any program pairs
    ``round`` with the same colours."""
    before = replace(
        tournament,
        games=tuple(g for g in tournament.games if g.round < round),
        byes=tuple(b for b in tournament.byes
                   if b.round < round or (b.round == round and b.kind is not ByeKind.PAIRING)),
        withdrawals=tuple(w for w in tournament.withdrawals if w.after_round < round),
    )
    if round > 1 or recorded_colour(tournament) or not round_one_colour(tournament):
        return before
    colour = round_one_colour(tournament)
    return replace(before, records=(*before.records, ("152", colour), ("XXC", "white1" if colour == "W" else "black1")))


def check_rounds(
    tournament: Tournament, options: PairingOptions | None = None
) -> tuple[tuple[int, RoundCheck | InputError], ...]:
    """Every paired round of ``tournament`` replayed (the free pairings checker of C.04.A):
    ``(round, check_round(...))``, or ``(round, error)`` when the Dutch system finds no
    pairing for a round the file holds.  Each round is paired from the rounds before it,
    keeping its requested byes and absences (``check_round``); the initial colour is the
    file's (``152``/``XXC``), else what round 1 shows."""
    found: list[tuple[int, RoundCheck | InputError]] = []
    for rnd in paired_rounds(tournament):
        try:
            found.append((rnd, check_round(tournament, rnd, options=options)))
        except InputError as error:
            found.append((rnd, error))
    return tuple(found)


def round_check_json(rnd: int, check: RoundCheck | InputError) -> dict[str, object]:
    """One replayed round as plain JSON values: ``{"round", "identical", "boards", "bye",
    "differences": [{"dutch": [w, b], "round": [[w, b], ...], "text"}], "violations":
    [{"rule", "players", "text"}], "error"}``; a bye is ``[player, 0]``."""
    if isinstance(check, InputError):
        return {"round": rnd, "identical": False, "boards": None, "bye": None, "differences": [], "violations": [],
                "error": check.message}
    return {
        "round": rnd,
        "identical": check.same,
        "boards": len(check.dutch.boards),
        "bye": check.dutch.bye,
        "differences": [{"dutch": list(d.dutch) if d.dutch else None, "round": [list(x) for x in d.proposed],
                         "text": d.text} for d in check.differences],
        "violations": [{"rule": v.rule, "players": list(v.players), "text": v.text} for v in check.violations],
        "error": None,
    }
