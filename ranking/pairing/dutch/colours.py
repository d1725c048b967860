"""Colour differences, colour preferences and the colour allocation of one pair (C.04.3 1.6, 1.7, 5).

Colours are ``W`` (white, red in xiangqi: the first mover) and ``B``.  A colour history is
the sequence of colours of the games a player *played*, oldest first: byes, absences and
forfeited games are left out, which is GHR 3.4's reading "unplayed rounds count as if at the
start of the history" (BWBuW reads uBWBW).

>>> preference(("W", "W"))
Preference(colour='B', strength=<Strength.ABSOLUTE: 3>, difference=2)
>>> preference(("W", "B", "W"))
Preference(colour='B', strength=<Strength.STRONG: 2>, difference=1)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Preference", "Strength", "allocate", "other", "preference"]


class Strength(enum.IntEnum):
    """How much a player wants his preferred colour (C.04.3 1.7)."""

    NONE = 0
    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


@dataclass(frozen=True, slots=True)
class Preference:
    """A colour preference: ``colour`` is ``W``, ``B`` or ``""`` (no preference)."""

    colour: str
    strength: Strength
    difference: int  # colour difference CD (1.6): games with white minus games with black


def other(colour: str) -> str:
    return "B" if colour == "W" else "W"


def preference(history: tuple[str, ...]) -> Preference:
    """The colour preference after the played ``history`` (C.04.3 1.7).

    Absolute: CD > +1 or < -1 (the colour that reduces it), or the same colour in the two
    last played games (the other one); strong: CD = ±1 (the colour that reduces it); mild:
    CD = 0 (the other colour than in the last game); none before the first game.
    """
    if not history:
        return Preference("", Strength.NONE, 0)
    cd = history.count("W") - history.count("B")
    if cd > 1 or cd < -1:
        return Preference("B" if cd > 0 else "W", Strength.ABSOLUTE, cd)
    if len(history) >= 2 and history[-1] == history[-2]:
        return Preference(other(history[-1]), Strength.ABSOLUTE, cd)
    if cd:
        return Preference("B" if cd > 0 else "W", Strength.STRONG, cd)
    return Preference(other(history[-1]), Strength.MILD, cd)


def allocate(
    higher: tuple[str, ...],
    lower: tuple[str, ...],
    higher_rank_number: int,
    initial: str,
) -> str:
    """The colour of the higher-ranked player of a pair (C.04.3 5.2), ``W`` or ``B``.

    ``higher`` and ``lower`` are the played-colour histories of the higher- and the
    lower-ranked player (Art. 1.2 order); ``initial`` is the colour drawn for TPN 1 (5.1).
    5.2.1 both preferences are granted when they differ (a player without one takes what
    is left); 5.2.2 the stronger preference is granted, and of two absolute ones the one
    with the wider colour difference; 5.2.3 going back through both histories to the
    latest round in which they had different colours, each gets the other colour than then;
    5.2.4 the higher-ranked player's preference; 5.2.5 the higher-ranked player gets the
    initial colour when his rank number is odd, else the other one: his TPN counted among the
    players in the event so far (``PlayerState.rank_number``).
    """
    ph, pl = preference(higher), preference(lower)
    if ph.colour and pl.colour and ph.colour != pl.colour:
        return ph.colour
    if ph.colour and not pl.colour:
        return ph.colour
    if pl.colour and not ph.colour:
        return other(pl.colour)
    if ph.colour:  # same preferred colour
        if ph.strength != pl.strength:
            return ph.colour if ph.strength > pl.strength else other(pl.colour)
        if ph.strength is Strength.ABSOLUTE and abs(ph.difference) != abs(pl.difference):
            return ph.colour if abs(ph.difference) > abs(pl.difference) else other(pl.colour)
    for a, b in zip(reversed(higher), reversed(lower), strict=False):
        if a != b:
            return other(a)
    if ph.colour:
        return ph.colour
    return initial if higher_rank_number % 2 == 1 else other(initial)
