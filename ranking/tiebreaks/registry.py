"""The tie-break registry machinery, shared by the individual and the team tie-breaks.

A ``Registry`` maps codes to ``Tiebreak`` entries.  Adding a tie-break is one function and one
decorator (``@REGISTRY.register(...)`` in ``ranking.tiebreaks.individual``, ``@TEAM_REGISTRY.register``
in ``ranking.tiebreaks.team``).  An entry is of one of three kinds, each with one signature:

- ``SCORE``: ``compute(sheet, spec) -> list[Value]``, one value per player (or team), in the
  sheet's index order; higher is better unless ``lower_is_better``.
- ``KEYED``: ``compute(sheet, spec) -> (values, keys)``: the values to report and the keys to
  order by, best first (ascending), when the value alone does not order (SUMRANK).
- ``ORDER``: ``compute(sheet, spec, group) -> tiers``: splits a tied group into tiers, best
  first (DE, DEB, PREV, PS-D, LOT, EDE, BC, ...); the standings report the place inside the
  group (docs/architecture.md#command-line).

Here too: ranking by a chain (C.07 4.2, ``rank_by_chain``) and the cuts and medians of C.07 14
and 16.5 (``cut_total``), whose arithmetic is ``ranking.standings.ordering``'s, which the standings
engine shares; the drawing of lots is ``ranking.tiebreaks.lots``'s.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ranking.standings.ordering import KEYED, ORDER, SCORE, apply_chain, cut_values

Value = float | int | None


class EntryKind(enum.Enum):
    SCORE = "score"
    KEYED = "keyed"
    ORDER = "order"


@dataclass(frozen=True)
class Tiebreak:
    """A registry entry: its code, name, source article and one-line definition."""

    code: str
    name: str
    article: str
    definition: str
    compute: Callable[..., Any]
    kind: EntryKind = EntryKind.SCORE
    lower_is_better: bool = False
    modifiers: str = ""  # accepted modifier letters: C (cut), M (median), L (limit), P (forfeits)

    @property
    def orders(self) -> bool:
        """True: splits tied groups (reports places); False: scores players."""
        return self.kind is EntryKind.ORDER


class Spec(Protocol):
    """A parsed code (``ranking.tiebreaks.codes``): the entry's name and the code as given."""

    @property
    def code(self) -> str: ...
    @property
    def name(self) -> str: ...


S = TypeVar("S", bound=Spec)


class Registry(Generic[S]):
    """Tie-breaks by code, with aliases (``GE`` for ``REP``), and the grammar that parses their
    codes (``ranking.tiebreaks.codes``)."""

    def __init__(self, parser: Callable[[str, Registry[S]], S]) -> None:
        self._entries: dict[str, Tiebreak] = {}
        self._parser = parser

    def register(self, code: str, name: str, article: str, definition: str, *, orders: bool = False,
                 keyed: bool = False, lower_is_better: bool = False, modifiers: str = "",
                 aliases: Sequence[str] = ()) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """A decorator that registers ``function`` under ``code`` (and its ``aliases``)."""
        kind = EntryKind.ORDER if orders else EntryKind.KEYED if keyed else EntryKind.SCORE

        def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
            entry = Tiebreak(code, name, article, definition, function, kind, lower_is_better, modifiers)
            for name_ in (code, *aliases):
                if name_ in self._entries:
                    raise ValueError(f"tie-break {name_} registered twice")
                self._entries[name_] = entry
            return function
        return decorate

    # -- a mapping of code -> entry ---------------------------------------------------------

    def __getitem__(self, code: str) -> Tiebreak:
        return self._entries[code]

    def __contains__(self, code: object) -> bool:
        return code in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def items(self):
        return self._entries.items()

    def values(self):
        return self._entries.values()

    def keys(self):
        return self._entries.keys()

    # -- listing and parsing ------------------------------------------------------------------

    def listing(self) -> list[tuple[Tiebreak, list[str]]]:
        """Every entry once, in registration order, with its aliases (for ``tiebreak
        tiebreaks`` and the README's table)."""
        listed = []
        for code, entry in self._entries.items():
            if entry.code == code:
                listed.append((entry, [alias for alias, other in self._entries.items()
                                       if other is entry and alias != code]))
        return listed

    def parse(self, code: str) -> S:
        """One code parsed against this registry; InputError names the code and what is accepted."""
        return self._parser(code, self)

    def describe(self, spec: S) -> str:
        """The plain-English words for a parsed code, base and modifiers (C.07 14, TRF-2026
        grammar): two different codes never get the same words.

        >>> from ranking.tiebreaks.individual import REGISTRY
        >>> from ranking.tiebreaks.team import TEAM_REGISTRY
        >>> def describe(code): return REGISTRY.describe(REGISTRY.parse(code))
        >>> def describe_team(code): return TEAM_REGISTRY.describe(TEAM_REGISTRY.parse(code))
        >>> describe("BH")
        'Buchholz'
        >>> describe("BH-C1")
        "Buchholz without the lowest opponent's score"
        >>> describe("BH/C2")
        "Buchholz without the two lowest opponents' scores"
        >>> describe("BH-M1")
        'Median Buchholz: without the highest and the lowest'
        >>> describe("BH/M2/P")
        'Median Buchholz: without the two highest and the two lowest, forfeits counted as games'
        >>> describe("SB-C1")
        'Sonneborn-Berger without the lowest-scoring opponent'
        >>> describe("KS/L+1")
        'Koya with the limit moved up by one half-point'
        >>> describe("KS/L-2")
        'Koya with the limit moved down by two half-points'
        >>> describe("AROC") == describe("ARO-C1")
        True
        >>> describe("ARO-C1")
        'Average rating of opponents without the lowest-rated opponent'
        >>> describe("PS/C2")
        'Progressive score without the first two rounds'
        >>> describe("WON/P")
        'Games won, forfeits counted as games'
        >>> describe_team("BH:MP/C1")
        "Buchholz on match points without the lowest opponent's score"
        >>> describe_team("EMGSB")
        "Extended Sonneborn-Berger (opponents' match points x own game points)"
        """
        entry = self[spec.name]
        name, base = entry.name, entry.code
        score, esb, limit = getattr(spec, "score", ""), getattr(spec, "esb", ""), getattr(spec, "limit", 0)
        if score:
            name += f" on {_SCORES[score]}"
        if esb:
            name += f" (opponents' {_SCORES[esb[0] + 'P']} x own {_SCORES[esb[1] + 'P']})"
        low, high = spec.cut + spec.median, spec.median
        if high:
            lowest = _count(low, "the lowest", "the {n} lowest")
            text = f"Median {name}: without {_count(high, 'the highest', 'the {n} highest')} and {lowest}"
        elif low:
            text = f"{name} without {_count(low, *_CUT_WORDS.get(base, _GENERIC_CUT))}"
        else:
            text = name
        if limit:
            direction = "up" if limit > 0 else "down"
            text += f" with the limit moved {direction} by {_count(abs(limit), 'one half-point', '{n} half-points')}"
        if spec.forfeits_played:
            text += ", forfeits counted as games"
        return text


# -- describing a code in words ---------------------------------------------------------------

#: What a cut removes, per tie-break: (one, several) for "without the lowest ..." (C.07 14.1).
_CUT_WORDS = {
    "BH": ("the lowest opponent's score", "the {n} lowest opponents' scores"),
    "FB": ("the lowest opponent's score", "the {n} lowest opponents' scores"),
    "SB": ("the lowest-scoring opponent", "the {n} lowest-scoring opponents"),
    "ESB": ("the lowest-scoring opponent", "the {n} lowest-scoring opponents"),
    "ARO": ("the lowest-rated opponent", "the {n} lowest-rated opponents"),
    "PS": ("the first round", "the first {n} rounds"),
}
_GENERIC_CUT = ("the lowest value", "the {n} lowest values")
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}
_SCORES = {"MP": "match points", "GP": "game points"}


def _count(n: int, one: str, several: str) -> str:
    return one if n == 1 else several.format(n=_NUMBERS.get(n, str(n)))


# -- ranking by a chain (C.07 4.2), cuts and medians (C.07 14, 16.5) -----------------------------

_HOW = {EntryKind.SCORE: SCORE, EntryKind.KEYED: KEYED, EntryKind.ORDER: ORDER}


def rank_by_chain(groups: list[list[int]], chain: Sequence[Spec], registry: Registry[Any], sheet: Any,
                  ids: Sequence[int]) -> tuple[list[list[int]], dict[str, list[Value]]]:
    """Apply each criterion of the chain inside the groups still tied (C.07 4.2;
    ``ranking.standings.ordering.apply_chain``).

    ``groups`` are the players (or teams, as sheet indexes) tied on the primary score, best
    group first; ``ids`` their starting numbers, which order the members of a tier.  Returns
    the final groups (members tied on everything) and each code's column of values: scores
    for scored criteria, for ordering ones the place inside the group tied before them
    (1 = first; 0 for everyone in a group they do not split).
    """
    criteria = []
    for spec in chain:
        entry = registry[spec.name]
        compute = functools.partial(entry.compute, sheet, spec)
        decimals = getattr(sheet, "decimals", None)
        if entry.kind is EntryKind.SCORE and decimals is not None:
            compute = functools.partial(_rounded, compute, decimals)
        criteria.append((spec.code, _HOW[entry.kind], compute, entry.lower_is_better))
    return apply_chain(groups, criteria, ids)


def _rounded(compute: Callable[[], list[Value]], decimals: int) -> list[Value]:
    """``compute()``'s values kept to ``decimals`` places: under a 0.1-point scoring
    2.9000000000000004 is 2.9, so equal players tie."""
    return [round(value, decimals) if isinstance(value, float) else value for value in compute()]


def cut_total(sheet: Any, spec: Any, items: list[tuple[float, Any, bool]]) -> float:
    """Sum ``items`` (contribution, significance, VUR) after the Cn/Mn cuts of C.07 14 and
    16.5.1 (``ranking.standings.ordering.cut_values``), individual and team tie-breaks alike: ``sheet``
    gives ``options.keep_rounds`` and ``spec`` the ``cut`` and ``median``."""
    return cut_values(items, spec.cut + spec.median, spec.median, sheet.options.keep_rounds)
