"""The site's public API at the package root (``from site_builder import build_site``), as the core's."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import site_builder

INIT = Path(site_builder.__file__)


@pytest.mark.parametrize("name", site_builder.__all__)
def test_every_public_name_resolves_to_its_module(name: str) -> None:
    value = getattr(site_builder, name)
    assert value is getattr(sys.modules[site_builder._EXPORTS[name]], name)


def test_type_checkers_see_the_same_names_from_the_same_modules() -> None:
    seen = {}
    for node in ast.walk(ast.parse(INIT.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("site_builder."):
            seen.update({alias.name: node.module for alias in node.names})
    assert seen == site_builder._EXPORTS


def test_importing_the_package_loads_no_submodule() -> None:
    code = "import sys, site_builder; print(sorted(m for m in sys.modules if m.startswith('site_builder.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == "[]"


def test_python_m_site_builder_is_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "site_builder", "--help"], capture_output=True, text=True,
                          timeout=60, check=True)
    assert "build" in done.stdout and "publish" in done.stdout


def test_the_command_line_loads_babel_only_for_what_needs_its_cldr_data() -> None:
    """Points and tie-breaks are written with the languages' own signs (``tiebreak.i18n.LANGUAGES``),
    the words come from compiled catalogues: Babel and its CLDR data (about 30 ms for the four
    languages in a new process) load only for a date or an uncommon number."""
    code = ("import sys, site_builder.cli; from tiebreak.i18n import format_number; "
            "print([format_number(v, c) for v in (7.5, -0.25, 12) for c in ('en', 'vi')], "
            "sorted(m for m in sys.modules if m.startswith('babel')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == "['7.5', '7,5', '-0.25', '-0,25', '12', '12'] []"


def test_the_command_line_loads_the_play_offs_and_team_standings_only_for_such_an_event() -> None:
    code = ("import sys, site_builder.cli, site_builder.site; "
            "print([m for m in ('ranking.standings.playoffs', 'ranking.standings.team') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == "[]"
