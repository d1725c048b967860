"""``tiebreak pairings`` (issue 12, docs/architecture.md#command-line): the FIDE Dutch system on a file, with
no store, through the command in-process (``tests/cli.py``)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cli
import pytest
from test_dutch_replay import SET, expected_pairs, truncated

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "ranking" / "examples" / "chess-swiss.trf"


def pairings(*args: str) -> subprocess.CompletedProcess[str]:
    return cli.tiebreak("pairings", *args)


def test_the_pairs_format_is_the_javafo_list_and_json_names_the_players(tmp_path: Path) -> None:
    lines = (SET / "dev_n21_r7_forfeits.trf").read_text().splitlines()
    file = tmp_path / "r4.trf"
    file.write_text(truncated(lines, 4))
    listed = pairings(str(file), "--round", "4", "--format", "pairs")
    assert listed.returncode == 0, listed.stderr
    count, *pairs = listed.stdout.splitlines()
    assert int(count) == len(pairs)
    assert {tuple(map(int, pair.split())) for pair in pairs} == expected_pairs(lines, 4)
    data = json.loads(pairings(str(file), "--round", "4", "--format", "json").stdout)
    assert data["round"] == 4 and {"board", "white", "white_name", "black", "black_name"} <= set(data["boards"][0])
    table = pairings(str(file), "--round", "4").stdout
    assert table.splitlines()[1].split() == ["Bd", "No", "White", "Result", "No", "Black"]


@pytest.mark.parametrize("name", ["dev_n11_r5_clean", "dev_n16_r7_mixed", "dev_a64_r9_accel"])
def test_the_last_round_of_reference_files_through_the_command(tmp_path: Path, name: str) -> None:
    lines = (SET / f"{name}.trf").read_text().splitlines()
    last = max(len(line[91:]) // 10 + 1 for line in lines if line.startswith("001"))
    file = tmp_path / "in.trf"
    file.write_text(truncated(lines, last))
    listed = pairings(str(file), "--round", str(last), "--format", "pairs")
    assert listed.returncode == 0, listed.stderr
    assert {tuple(map(int, pair.split())) for pair in listed.stdout.splitlines()[1:]} == expected_pairs(lines, last)


def _mini(tmp_path: Path, text: str, name: str = "mini.trf") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


TWO_MET = """012 Two
XXR 3
092 Swiss
001    1      Alpha, A                          2100                             1.0    1     2 w 1
001    2      Beta, B                           2000                             0.0    2     1 b 0
"""


@pytest.mark.parametrize(("args", "message"), [
    (["{two}", "--round", "2"], "round 2 cannot be paired"),
    (["{two}", "--round", "1"], "round 1 is already paired"),
    (["{two}", "--round", "9"], "round 9: the event has rounds 1-3"),
    (["{accel}"], "pairing.acceleration 'fast': expected baku or none"),
    (["{two}", "--format", "xml"], "argument --format: invalid choice"),
    (["{two}", "--colour", "red"], "unrecognized arguments: --colour red"),
    (["no-such.trf"], "no-such.trf"),
    ([str(ROOT / "ranking" / "examples" / "xiangqi-rr.toml")], "is a round robin: its rounds follow the Berger"),
])
def test_bad_input_is_one_line_and_exit_status_2(tmp_path: Path, args: list[str], message: str) -> None:
    files = {"two": _mini(tmp_path, TWO_MET),
             "accel": _mini(tmp_path, '[tournament]\nname = "A"\nrounds = 3\nrecords = [["pairing.acceleration", '
                                      '"fast"]]\n[[players]]\nid = 1\nname = "A"\n[[players]]\nid = 2\nname = "B"\n',
                            "accel.toml")}
    result = pairings(*[arg.format(**files) for arg in args])
    assert result.returncode == 2, result.stdout
    assert message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
