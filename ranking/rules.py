"""Scoring systems and the options that change how tie-breaks are computed.

RULES.md section 1 (scoring) and section 3 (options).  A ``Rules`` value is a scoring
system, a tie-break chain and options; presets (``ranking.presets``) are named ``Rules``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ranking.playoffs import PlayoffRule


class Outcome(enum.IntEnum):
    """Loss, draw or win; ``fraction`` is the share of the game won (SB, FIDE C.07 9.1)."""

    LOSS = 0
    DRAW = 1
    WIN = 2

    @property
    def fraction(self) -> float:
        return self / 2


@dataclass(frozen=True)
class Scoring:
    """Points for each result (RULES.md 1).

    ``draw_first``/``draw_second`` give colour-dependent draws (CXA 13.3: first mover 1,
    second mover 2); byes default to win (PAB, full-point bye), draw (half-point bye) and
    zero.  ``match`` turns on match scoring: games between the same two players in one
    round form a match worth ``match`` = (win, draw, loss) match points, and game points
    become the ``GP`` tie-break (CXA 14.2, VN 21.2).

    >>> Scoring.parse("2,1,0").win
    2.0
    """

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    draw_first: float | None = None
    draw_second: float | None = None
    pairing_bye: float | None = None
    full_bye: float | None = None
    half_bye: float | None = None
    zero_bye: float = 0.0
    forfeit_win: float | None = None
    forfeit_loss: float | None = None
    match: tuple[float, float, float] | None = None

    @classmethod
    def parse(cls, text: str) -> Scoring:
        """Read ``W,D,L`` (e.g. ``2,1,0`` or ``3,1,0``)."""
        parts = text.replace(" ", "").split(",")
        if len(parts) != 3:
            raise ValueError(f"points {text!r}: expected win,draw,loss such as 1,0.5,0 or 2,1,0")
        try:
            win, draw, loss = (float(part) for part in parts)
        except ValueError:
            raise ValueError(f"points {text!r}: expected three numbers such as 2,1,0") from None
        if not win > draw >= loss:
            raise ValueError(f"points {text!r}: a win must score more than a draw, a draw at least a loss")
        return cls(win=win, draw=draw, loss=loss)

    def game_points(self, outcome: Outcome, first_mover: bool) -> float:
        """Points for a game played with the given outcome and colour."""
        if outcome is Outcome.WIN:
            return self.win
        if outcome is Outcome.LOSS:
            return self.loss
        if first_mover and self.draw_first is not None:
            return self.draw_first
        if not first_mover and self.draw_second is not None:
            return self.draw_second
        return self.draw

    @property
    def pairing_bye_points(self) -> float:
        return self.win if self.pairing_bye is None else self.pairing_bye

    @property
    def full_bye_points(self) -> float:
        return self.win if self.full_bye is None else self.full_bye

    @property
    def half_bye_points(self) -> float:
        return self.draw if self.half_bye is None else self.half_bye

    @property
    def forfeit_win_points(self) -> float:
        return self.win if self.forfeit_win is None else self.forfeit_win

    @property
    def forfeit_loss_points(self) -> float:
        return self.loss if self.forfeit_loss is None else self.forfeit_loss

    def outcome_of(self, points: float) -> Outcome:
        """The outcome a number of points stands for (a bye worth a win is a win)."""
        if points >= self.win:
            return Outcome.WIN
        if points > self.loss:
            return Outcome.DRAW
        return Outcome.LOSS

    def as_json(self) -> dict[str, float]:
        return {"win": self.win, "draw": self.draw, "loss": self.loss}


CHESS = Scoring()
XIANGQI = Scoring(win=2.0, draw=1.0, loss=0.0)
THREE_POINT = Scoring(win=3.0, draw=1.0, loss=0.0)
THREE_POINT_COLOUR = Scoring(win=3.0, draw=1.0, loss=0.0, draw_first=1.0, draw_second=2.0)

SCORING_SYSTEMS: dict[str, Scoring] = {
    "chess": CHESS,
    "xiangqi": XIANGQI,
    "three-point": THREE_POINT,
    "three-point-colour": THREE_POINT_COLOUR,
}


class Edition(enum.StrEnum):
    """FIDE C.07 edition: article 16 unplayed-round handling differs (16.4 dummy caps)."""

    FIDE_2024 = "2024"
    FIDE_2026 = "2026"


class ByeValue(enum.StrEnum):
    """What an unplayed round contributes to the player's own BH/SB (RULES.md 3)."""

    FIDE = "fide"  # C.07 16.3-16.5: the dummy opponent
    LOWEST_SCORE = "lowest-score"  # CXA 14.4: the lowest final score in the field
    ZERO = "zero"


class DirectEncounterMode(enum.StrEnum):
    FIDE = "fide"  # C.07 6.3: rank whoever can no longer be caught
    ALL_MET = "all-met"  # ZS: no separation unless every tied player met every other


class PreviousMode(enum.StrEnum):
    CUMULATIVE = "cumulative"  # score after round n-1, n-2, ...
    ROUND_RESULT = "round-result"  # points scored in round n, n-1, ...


class RoundRobinWithdrawal(enum.StrEnum):
    """What a withdrawal does to a round robin's results (RULES.md 5)."""

    KEEP = "keep"  # FIDE: results stand, unplayed games are forfeits (C.07 15.2)
    ANNUL_AT_MOST_HALF = "annul-at-most-half"  # VN 21.5.1: half or fewer played -> all annulled
    ANNUL_BELOW_HALF = "annul-below-half"  # CXA, older edition: fewer than half -> all annulled


@dataclass(frozen=True)
class Options:
    """Options of RULES.md 3 that change a tie-break."""

    fide_edition: Edition = Edition.FIDE_2026
    bye_value_in_bh: ByeValue = ByeValue.FIDE
    keep_rounds: int = 0
    de_mode: DirectEncounterMode = DirectEncounterMode.FIDE
    prev_mode: PreviousMode = PreviousMode.CUMULATIVE
    lots_seed: str = ""
    rr_withdrawal: RoundRobinWithdrawal = RoundRobinWithdrawal.KEEP

    @classmethod
    def from_mapping(cls, values: dict[str, object], base: Options | None = None) -> Options:
        """Options from a TOML table, naming the key and the accepted values on error."""
        options = base or cls()
        converters = {
            "fide_edition": Edition,
            "bye_value_in_bh": ByeValue,
            "keep_rounds": int,
            "de_mode": DirectEncounterMode,
            "prev_mode": PreviousMode,
            "lots_seed": str,
            "rr_withdrawal": RoundRobinWithdrawal,
        }
        changes = {}
        for key, value in values.items():
            convert = converters.get(key)
            if convert is None:
                raise ValueError(f"unknown option {key!r}: expected one of {', '.join(converters)}")
            try:
                changes[key] = convert(str(value) if convert is not int else value)
            except ValueError:
                accepted = ", ".join(str(v) for v in convert) if isinstance(convert, enum.EnumMeta) else "an integer"
                raise ValueError(f"option {key} = {value!r}: expected {accepted}") from None
        return replace(options, **changes)


@dataclass(frozen=True)
class Rules:
    """A scoring system, a tie-break chain (codes in order) and options."""

    scoring: Scoring = field(default_factory=Scoring)
    tiebreaks: tuple[str, ...] = ()
    options: Options = field(default_factory=Options)
    description: str = ""
    playoff: PlayoffRule | None = None  # places decided by a play-off (RULES.md 6)
