"""A random Swiss tournament, every round paired by the Dutch engine (FIDE C.04.A: the random
tournament generator an endorsed program provides).

Pure and reproducible: the same arguments give the same tournament, on every machine (only
``random.Random(seed).random()`` is drawn, whose sequence Python keeps stable).

>>> t = generate_tournament(GeneratorSettings(players=9, rounds=4, seed=7))
>>> len(t.players), t.rounds, sorted({g.round for g in t.games})
(9, 4, [1, 2, 3, 4])
>>> generate_tournament(GeneratorSettings(players=9, rounds=4, seed=7)) == t
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ranking.errors import InputError
from ranking.event.model import Bye, ByeKind, Game, Player, Result, Tournament, Withdrawal
from ranking.pairing.dutch import pair_round

__all__ = ["GeneratorSettings", "generate_tournament"]

#: ratings are drawn between these (FIDE's rating floor and a strong open's top)
LOWEST_RATING, HIGHEST_RATING = 1400, 2700


@dataclass(frozen=True)
class GeneratorSettings:
    """What ``tiebreak generate`` takes.  Rates are percentages: ``draw_rate`` of the games
    played end in a draw (the others are won by rating, the Elo expectation); ``forfeit_rate``
    of the games are forfeited (45% by black, 45% by white, 10% by both); ``bye_rate`` is each
    player's chance to request a half-point bye in a round (announced before it is paired,
    never in the last round); ``retire_rate`` is each player's chance to withdraw after a
    random round (then absent to the end)."""

    players: int
    rounds: int
    seed: int = 1
    draw_rate: float = 30.0
    forfeit_rate: float = 0.0
    bye_rate: float = 0.0
    retire_rate: float = 0.0

    def check(self) -> None:
        """InputError (one line) for settings no Swiss can have."""
        if self.players < 2:
            raise InputError(f"--players {self.players}: a Swiss needs at least 2 players")
        if self.players > 9999:
            raise InputError(f"--players {self.players}: TRF numbers players 1-9999")
        if not 1 <= self.rounds < self.players + (self.players % 2):
            raise InputError(f"--rounds {self.rounds}: expected 1 to {self.players - 1 + self.players % 2} "
                             f"for {self.players} players (no one may meet an opponent twice)")
        for name in ("draw_rate", "forfeit_rate", "bye_rate", "retire_rate"):
            value = getattr(self, name)
            if not 0 <= value <= 100:
                raise InputError(f"--{name.replace('_', '-')} {value:g}: expected a percentage from 0 to 100")


def generate_tournament(settings: GeneratorSettings) -> Tournament:
    """A complete Swiss of ``settings.players`` over ``settings.rounds`` rounds: ratings drawn
    at random (start numbers in rating order), the initial colour by lot, every round paired
    by ``ranking.pairing.dutch.pair_round`` and its results drawn as ``GeneratorSettings`` says.

    Raises InputError when a round cannot be paired (too many rounds for the players left).
    """
    settings.check()
    rng = random.Random(settings.seed)

    def chance(percent: float) -> bool:
        return rng.random() * 100 < percent

    ratings = sorted((LOWEST_RATING + int(rng.random() * (HIGHEST_RATING - LOWEST_RATING + 1))
                      for _ in range(settings.players)), reverse=True)
    players = tuple(Player(k, f"Player {k:04d}", rating=rating) for k, rating in enumerate(ratings, start=1))
    colour = "W" if rng.random() < 0.5 else "B"
    withdrawals = []
    if settings.rounds > 1:
        for player in players:
            if chance(settings.retire_rate):
                withdrawals.append(Withdrawal(player.id, 1 + int(rng.random() * (settings.rounds - 1))))
    t = Tournament(
        name=f"Random Swiss, seed {settings.seed}",
        players=players,
        rounds=settings.rounds,
        withdrawals=tuple(withdrawals),
        records=(("092", "FIDE_DUTCH_2025"), ("152", colour), ("XXC", "white1" if colour == "W" else "black1")),
    )
    gone = {w.player: w.after_round for w in withdrawals}
    for rnd in range(1, settings.rounds + 1):
        requested = tuple(
            Bye(rnd, player.id, ByeKind.HALF) for player in players
            if gone.get(player.id, settings.rounds) >= rnd and rnd < settings.rounds and chance(settings.bye_rate)
        )
        t = replace(t, byes=t.byes + requested)
        try:
            pairing = pair_round(t, rnd)
        except InputError as error:
            raise InputError(f"{error.message}; fewer rounds or fewer retirements would do") from None
        rating = {p.id: p.rating for p in players}
        games = tuple(Game(rnd, b.white, b.black, _result(rng, settings, rating[b.white], rating[b.black]), b.number)
                      for b in pairing.boards)
        pab = (Bye(rnd, pairing.bye, ByeKind.PAIRING),) if pairing.bye is not None else ()
        t = replace(t, games=t.games + games, byes=t.byes + pab)
    return t


def _result(rng: random.Random, settings: GeneratorSettings, white: int, black: int) -> Result:
    """One board's result: a forfeit, a draw, or a win by the Elo expectation of the ratings."""
    if rng.random() * 100 < settings.forfeit_rate:
        roll = rng.random()
        return Result.WHITE_WINS_FORFEIT if roll < 0.45 else Result.BLACK_WINS_FORFEIT if roll < 0.9 \
            else Result.DOUBLE_FORFEIT
    if rng.random() * 100 < settings.draw_rate:
        return Result.DRAW
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    return Result.WHITE_WINS if rng.random() < expected else Result.BLACK_WINS
