"""Warnings: what deserves a word although it is no error (``tiebreak.checks`` refuses what
the store must not admit): a tie-break whose cut leaves no value (``BH-C9``
after 7 rounds is 0 for everyone), and a TRF whose printed points disagree with its results.
The command line prints these on standard error, the bot adds them to its reply; nothing is
refused for them.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # the model loads only where a warning needs it (``tiebreak standings``' start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from ranking.event.model import Tournament
    from ranking.scoring.rules import Rules
    from ranking.standings.final import FinalStandings
    from ranking.standings.individual import Standings

#: columns 81-84 (0-based 80-84) of a TRF ``001`` line: the points the file prints
_POINTS = slice(80, 84)
#: what ends a line, as ``str.splitlines`` cuts them
_LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def chain_warnings(standings: Standings) -> list[str]:
    """One line per code whose cut or median would drop every value it has: ``BH-C9 cuts 9
    values but there are 7 rounds: it is 0 for everyone``."""
    from ranking.standings.individual import parse_chain  # (the start-up time of a file read into columns)
    from ranking.standings.ordering import cut_leaves_nothing
    from ranking.tiebreaks.codes import TiebreakSpec  # the model loads only where a warning needs it

    rules: Rules = standings.rules
    if rules.options.keep_rounds > 0:  # cuts stop while that many values remain
        return []
    rounds = standings.after_round
    warnings = []
    for spec in parse_chain(rules.tiebreaks):
        if isinstance(spec, TiebreakSpec) and cut_leaves_nothing(spec.cut, spec.median, rounds):
            dropped = spec.cut + 2 * spec.median
            warnings.append(f"{spec.code} cuts {dropped} value{'s' if dropped != 1 else ''} but there "
                            f"{'are' if rounds != 1 else 'is'} {rounds} round{'s' if rounds != 1 else ''}: "
                            f"it is 0 for everyone")
    return warnings


def totals_warnings(text: str, points: Mapping[int, float], source: str) -> list[str]:
    """One line per ``001`` line of a TRF whose printed points (columns 81-84) are not the
    points its results give (``points``, by starting number): ``open.trf:7: player 5 has 4.5
    points printed, but the results give 4``.  Blank columns are not compared."""
    warnings = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("001") or len(line) < _POINTS.stop:
            continue
        printed, pid = line[_POINTS].strip(), line[4:8].strip()
        if not printed or not pid.isdigit() or int(pid) not in points:
            continue
        try:
            value = float(printed)
        except ValueError:
            continue
        computed = points[int(pid)]
        if abs(value - computed) > 1e-9:
            warnings.append(f"{source}:{number}: player {int(pid)} has {printed} points printed, but the results "
                            f"give {computed:g}")
    return warnings


def file_warnings(path: str, tournament: Tournament, computed: FinalStandings | None = None) -> list[str]:
    """``totals_warnings`` for the TRF at ``path`` (nothing for a TOML file); ``computed``, when
    given, are standings under the file's own scoring and options (its chain may differ: the
    points do not), whose points are compared instead of ranking the tournament again."""
    if computed is not None:
        return printed_totals_warnings(path, computed.points)
    from ranking.standings.final import final_standings  # the model loads only where a warning needs it

    return printed_totals_warnings(path, lambda: final_standings(tournament).points())


def printed_totals_warnings(path: str, points: Callable[[], Mapping[int, float]]) -> list[str]:
    """``totals_warnings`` for the TRF at ``path`` against ``points()`` (called only for a
    TRF); a file read into columns gives the points the engine computed on them."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return []
    if not _has_player_line(text):  # a TOML file has none
        return []
    return totals_warnings(text, points(), path)


def _has_player_line(text: str) -> bool:
    """Whether a line of ``text`` (as ``str.splitlines`` cuts them) starts with ``001``: each
    ``001`` looked up by ``str.find`` (a pattern that starts with the line breaks tries every
    position of a large TOML file, about 10 ms for 1,000 players).

    >>> _has_player_line("012 Open\\n001    1 m    A"), _has_player_line('name = "Player 00001"')
    (True, False)
    """
    at = text.find("001")
    while at != -1:
        if at == 0 or text[at - 1] in _LINE_BREAKS:
            return True
        at = text.find("001", at + 1)
    return False


def warn(lines: Sequence[str]) -> None:
    """The command line's warnings (the command goes on), on standard error."""
    for line in lines:
        print(f"tiebreak: warning: {line}", file=sys.stderr)
