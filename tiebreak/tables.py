"""Terminal tables: plain text padded by display width, so Chinese and Vietnamese names line
up, and the tables the ``tiebreak`` command prints (standings, teams, presets, codes).

>>> display_width("许银川"), display_width("Lại Lý Huynh")
(6, 12)
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ranking.errors import InputError

if TYPE_CHECKING:
    from ranking.standings import Standings


# C0 and C1 controls and DEL, the line and paragraph separators, and the bidi controls that
# reorder what a terminal or a page shows.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def unsafe_characters(text: str) -> list[str]:
    """The control characters in ``text``, as escapes.

    >>> unsafe_characters("Ann\\x1b[31m Lee\\n")
    ['\\\\x1b', '\\\\n']
    """
    return [_escape(match.group()) for match in _UNSAFE.finditer(text)]


def printable(text: str) -> str:
    """``text`` as a terminal may show it: control characters become escapes.

    >>> printable("Ann\\x1b]0;owned\\x07")
    'Ann\\\\x1b]0;owned\\\\x07'
    """
    return _UNSAFE.sub(lambda match: _escape(match.group()), text)


def _escape(char: str) -> str:
    return repr(char)[1:-1] if char.isascii() or ord(char) < 0x100 else f"\\u{ord(char):04x}"


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide (CJK) characters count 2, combining marks 0."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` display columns (right-aligned if asked)."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def format_number(value: float | int | None) -> str:
    """A score as people write it: ``7.5``, ``52``, ``9.75``; an absent value as ``-``."""
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def format_column(values: Sequence[float | int | None]) -> list[str]:
    """Numbers of one column with the same number of decimals, so the points line up.

    >>> format_column([4.0, 3.5, 9.25])
    ['4.00', '3.50', '9.25']
    """
    decimals = 0
    for value in values:
        if isinstance(value, float) and not value.is_integer():
            decimals = max(decimals, min(2, len(f"{value:g}".partition(".")[2])))
    return ["-" if value is None else f"{value:.{decimals}f}" for value in values]


def render_table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[bool]) -> str:
    """Columns separated by two spaces; numeric columns right-aligned; control characters in a
    cell shown as escapes (``tiebreak.checks.printable``)."""
    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [display_width(title) for title in header]
    for row in rows:
        for column, cell in enumerate(row):
            widths[column] = max(widths[column], display_width(cell))
    lines = []
    for row in (header, *rows):
        cells = [pad(cell, widths[column], numeric[column]) for column, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def team_table(teams) -> str:
    """The team standings as an aligned table (match points, game points, the team chain)."""
    codes = list(teams.tiebreaks)
    columns = [format_column([row.match_points for row in teams.rows]),
               format_column([row.game_points for row in teams.rows])]
    columns += [format_column([row.values[code] for row in teams.rows]) for code in codes]
    rows = [[str(row.rank), row.team.name, *(column[index] for column in columns)]
            for index, row in enumerate(teams.rows)]
    header = ["#", "Team", "MP", "GP", *codes]
    return f"Teams after round {teams.after_round}; tie-breaks: {', '.join(codes) or 'none'}\n\n" + render_table(
        header, rows, [True, False, True, True, *([True] * len(codes))])

def playoff_lines(playoffs, standings: Standings) -> str:
    """What the play-offs of docs/rules.md#play-offs still need, or how they decided the places."""
    names = {row.player.id: row.player.name for row in standings.rows}
    lines = []
    for group in playoffs.groups:
        who = printable(", ".join(names[player] for player in group.players))
        places = "-".join(str(place) for place in (group.first_place, group.first_place + len(group.players) - 1))
        if group.decided:
            lines.append(f"places {places} decided by a play-off ({group.format}): {who}")
            continue
        lines.append(f"play-off required for places {places} ({group.format}): {who}")
        for game in group.pending:
            lines.append(printable(f"  play-off round {game.round}: {names[game.white]} - {names[game.black]}"))
    return "\n".join(lines)

def standings_table(standings: Standings) -> str:
    """The standings as an aligned table, with a heading naming the rules used."""
    codes = list(standings.tiebreaks)
    header = ["#", "No", "Name", "Fed", "Rtg", "Pts", *codes]
    numeric = [True, True, False, False, True, True, *([True] * len(codes))]
    columns = [format_column([row.points for row in standings.rows])]
    columns += [format_column([row.values[code] for row in standings.rows]) for code in codes]
    rows = [
        [str(row.rank), str(row.player.id), row.player.name, row.player.federation,
         str(row.player.rating or ""), *(column[number] for column in columns)]
        for number, row in enumerate(standings.rows)
    ]
    scoring = standings.rules.scoring
    lines = [
        printable(standings.tournament.name),
        f"after round {standings.after_round}; points {format_number(scoring.win)}/"
        f"{format_number(scoring.draw)}/{format_number(scoring.loss)}; "
        f"tie-breaks: {', '.join(codes) or 'none'}; FIDE C.07 {standings.rules.options.fide_edition}",
    ]
    if "LOT" in codes:
        seed = standings.rules.options.lots_seed or standings.tournament.name
        lines.append(f"lots drawn with seed {seed!r}")
    lines.append("")
    lines.append(render_table(header, rows, numeric))
    return "\n".join(lines)


def presets_table() -> str:
    """``tiebreak presets``: every rule preset and team preset."""
    from ranking.presets import PRESETS, TEAM_PRESETS  # the listings only (start-up time)

    rows = []
    for name, rules in PRESETS.items():
        scoring = rules.scoring
        points = "/".join(format_number(value) for value in (scoring.win, scoring.draw, scoring.loss))
        if scoring.match:
            points += " (match)"
        rows.append([name, points, ", ".join(rules.tiebreaks), rules.description])
    team_rows = [[name, "/".join(format_number(v) for v in (p.scoring.match_win, p.scoring.match_draw,
                                                           p.scoring.match_loss)),
                  ", ".join(p.rules.tiebreaks), p.description] for name, p in TEAM_PRESETS.items()]
    return (render_table(["preset", "points", "tie-breaks", "rule"], rows, [False] * 4) + "\n\n"
            + render_table(["team preset", "match points", "tie-breaks", "rule"], team_rows, [False] * 4))


def tiebreaks_listing(width: int = 100) -> str:
    """``tiebreak tiebreaks``: every code, its name and modifiers on one line, then its
    definition and source wrapped to ``width`` columns (the terminal's)."""
    from ranking.team_tiebreaks import TEAM_REGISTRY  # the listings only (start-up time)
    from ranking.tiebreaks import REGISTRY  # the listings only (start-up time)

    def block(code: str, name: str, definition: str, source: str, modifiers: str = "") -> list[str]:
        head = f"{code:<8}{name}" + (f"  [modifiers: {modifiers}]" if modifiers else "")
        body = textwrap.wrap(definition, max(width - 8, 30)) + textwrap.wrap(source, max(width - 8, 30))
        return [head, *(" " * 8 + line for line in body)]

    lines = ["Individual tie-breaks (`tiebreak tiebreaks CODE` explains one):", ""]
    for entry, aliases in REGISTRY.listing():
        name = entry.name + (f" (also {', '.join(aliases)})" if aliases else "")
        lines += block(entry.code, name, entry.definition, entry.article, ", ".join(entry.modifiers))
    lines += ["", "Team tie-breaks:", ""]
    for entry, _ in TEAM_REGISTRY.listing():
        lines += block(entry.code, entry.name, entry.definition, entry.article)
    return "\n".join(lines)


def tiebreak_explained(code: str) -> str:
    """``tiebreak tiebreaks CODE``: what one code (modifiers included) means, and its rule."""
    from ranking.team_tiebreaks import TEAM_REGISTRY  # the listings only (start-up time)
    from ranking.tiebreaks import REGISTRY  # the listings only (start-up time)

    for registry in (REGISTRY, TEAM_REGISTRY):
        try:
            spec = registry.parse(code)
        except InputError:
            continue
        entry = registry[spec.name]
        modifiers = f"\nmodifiers it takes: {', '.join(entry.modifiers)}" if entry.modifiers else ""
        return (f"{code}: {registry.describe(spec)}\n{entry.name}: {entry.definition}\n"
                f"source: {entry.article}{modifiers}")
    REGISTRY.parse(code)  # raises InputError naming the code and what is accepted
    raise InputError(f"unknown tie-break {code!r}")
