"""The core's public API at the package root (``from ranking import final_standings``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import ranking

INIT = Path(ranking.__file__)


@pytest.mark.parametrize("name", ranking.__all__)
def test_every_public_name_resolves_to_its_module(name: str) -> None:
    value = getattr(ranking, name)
    assert value is getattr(sys.modules[ranking._EXPORTS[name]], name)


def test_type_checkers_see_the_same_names_from_the_same_modules() -> None:
    seen = {}
    for node in ast.walk(ast.parse(INIT.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ranking."):
            seen.update({alias.name: node.module for alias in node.names})
    assert seen == ranking._EXPORTS


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        ranking.nonsense  # noqa: B018


def test_importing_the_package_loads_no_submodule() -> None:
    code = "import sys, ranking; print(sorted(m for m in sys.modules if m.startswith('ranking.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == "[]"
