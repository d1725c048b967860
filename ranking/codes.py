"""Tie-break codes: ``NAME[:MP|:GP][/Cn|/Mn|/L±n][/P]`` (TRF-2026 grammar) and ``NAME-Cn``.

>>> parse_code("BH/C1").canonical == parse_code("BH-C1").canonical
True
>>> parse_code("KS/L+1").limit
1
>>> parse_code("AROC").canonical == parse_code("AROC-1").canonical == "ARO/C1"
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ranking.errors import InputError

#: Older spellings that carry a modifier in the name: AROC (older FIDE lists, seed 001 a1) and
#: AROC-1 (other programs) are ARO-C1.  The registry lists them as aliases of ARO.
_SPELLINGS = {"AROC": ("ARO", "C1"), "AROC-1": ("ARO", "C1")}

_MODIFIER = re.compile(r"^(?:(?P<cut>C\d)|(?P<median>M\d)|(?P<limit>L[+-]?\d)|(?P<played>P))$")


@dataclass(frozen=True)
class TiebreakSpec:
    """A parsed code: the tie-break's ``name`` and its modifiers (FIDE C.07 14)."""

    code: str  # as given; JSON keys use it
    name: str
    cut: int = 0  # Cn: drop the n least significant values
    median: int = 0  # Mn: drop the n least and the n most significant values
    limit: int = 0  # L±n: move the Koya threshold by n half-points
    forfeits_played: bool = False  # P: forfeits count as games against the scheduled opponent

    @property
    def canonical(self) -> str:
        """The code with modifiers in slash form (``BH/C1``)."""
        parts = [self.name]
        if self.cut:
            parts.append(f"C{self.cut}")
        if self.median:
            parts.append(f"M{self.median}")
        if self.limit:
            parts.append(f"L{self.limit:+d}")
        if self.forfeits_played:
            parts.append("P")
        return "/".join(parts)


def parse_code(code: str, known: frozenset[str] | None = None) -> TiebreakSpec:
    """Parse one code; ``known`` (the registry's names) lets hyphenated names such as
    ``PS-D`` stand whole.  Raises InputError naming the code and the accepted forms."""
    from ranking.tiebreaks import REGISTRY  # the registry imports this module

    names = known if known is not None else frozenset(REGISTRY)
    text = code.strip()
    head, *modifiers = text.upper().split("/")
    if head in _SPELLINGS:
        head, implied = _SPELLINGS[head]
        modifiers = [implied, *modifiers]
    if head not in names and "-" in head:
        head, *dashed = head.split("-")
        modifiers = dashed + modifiers
    if head not in names:
        raise InputError(f"unknown tie-break {code!r}: `tiebreak tiebreaks` lists the codes")
    fields: dict[str, int | bool] = {}
    for modifier in modifiers:
        matched = _MODIFIER.match(modifier)
        if not matched:
            raise InputError(
                f"tie-break {code!r}: unknown modifier {modifier!r} (expected Cn, Mn, L+n, L-n or P)")
        kind = matched.lastgroup
        assert kind is not None
        if kind in fields:
            raise InputError(f"tie-break {code!r}: modifier {kind} given twice")
        fields[kind] = True if kind == "played" else int(modifier[1:])
    spec = TiebreakSpec(
        code=text,
        name=head,
        cut=int(fields.get("cut", 0)),
        median=int(fields.get("median", 0)),
        limit=int(fields.get("limit", 0)),
        forfeits_played=bool(fields.get("played", False)),
    )
    allowed = REGISTRY[head].modifiers if known is None else None
    if allowed is not None:
        for letter, used in (("C", spec.cut), ("M", spec.median), ("L", spec.limit), ("P", spec.forfeits_played)):
            if used and letter not in allowed:
                accepted = ", ".join(allowed) or "none"
                raise InputError(f"tie-break {code!r}: {head} takes no {letter} modifier (accepts: {accepted})")
    return spec


def split_codes(text: str) -> list[str]:
    """Split a comma- or space-separated list of codes (``BH-C1,BH,SB``)."""
    return [part for part in re.split(r"[,\s]+", text) if part]


# -- plain-English descriptions ---------------------------------------------------------------

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


def describe(spec: Any) -> str:
    """The plain-English words for a parsed code, base and modifiers (C.07 14, TRF-2026
    grammar): two different codes never get the same words.  ``spec`` is a ``TiebreakSpec``
    (``parse_code``) or a team code's ``TeamSpec`` (``ranking.team_tiebreaks.parse_team_code``).

    >>> describe(parse_code("BH"))
    'Buchholz'
    >>> describe(parse_code("BH-C1"))
    "Buchholz without the lowest opponent's score"
    >>> describe(parse_code("BH/C2"))
    "Buchholz without the two lowest opponents' scores"
    >>> describe(parse_code("BH-M1"))
    'Median Buchholz: without the highest and the lowest'
    >>> describe(parse_code("BH/M2/P"))
    'Median Buchholz: without the two highest and the two lowest, forfeits counted as games'
    >>> describe(parse_code("SB-C1"))
    'Sonneborn-Berger without the lowest-scoring opponent'
    >>> describe(parse_code("KS/L+1"))
    'Koya with the limit moved up by one half-point'
    >>> describe(parse_code("KS/L-2"))
    'Koya with the limit moved down by two half-points'
    >>> describe(parse_code("AROC")) == describe(parse_code("ARO-C1"))
    True
    >>> describe(parse_code("ARO-C1"))
    'Average rating of opponents without the lowest-rated opponent'
    >>> describe(parse_code("PS/C2"))
    'Progressive score without the first two rounds'
    >>> describe(parse_code("WON/P"))
    'Games won, forfeits counted as games'
    >>> from ranking.team_tiebreaks import parse_team_code
    >>> describe(parse_team_code("BH:MP/C1"))
    "Buchholz on match points without the lowest opponent's score"
    >>> describe(parse_team_code("EMGSB"))
    "Extended Sonneborn-Berger (opponents' match points x own game points)"
    """
    if isinstance(spec, TiebreakSpec):
        from ranking.tiebreaks import REGISTRY

        name, score, esb, limit = REGISTRY[spec.name].name, "", "", spec.limit
        base = REGISTRY[spec.name].code
    else:
        from ranking.team_tiebreaks import TEAM_REGISTRY

        name, score, esb, limit = TEAM_REGISTRY[spec.name].name, spec.score, spec.esb, 0
        base = spec.name
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
