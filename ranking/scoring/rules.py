"""Scoring systems and the options that change how tie-breaks are computed.

docs/rules.md#scoring and docs/rules.md#options.  A ``Rules`` value is a scoring
system, a tie-break chain and options; presets (``ranking.tiebreaks.presets``) are named ``Rules``.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field, replace
from typing import Any

from ranking.event.rounds import Kind


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
    """Points for each result (docs/rules.md#scoring).

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
        if not all(math.isfinite(value) for value in (win, draw, loss)):
            raise ValueError(f"points {text!r}: expected finite numbers such as 2,1,0")
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

    @property
    def in_quarters(self) -> bool:
        """Whether every value is a multiple of ¼ (all usual scorings): sums of such floats are
        exact, so totals need no rounding; with 0.1-point values they do (0.1 + 0.2 is not 0.3)."""
        values = [value for value in (self.win, self.draw, self.loss, self.draw_first, self.draw_second,
                                      self.pairing_bye, self.full_bye, self.half_bye, self.zero_bye,
                                      self.forfeit_win, self.forfeit_loss, *(self.match or ())) if value is not None]
        return all(float(value * 4).is_integer() for value in values)

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
    """What an unplayed round contributes to the player's own BH/SB (docs/rules.md#options)."""

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
    """What a withdrawal does to a round robin's results (docs/rules.md#withdrawals)."""

    KEEP = "keep"  # FIDE: results stand, unplayed games are forfeits (C.07 15.2)
    ANNUL_AT_MOST_HALF = "annul-at-most-half"  # VN 21.5.1: half or fewer played -> all annulled
    ANNUL_BELOW_HALF = "annul-below-half"  # CXA, older edition: fewer than half -> all annulled


@dataclass(frozen=True)
class Options:
    """Options of docs/rules.md#options that change a tie-break."""

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


# -- play-offs (docs/rules.md#play-offs, FIDE C.07 3) --------------------------------------------------------


class PlayoffWhen(enum.StrEnum):
    """C.07 3.1.2: whether the play-off comes before the tie-breaks or after them."""

    BEFORE_TIEBREAKS = "before-tiebreaks"  # equal points for a play-off place -> play-off
    AFTER_TIEBREAKS = "after-tiebreaks"  # only players still equal after every tie-break


class DrawnMatch(enum.StrEnum):
    """What follows a drawn two-game match (the seed's 1.b is missing: an event choice)."""

    ARMAGEDDON = "armageddon"  # one more game, colours by lot; a draw counts as black's win
    TIEBREAKS = "tiebreaks"  # the tournament's tie-breaks (then lots) decide


class PlayoffFormat(enum.StrEnum):
    """The seed procedure by the number of tied players."""

    MATCH = "match"  # 2 players, seed 1.a
    ROUND_ROBIN = "round-robin"  # 3 players, seed 2.a/2.b
    KNOCKOUT = "knock-out"  # 4 players (seed 3), or the top four of 5+ (seed 4)


@dataclass(frozen=True)
class PlayoffRule:
    """Which places a play-off decides (C.07 3.1.1) and when (3.1.2; docs/rules.md#play-offs).

    >>> PlayoffRule.from_mapping({"places": [1, 2], "when": "after-tiebreaks"}).places
    (1, 2)
    """

    places: tuple[int, ...] = (1,)
    when: PlayoffWhen = PlayoffWhen.BEFORE_TIEBREAKS
    drawn_match: DrawnMatch = DrawnMatch.ARMAGEDDON

    def __post_init__(self) -> None:
        if not self.places or any(not isinstance(place, int) or isinstance(place, bool) or place < 1
                                  for place in self.places):
            raise ValueError(f"play-off places {self.places!r}: expected place numbers 1, 2, ...")
        object.__setattr__(self, "places", tuple(sorted(set(self.places))))
        object.__setattr__(self, "when", PlayoffWhen(self.when))
        object.__setattr__(self, "drawn_match", DrawnMatch(self.drawn_match))

    @classmethod
    def from_mapping(cls, values: dict[str, object]) -> PlayoffRule:
        """A rule from a TOML/JSON table ``{places = [1], when = "...", drawn_match = "..."}``,
        naming the key and the accepted values on error."""
        known = {"places", "when", "drawn_match"}
        for key in values:
            if key not in known:
                raise ValueError(f"unknown play-off option {key!r}: expected one of {', '.join(sorted(known))}")
        changes: dict[str, Any] = {}
        if "places" in values:
            places = values["places"]
            if isinstance(places, int) and not isinstance(places, bool):
                places = [places]
            if not isinstance(places, list | tuple) or not all(
                    isinstance(place, int) and not isinstance(place, bool) for place in places):
                raise ValueError(f"play-off places = {places!r}: expected a list of place numbers such as [1]")
            changes["places"] = tuple(places)
        for key, kind in (("when", PlayoffWhen), ("drawn_match", DrawnMatch)):
            if key in values:
                try:
                    changes[key] = kind(str(values[key]))
                except ValueError:
                    accepted = ", ".join(str(member) for member in kind)
                    raise ValueError(f"play-off {key} = {values[key]!r}: expected {accepted}") from None
        return cls(**changes)

    def as_json(self) -> dict[str, Any]:
        return {"places": list(self.places), "when": str(self.when), "drawn_match": str(self.drawn_match)}


# -- the rules of an event ---------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """A scoring system, a tie-break chain (codes in order) and options."""

    scoring: Scoring = field(default_factory=Scoring)
    tiebreaks: tuple[str, ...] = ()
    options: Options = field(default_factory=Options)
    description: str = ""
    playoff: PlayoffRule | None = None  # places decided by a play-off (docs/rules.md#play-offs)


# -- teams (docs/rules.md#teams, CXA 13.2, 14.7-14.8, FIDE C.07 11-13) ---------------------------------


@dataclass(frozen=True)
class TeamScoring:
    """Match points 2/1/0 by default (CXA 13.2, FIDE), board games scored by ``game``.

    Unplayed matches score (MP, GP); when not given: a pairing-allocated or full-point bye and a
    forfeit win count as a won match with every board won, a half-point bye as a drawn match with every
    board drawn, a zero-point bye and a forfeit loss as a lost match with nothing
    (docs/rules.md#scoring; FIDE C.07 12: "PAB counts as a win on every board").
    """

    match_win: float = 2.0
    match_draw: float = 1.0
    match_loss: float = 0.0
    game: Scoring = CHESS
    boards: int = 4
    pab: tuple[float, float] | None = None
    fpb: tuple[float, float] | None = None
    hpb: tuple[float, float] | None = None
    zpb: tuple[float, float] | None = None
    forfeit_win: tuple[float, float] | None = None
    forfeit_loss: tuple[float, float] | None = None

    def unplayed(self, kind: Kind) -> tuple[float, float]:
        """(MP, GP) of an unplayed match of the given kind."""
        boards, game = self.boards, self.game
        table = {
            Kind.PAIRING_BYE: (self.pab, (self.match_win, boards * game.pairing_bye_points)),
            Kind.FULL_BYE: (self.fpb, (self.match_win, boards * game.full_bye_points)),
            Kind.HALF_BYE: (self.hpb, (self.match_draw, boards * game.half_bye_points)),
            Kind.ZERO_BYE: (self.zpb, (self.match_loss, boards * game.zero_bye)),
            Kind.FORFEIT_WIN: (self.forfeit_win, (self.match_win, boards * game.forfeit_win_points)),
            Kind.FORFEIT_LOSS: (self.forfeit_loss, (self.match_loss, boards * game.forfeit_loss_points)),
        }
        given, default = table[kind]
        return given if given is not None else default

    def unplayed_board(self, kind: Kind) -> float:
        """The game points of each board of an unplayed match of the given kind, as the board
        tie-breaks (BC, TBR, BBE) count them: the match's game points (``unplayed``) spread
        evenly over its boards.  FIDE C.07 12: a pairing-allocated bye counts as a win on every
        board (the default here, a full-point bye alike), a forfeit as a forfeit win or loss on
        every board; a half-point bye is a half-point bye on every board and a zero-point bye
        nothing.  Where the event values an unplayed match otherwise (``pab``, ``fpb``, ...:
        TRF-2026 320, the game's bye points), its boards follow, so they add up to the game
        points the standings count.

        >>> default, drawn = TeamScoring(boards=4), TeamScoring(boards=4, pab=(1.0, 2.0))
        >>> default.unplayed_board(Kind.PAIRING_BYE), drawn.unplayed_board(Kind.PAIRING_BYE)
        (1.0, 0.5)
        """
        return self.unplayed(kind)[1] / self.boards if self.boards else 0.0

    def match_points(self, own: float, other: float) -> float:
        """CXA 13.2: the team with more game points wins the match."""
        if own > other:
            return self.match_win
        if own < other:
            return self.match_loss
        return self.match_draw

    def outcome_of(self, match_points: float) -> Outcome:
        if match_points >= self.match_win:
            return Outcome.WIN
        if match_points > self.match_loss:
            return Outcome.DRAW
        return Outcome.LOSS

    def win_value(self, score: str) -> float:
        """A won match's worth in MP, or in GP (every board won)."""
        return self.match_win if score == "MP" else self.boards * self.game.win

    def draw_value(self, score: str) -> float:
        return self.match_draw if score == "MP" else self.boards * self.game.draw


class ShortTeams(enum.StrEnum):
    """CXA 14.8 member places: a team with fewer ranked members than required."""

    UNRANKED = "unranked"  # no SUMRANK value: ranked after every complete team
    LAST_PLACE = "last-place"  # each missing member counts as the last place


@dataclass(frozen=True)
class TeamRules:
    """The primary score (``"MP"`` then GP, or ``"GP"`` then MP), the team tie-break chain and options.

    ``options`` are the individual ones of docs/rules.md#options that apply (``fide_edition``,
    ``de_mode``, ``keep_rounds``).  ``individual`` ranks the members for SUMPTS/SUMRANK
    (default: the game scoring with the FIDE Swiss chain); ``members`` is how many members'
    places SUMRANK adds (0: the number of boards).  ``round_robin``: forfeits count as played
    matches (C.07 15.2).
    """

    tiebreaks: tuple[str, ...] = ()
    primary: str = "MP"
    options: Options = field(default_factory=Options)
    individual: Rules | None = None
    members: int = 0
    short_teams: ShortTeams = ShortTeams.UNRANKED
    round_robin: bool = False
    description: str = ""

    @property
    def secondary(self) -> str:
        return "GP" if self.primary == "MP" else "MP"
