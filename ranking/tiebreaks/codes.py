"""Tie-break codes: ``NAME[:MP|:GP][/Cn|/Mn|/L±n][/P]`` (TRF-2026 grammar) and ``NAME-Cn``.

The grammars only: which names exist and which modifiers each accepts comes from a registry
(``ranking.tiebreaks.registry``), passed in as ``known``; ``REGISTRY.parse(code)`` is the usual call.

>>> from types import SimpleNamespace
>>> known = {"BH": SimpleNamespace(modifiers="CMP"), "KS": SimpleNamespace(modifiers="L")}
>>> parse_code("BH/C1", known).canonical == parse_code("BH-C1", known).canonical
True
>>> parse_code("KS/L+1", known).limit
1
>>> parse_code("AROC", {"ARO": SimpleNamespace(modifiers="CP")}).canonical
'ARO/C1'
"""

from __future__ import annotations

import re
from collections import namedtuple

from ranking.errors import InputError

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Protocol

    class Entry(Protocol):
        """What the grammar needs of a registry entry: the modifier letters it accepts (and, for
        the team grammar, its code: a ``NAME:T`` code takes no score suffix)."""

        @property
        def modifiers(self) -> str: ...

#: Older FIDE lists and other programs write ARO-C1 as AROC or AROC-1 (the registry lists
#: them as aliases of ARO).
_SPELLINGS = {"AROC": ("ARO", "C1"), "AROC-1": ("ARO", "C1")}

_MODIFIER = re.compile(r"^(?:(?P<cut>C\d)|(?P<median>M\d)|(?P<limit>L[+-]?\d)|(?P<played>P))$")


class TiebreakSpec(namedtuple("TiebreakSpec", "code name cut median limit forfeits_played", defaults=(0, 0, 0, False))):
    """A parsed code: the tie-break's ``name`` and its modifiers (FIDE C.07 14): ``code`` as
    given (JSON keys use it); ``cut`` Cn, drop the n least significant values; ``median`` Mn,
    drop the n least and the n most significant values; ``limit`` L±n, move the Koya threshold
    by n half-points; ``forfeits_played`` P, forfeits count as games against the scheduled
    opponent.  A named tuple, not a frozen dataclass: the standings engine parses codes with it
    on the command line's path, which loads no dataclasses (docs/architecture.md#the-standings-engine)."""

    __slots__ = ()

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


def parse_code(code: str, known: Mapping[str, Entry]) -> TiebreakSpec:
    """Parse one individual code against ``known`` (a registry: its names let hyphenated
    names such as ``PS-D`` stand whole, its entries say which modifiers they accept).
    Raises InputError naming the code and the accepted forms."""
    text = code.strip()
    head, *modifiers = text.upper().split("/")
    if head in _SPELLINGS:
        head, implied = _SPELLINGS[head]
        modifiers = [implied, *modifiers]
    if head not in known and "-" in head:
        head, *dashed = head.split("-")
        modifiers = dashed + modifiers
    if head not in known:
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
    allowed = known[head].modifiers
    for letter, used in (("C", spec.cut), ("M", spec.median), ("L", spec.limit), ("P", spec.forfeits_played)):
        if used and letter not in allowed:
            accepted = ", ".join(allowed) or "none"
            raise InputError(f"tie-break {code!r}: {head} takes no {letter} modifier (accepts: {accepted})")
    return spec


# -- team codes (C.07 11-13) ---------------------------------------------------------------


class TeamSpec(namedtuple("TeamSpec", "code name score esb cut median forfeits_played",
                          defaults=("", "", 0, 0, False))):
    """A parsed team code: ``score`` is "MP", "GP" or "" (the event's primary score); ``esb``
    the ESB letters (opponent's score, own score); ``cut``, ``median`` and ``forfeits_played``
    as in ``TiebreakSpec``."""

    __slots__ = ()


_ESB_NAMES = {"EMMSB": "MM", "EMGSB": "MG", "EGMSB": "GM", "EGGSB": "GG"}
_TEAM_MODIFIER = re.compile(r"^(?:C(?P<cut>\d)|M(?P<median>\d)|(?P<played>P))$")


def parse_team_code(code: str, known: Mapping[str, Entry]) -> TeamSpec:
    """Parse one team code against ``known`` (the team registry); raises InputError naming
    the code and the accepted forms.  ``TEAM_REGISTRY.parse(code)`` is the usual call.

    >>> from types import SimpleNamespace
    >>> parse_team_code("BH-C1:MP", {"BH": SimpleNamespace(modifiers="CMP")})
    TeamSpec(code='BH-C1:MP', name='BH', score='MP', esb='', cut=1, median=0, forfeits_played=False)
    """
    text = code.strip()
    head, *modifiers = text.upper().split("/")
    suffix = ""
    if ":" in head:
        head, suffix = head.split(":", 1)
    if head not in known and head not in _ESB_NAMES and "-" in head:
        head, *dashed = head.split("-")
        modifiers = dashed + modifiers
    esb = ""
    if head in _ESB_NAMES:
        head, esb = "ESB", _ESB_NAMES[head]
    if suffix == "T" and f"{head}:T" in known:  # a total over the team's boards: WIN:T, FOUL:T, ...
        head, suffix = f"{head}:T", ""
    if head not in known:
        raise InputError(f"unknown team tie-break {code!r}: expected one of {', '.join(known)}")
    score = ""
    if head == "ESB" and suffix:
        if esb or suffix not in ("MM", "MG", "GM", "GG"):
            raise InputError(f"team tie-break {code!r}: ESB takes :MM, :MG, :GM or :GG")
        esb = suffix
    elif (total := getattr(known[head], "code", head)).endswith(":T"):
        if suffix:
            raise InputError(f"team tie-break {code!r}: expected {total}")
    elif suffix:
        if suffix not in ("MP", "GP"):
            raise InputError(f"team tie-break {code!r}: expected :MP or :GP after {head}")
        score = suffix
    fields: dict[str, int] = {}
    for modifier in modifiers:
        matched = _TEAM_MODIFIER.match(modifier)
        if not matched or matched.lastgroup not in _modifier_names(known[head]):
            accepted = ", ".join(known[head].modifiers) or "none"
            raise InputError(f"team tie-break {code!r}: modifier {modifier!r} not accepted (accepts: {accepted})")
        group = matched.lastgroup
        assert group is not None
        fields[group] = 1 if group == "played" else int(matched.group(group))
    return TeamSpec(text, head, score, esb, fields.get("cut", 0), fields.get("median", 0),
                    bool(fields.get("played", 0)))


def _modifier_names(entry: Entry) -> set[str]:
    return {{"C": "cut", "M": "median", "P": "played"}[letter] for letter in entry.modifiers}



def split_codes(text: str) -> list[str]:
    """Split a comma- or space-separated list of codes (``BH-C1,BH,SB``)."""
    return [part for part in re.split(r"[,\s]+", text) if part]
