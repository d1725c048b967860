"""Drawing of lots (抽签, bốc thăm, sorteo; FIDE C.07 4.2): reproducible, and unknown until the
results are.

``lots`` orders a tied group by SHA-256 of a seed and each starting (or team) number, so anyone
can redo the draw from the seed published with the standings.  The seed is the event's
``lots_seed`` option when it has one; otherwise a digest of the event's complete results
(``results_seed``, ``team_results_seed``), which nobody knows before the last result is in.
The tournament's name, known in advance, is never the seed: with it anyone could compute the
lots before the event starts.  A stored event gets its seed drawn at random when its results
are complete (``lots_to_draw``; the store logs it as a ``lots-drawn`` event), so nobody can
compute the lots before the last result is entered, and anyone can redo them afterwards.

>>> from ranking.event.model import Game, Player, Result, Tournament
>>> t = Tournament("Open", (Player(1, "A"), Player(2, "B")), 1, (Game(1, 1, 2, Result.DRAW),))
>>> seed = results_seed(t)
>>> len(seed), seed == results_seed(Tournament("Another name", t.players, 1, t.games))
(16, True)
>>> seed == results_seed(Tournament("Open", t.players, 1, (Game(1, 1, 2, Result.WHITE_WINS),)))
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from ranking.event.model import TeamEvent, Tournament

#: Hexadecimal digits of a derived seed: 64 bits, short enough to print beside the standings.
SEED_DIGITS = 16


def lots(group: list[int], seed: str, ids: Sequence[int]) -> list[list[int]]:
    """A reproducible draw: the group's members ordered by SHA-256 of the seed and the
    starting (or team) number, one tier each; anyone can redo it from the published seed."""
    import hashlib  # only when lots are drawn (start-up time of every standings)

    def key(me: int) -> str:
        return hashlib.sha256(f"{seed}|{ids[me]}".encode()).hexdigest()
    return [[member] for member in sorted(group, key=key)]


def lots_to_draw(tournament: Tournament, chains: Iterable[Iterable[str]]) -> bool:
    """Whether a finished event's seed is still to be drawn: one of its ``chains`` (the
    individual and the team tie-break chains) draws lots and it has no ``lots_seed`` yet.  The
    store then draws one at random and logs it (``ranking.event.log.lots_event``), so the lots are
    unknown to anyone until the last result is in."""
    rules = tournament.rules
    if rules is not None and rules.options.lots_seed:
        return False
    return any(code.split("/")[0].split(":")[0] == "LOT" for chain in chains for code in chain)


def results_seed(tournament: Tournament) -> str:
    """The lots seed of an event without ``lots_seed``: a digest of its complete results (every
    game with a result, every bye, every withdrawal), in an order that does not depend on how
    the file lists them.  It changes with any result, so it is known only once the results are."""
    games = (("game", game.round, game.board, game.white, game.black, game.result.value)
             for game in tournament.games if game.result is not None)
    byes = (("bye", bye.round, bye.player, bye.kind.value) for bye in tournament.byes)
    withdrawals = (("withdrawal", item.player, item.after_round) for item in tournament.withdrawals)
    return _digest([*games, *byes, *withdrawals])


def team_results_seed(event: TeamEvent) -> str:
    """``results_seed`` of a team event: every finished match (its boards' results, or its
    totals, or its forfeit) and every team bye."""
    matches = []
    for match in event.matches:
        if not match.is_finished:
            continue
        boards = tuple((game.board, game.white, game.black, game.result.value)
                       for game in match.boards if game.result is not None)
        matches.append(("match", match.round, match.first, match.second, boards,
                        match.first_points, match.second_points, match.forfeit or ""))
    byes = (("bye", bye.round, bye.team, str(bye.kind)) for bye in event.byes)
    return _digest([*matches, *byes])


def _digest(items: Iterable[tuple]) -> str:
    import hashlib  # only when lots are drawn (start-up time of every standings)

    text = "\n".join(sorted(repr(item) for item in items))
    return hashlib.sha256(text.encode()).hexdigest()[:SEED_DIGITS]
