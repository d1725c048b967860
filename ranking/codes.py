"""Tie-break codes: ``NAME[:MP|:GP][/Cn|/Mn|/L±n][/P]`` (TRF-2026 grammar) and ``NAME-Cn``.

>>> parse_code("BH/C1").canonical == parse_code("BH-C1").canonical
True
>>> parse_code("KS/L+1").limit
1
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ranking.errors import InputError

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
