"""The README documents what the code does: generated tables are current, commands exist."""

from __future__ import annotations

from pathlib import Path

from ranking.tiebreaks.individual import REGISTRY
from ranking.tiebreaks.presets import PRESETS
from tiebreak.docs import render

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_generated_tables_are_current() -> None:
    assert render(README) == README, "run `make readme` to regenerate the README tables"
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert render(rules) == rules, "run `make readme` to regenerate the tables of docs/rules.md"


def test_every_code_and_preset_is_documented() -> None:
    for code in REGISTRY:
        assert f"`{code}`" in README or f"old code {code}" in README, code
    for name in PRESETS:
        assert f"`{name}`" in README, name


def test_quick_start_commands_are_the_makefile_targets_and_ci_runs_the_test_command() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "make run" in README and "make test" in README
    assert "\nrun:" in makefile and "\ntest:" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text()
