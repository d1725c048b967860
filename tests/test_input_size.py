"""A hostile file costs no more than reading it (issue 21): a TRF line longer than any player
line can be, or more player lines than start numbers, is refused before anything is built,
by every command that reads files; a file that declares a huge crosstable (9999 rounds) is
ranked in the space of its entries.  Each command runs as a real process whose address space
is capped at 512 MB, so a command that builds gigabytes fails the test instead of the machine."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from ranking.formats.trf_fields import MAX_LINE

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "ranking" / "examples" / "chess-swiss.trf"
MEMORY = 512 * 1024 * 1024


def tiebreak(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    def capped() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run([sys.executable, "-m", "ranking", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, preexec_fn=capped)


def player_line(number: int, opponent: int, colour: str, result: str, name: str = "") -> str:
    head = f"001 {number:4d}      {name or f'Player {number}':<33} {0:4d} {'':3} {'':11} {'':10} {1.0:4.1f} {number:4d}"
    return head.ljust(89) + f"  {opponent:4d} {colour} {result}"


@pytest.fixture
def long_line(tmp_path: Path) -> tuple[Path, int, int]:
    """The chess Swiss with 10 MB of round blocks on its first player line; that line and its length."""
    lines = SWISS.read_text(encoding="utf-8").splitlines()
    number = next(index for index, line in enumerate(lines) if line.startswith("001 "))
    lines[number] = lines[number].rstrip() + "  0000 - -" * 1_000_000
    path = tmp_path / "long.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, number + 1, len(lines[number])


@pytest.mark.parametrize("command", [["standings"], ["standings", "--json"], ["pairings"], ["import"]])
def test_a_ten_megabyte_line_is_refused_before_anything_is_built(tmp_path: Path, long_line: tuple[Path, int, int],
                                                                command: list[str]) -> None:
    path, number, length = long_line
    (tmp_path / "config.toml").write_text('[storage]\npath = "store.sqlite3"\n', encoding="utf-8")
    result = tiebreak(command[0], str(path), *command[1:], cwd=tmp_path)
    assert result.returncode == 2, result.stderr[-500:]
    assert result.stderr == (f"tiebreak: error: {path}:{number}: the line has {length:,} "
                             f"characters, at most {MAX_LINE:,} (a player line of 9999 rounds): expected TRF records, "
                             "one per line\n")


def test_more_player_lines_than_start_numbers_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "crowd.trf"
    lines = ["012 Crowd"] + [player_line(1 + number % 9999, 0, "-", " ") for number in range(10_000)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = tiebreak("standings", str(path), "--json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == f"tiebreak: error: {path}: 10,000 player lines (001), at most 9999 (start numbers are " \
                            "1-9999)\n"


def test_one_line_of_9999_rounds_among_2000_players_is_ranked_in_little_space(tmp_path: Path) -> None:
    lines = ["012 Wide"]
    for number in range(1, 2001):
        opponent = number + 1 if number % 2 else number - 1
        line = player_line(number, opponent, "w" if number % 2 else "b", "1" if number % 2 else "0")
        lines.append(line + ("  0000 - -" * 9998 if number == 1 else ""))
    path = tmp_path / "wide.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for args in (["--json"], []):
        result = tiebreak("standings", str(path), *args, cwd=tmp_path)
        assert result.returncode == 0, result.stderr[-500:]
    data = json.loads(tiebreak("standings", str(path), "--json", cwd=tmp_path).stdout)
    assert len(data["standings"]) == 2000 and data["after_round"] == 1


def test_a_toml_file_of_9999_rounds_is_ranked_in_little_space(tmp_path: Path) -> None:
    lines = ["[tournament]", 'name = "Long"', 'game = "chess"', 'system = "swiss"', "rounds = 9999", ""]
    for number in range(1, 3001):
        lines += ["[[players]]", f"id = {number}", f'name = "P{number}"', ""]
    path = tmp_path / "long.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    result = tiebreak("standings", str(path), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-500:]
    assert len(json.loads(result.stdout)["standings"]) == 3000
