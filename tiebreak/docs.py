"""Generate the tie-break and preset tables of the README and ``docs/rules.md`` from the
registry, so they cannot drift.

``python -m tiebreak.docs README.md docs/rules.md`` (``make readme``) rewrites the text between
the markers ``<!-- generated:NAME -->`` and ``<!-- /generated:NAME -->``; a test fails when a
file differs from what this module generates.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ranking.tiebreaks.individual import REGISTRY
from ranking.tiebreaks.presets import PRESETS, TEAM_PRESETS
from ranking.tiebreaks.team import TEAM_REGISTRY
from tiebreak.tables import scoring_words, win_draw_loss


def tiebreaks_markdown() -> str:
    lines = ["| code | name | definition | source | modifiers |", "|---|---|---|---|---|"]
    for entry, aliases in REGISTRY.listing():
        code = entry.code
        name = entry.name + (f" (old code {', '.join(aliases)})" if aliases else "")
        if entry.lower_is_better:
            name += ", fewer is better"
        if entry.orders:
            name += ", orders a tied group"
        modifiers = ", ".join(entry.modifiers)
        lines.append(f"| `{code}` | {name} | {entry.definition} | {entry.article} | {modifiers} |")
    return "\n".join(lines)


def presets_markdown() -> str:
    lines = ["| preset | scoring | tie-breaks | options | rule |", "|---|---|---|---|---|"]
    for name, rules in PRESETS.items():
        points = scoring_words(rules.scoring)
        defaults = type(rules.options)()
        options = ", ".join(
            f"`{key} = {value}`" for key, value in vars(rules.options).items() if getattr(defaults, key) != value
        )
        lines.append(f"| `{name}` | {points} | {', '.join(rules.tiebreaks)} | {options} | {rules.description} |")
    return "\n".join(lines)


def team_tiebreaks_markdown() -> str:
    lines = ["| code | name | definition | source |", "|---|---|---|---|"]
    for entry, _ in TEAM_REGISTRY.listing():
        code = entry.code
        name = entry.name + (", fewer is better" if entry.lower_is_better else "")
        lines.append(f"| `{code}` | {name} | {entry.definition} | {entry.article} |")
    return "\n".join(lines)


def team_presets_markdown() -> str:
    lines = ["| team preset | match points | game points | tie-breaks | rule |", "|---|---|---|---|---|"]
    for name, preset in TEAM_PRESETS.items():
        scoring = preset.scoring
        match = win_draw_loss(scoring.match_win, scoring.match_draw, scoring.match_loss)
        game = win_draw_loss(scoring.game.win, scoring.game.draw, scoring.game.loss)
        primary = "" if preset.rules.primary == "MP" else f" ({preset.rules.primary} first)"
        lines.append(f"| `{name}` | {match}{primary} | {game} | {', '.join(preset.rules.tiebreaks)} | "
                     f"{preset.description} |")
    return "\n".join(lines)


SECTIONS = {"tiebreaks": tiebreaks_markdown, "presets": presets_markdown,
            "team-tiebreaks": team_tiebreaks_markdown, "team-presets": team_presets_markdown}


def render(text: str) -> str:
    """``text`` with every generated section replaced by its current content."""
    for name, generate in SECTIONS.items():
        pattern = re.compile(rf"(<!-- generated:{name} -->\n)(?:.*?\n)?(<!-- /generated:{name} -->)", re.S)
        text = pattern.sub(lambda match, generate=generate: match.group(1) + generate() + "\n" + match.group(2), text)
    return text


def main(argv: list[str]) -> int:
    for path in map(Path, argv or ["README.md"]):
        path.write_text(render(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
