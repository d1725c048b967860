"""The newcomer path (issue 11.11): the README's two commands on a fresh machine.  `make test`
first makes sure the system packages the tests need are there (installing them as root, as CI
does), `make run` says what it does while it installs, the README runs the venv's commands."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from test_docs import NOTES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def test_make_test_checks_the_system_packages_first() -> None:
    assert re.search(r"^test: lint system \$\(AXE\)$", MAKEFILE, re.MULTILINE)  # system packages, then npm's
    assert "scripts/system-packages" in MAKEFILE
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_a_missing_package_is_named_in_one_line_with_how_to_get_it(tmp_path: Path) -> None:
    bare = tmp_path / "bin"
    bare.mkdir()
    for tool in ("bash", "id", "grep", "env"):  # a machine with nothing the tests need
        found = next(Path(folder) / tool for folder in ("/usr/bin", "/bin") if (Path(folder) / tool).exists())
        (bare / tool).symlink_to(found)
    result = subprocess.run([str(bare / "bash"), str(ROOT / "scripts" / "system-packages")], capture_output=True,
                            text=True, env={"PATH": str(bare), "TIEBREAK_NO_INSTALL": "1"})
    assert result.returncode == 1
    [line] = result.stderr.strip().splitlines()
    assert "chromium chromium-driver rsync git npm fonts-noto-cjk" in line and "apt-get install" in line


def test_make_run_says_what_it_is_doing_while_it_installs() -> None:
    recipe = MAKEFILE.split("$(BIN)/tiebreak: pyproject.toml", 1)[1].split("\n\n", 1)[0]
    assert "@echo \"make: installing Tiebreak" in recipe and "@echo \"make: creating the virtual environment" in recipe


def test_the_readme_runs_the_venvs_commands_and_points_at_no_file_outside_the_repository() -> None:
    for block in re.findall(r"```sh\n(.*?)```", README, re.DOTALL):  # the commands one types
        for line in block.splitlines():
            command = line.strip()
            if command.startswith(("python -m site_builder", "python -m bot", "tiebreak ", "python -m ranking")):
                raise AssertionError(f"needs the venv: {line!r} (write .venv/bin/... or a make target)")
    assert not NOTES.search(README), NOTES.search(README)  # files outside the repository
    for path in re.findall(r"`((?:tests|ranking|tiebreak|bot|site_builder|themes|scripts|benchmarks|docs)/[^`\s]*)`",
                           README):
        # made by make test or a benchmark, not kept
        generated = path.startswith(("tests/artifacts", "tests/browser/node_modules", "benchmarks/.cache"))
        assert (ROOT / path.rstrip("/")).exists() or generated or "<" in path or "*" in path, path
    assert os.access(ROOT / "scripts" / "system-packages", os.X_OK)
