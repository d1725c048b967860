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
from ranking.event.model import Result
from ranking.scoring.points import board_points
from ranking.scoring.spelling import written_points

if TYPE_CHECKING:
    from ranking.scoring.rules import Scoring
    from ranking.standings.individual import Standings


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
    return written_points(value, half=None) if isinstance(value, float) else str(value)


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
    """The team standings as an aligned table: match points and game points, the one that ranks
    first first (each once: a chain that ranks by GP shows it in the GP column; an individual
    event's team classification has neither), then the rest of the team chain."""
    chain = list(teams.tiebreaks)
    scores = list(teams.scores)
    codes = [code for code in chain if code.upper() not in scores]
    columns = [format_column([getattr(row, _SCORE_FIELDS[score]) for row in teams.rows]) for score in scores]
    columns += [format_column([row.values[code] for row in teams.rows]) for code in codes]
    rows = [[str(row.rank), row.team.name, *(column[index] for column in columns)]
            for index, row in enumerate(teams.rows)]
    header = ["#", "Team", *scores, *codes]
    return f"Teams after round {teams.after_round}; tie-breaks: {', '.join(chain) or 'none'}\n\n" + render_table(
        header, rows, [True, False, *([True] * (len(scores) + len(codes)))])


_SCORE_FIELDS = {"MP": "match_points", "GP": "game_points"}

def playoff_lines(playoffs, standings: Standings) -> str:
    """What the play-offs of docs/rules.md#play-offs still need, or how they decided the places."""
    names = {row.player.id: row.player.name for row in standings.rows}
    lines = []
    for group in playoffs.groups:
        who = printable(", ".join(names[player] for player in group.players))
        places = "-".join(str(place) for place in (group.first_place, group.first_place + len(group.players) - 1))
        if group.decided:
            result = "; ".join(_stage_result(stage.points(standings.rules.scoring), names) for stage in group.stages)
            order = ", ".join(f"{place}. {names[player]}"
                              for place, player in enumerate(group.order, group.first_place))
            lines.append(printable(f"places {places} decided by the play-off ({group.format}: {result}): {order}"))
            continue
        lines.append(f"play-off required for places {places} ({group.format}): {who}")
        for game in group.pending:
            lines.append(printable(f"  play-off round {game.round}: {names[game.white]} - {names[game.black]}"))
    return "\n".join(lines)

def scoring_words(scoring: Scoring, first_colour: str = "white") -> str:
    """The scoring as the heading of a table says it: ``points 2/1/0``; colour-dependent draws
    (CXA 13.3) ``points 3/1/0 (a draw: red 1, black 2)``; two-game matches (VN 21.2) ``match
    points 1/0.5/0, game points 2/1/0``.  ``first_colour`` is the first mover's colour word.

    >>> from ranking.scoring.rules import THREE_POINT_COLOUR
    >>> scoring_words(THREE_POINT_COLOUR, "red")
    'points 3/1/0 (a draw: red 1, black 2)'
    """
    def values(win: float, draw: float, loss: float) -> str:
        return "/".join(format_number(value) for value in (win, draw, loss))

    if scoring.match is not None:
        return f"match points {values(*scoring.match)}, game points {values(scoring.win, scoring.draw, scoring.loss)}"
    text = f"points {values(scoring.win, scoring.draw, scoring.loss)}"
    if scoring.draw_first is not None or scoring.draw_second is not None:
        first, second = board_points(scoring, Result.DRAW)
        text += f" (a draw: {first_colour} {format_number(first)}, black {format_number(second)})"
    return text


def _stage_result(points: tuple[tuple[int, float], ...], names: dict[int, str]) -> str:
    """A play-off stage's result: ``A 1.5-0.5 B`` for two players, ``A 2, B 1, C 0`` for more."""
    if len(points) == 2:
        (first, mine), (second, theirs) = points
        return f"{names[first]} {format_number(mine)}-{format_number(theirs)} {names[second]}"
    return ", ".join(f"{names[player]} {format_number(value)}" for player, value in points)


def standings_table(standings: Standings) -> str:
    """The standings as an aligned table, with a heading naming the rules used: the scoring
    (match points where they are the score, VN 21.2), the chain, and the rules it follows (the
    C.07 edition for FIDE chains only, a CXA, ZS or VN preset's own article)."""
    from ranking.tiebreaks.presets import rules_source  # the table only (start-up time)

    codes = list(standings.tiebreaks)
    header = ["#", "No", "Name", "Fed", "Rtg", "MP" if standings.rules.scoring.match else "Pts", *codes]
    numeric = [True, True, False, False, True, True, *([True] * len(codes))]
    columns = [format_column([row.points for row in standings.rows])]
    columns += [format_column([row.values[code] for row in standings.rows]) for code in codes]
    rows = [
        [str(row.rank), str(row.player.id), row.player.name, row.player.federation,
         str(row.player.rating or ""), *(column[number] for column in columns)]
        for number, row in enumerate(standings.rows)
    ]
    source = rules_source(standings.rules)
    lines = [
        printable(standings.tournament.name),
        f"after round {standings.after_round}; "
        f"{scoring_words(standings.rules.scoring, standings.tournament.game.first_colour)}; "
        f"tie-breaks: {', '.join(codes) or 'none'}" + (f"; {source}" if source else ""),
    ]
    if standings.lots_seed:
        lines.append(f"lots drawn with seed {standings.lots_seed!r}")
    lines.append("")
    lines.append(render_table(header, rows, numeric))
    return "\n".join(lines)


def presets_table() -> str:
    """``tiebreak presets``: every rule preset and team preset."""
    from ranking.tiebreaks.presets import PRESETS, TEAM_PRESETS  # the listings only (start-up time)

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
    from ranking.tiebreaks.individual import REGISTRY  # the listings only (start-up time)
    from ranking.tiebreaks.team import TEAM_REGISTRY  # the listings only (start-up time)

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
    from ranking.tiebreaks.individual import REGISTRY  # the listings only (start-up time)
    from ranking.tiebreaks.team import TEAM_REGISTRY  # the listings only (start-up time)

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
