"""The listings of the ``tiebreak`` command's reference subcommands: ``tiebreak presets`` (every
rule preset and team preset) and ``tiebreak tiebreaks [CODE]`` (every tie-break code, or one
explained), from the registries, as the README's generated tables are (``tiebreak.docs``).
"""

from __future__ import annotations

import textwrap

from ranking.errors import InputError
from tiebreak.columns import render_table
from tiebreak.tables import scoring_words, win_draw_loss


def presets_table() -> str:
    """``tiebreak presets``: every rule preset and team preset."""
    from ranking.tiebreaks.presets import PRESETS, TEAM_PRESETS  # the listings only (start-up time)

    rows = []
    for name, rules in PRESETS.items():
        rows.append([name, scoring_words(rules.scoring), ", ".join(rules.tiebreaks), rules.description])
    team_rows = [[name, win_draw_loss(p.scoring.match_win, p.scoring.match_draw, p.scoring.match_loss),
                  ", ".join(p.rules.tiebreaks), p.description] for name, p in TEAM_PRESETS.items()]
    return (render_table(["preset", "scoring", "tie-breaks", "rule"], rows, [False] * 4) + "\n\n"
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
