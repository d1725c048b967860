"""Running an event from the command line (DESIGN.md "Running an event"), through the
installed ``tiebreak`` command as a real process."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from ranking.tomlfile import write_tournament_toml
from tiebreak.files import load_tournament

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "ranking" / "examples"
TIEBREAK = Path(sys.executable).parent / "tiebreak"


def tiebreak(config: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [str(TIEBREAK)] if TIEBREAK.exists() else [sys.executable, "-m", "tiebreak.cli"]
    return subprocess.run([*command, *args, "--config", str(config)], capture_output=True, text=True,
                          timeout=120, input=stdin, cwd=config.parent)


def refused(result: subprocess.CompletedProcess[str], message: str) -> None:
    """A refused request: one line naming the problem, exit status 2, no traceback."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def events_in(config: Path) -> int:
    database = config.parent / "data" / "store.sqlite3"
    return sqlite3.connect(database).execute("SELECT count(*) FROM events").fetchone()[0]


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('[storage]\npath = "data/store.sqlite3"\n', encoding="utf-8")
    return path


@pytest.fixture
def xiangqi(config: Path) -> str:
    """The bundled 10-player xiangqi round robin (2/1/0) without results, round 1 paired."""
    file = config.parent / "xq.toml"
    file.write_text(write_tournament_toml(replace(load_tournament(EXAMPLES / "xiangqi-rr.toml"), games=())),
                    encoding="utf-8")
    assert tiebreak(config, "import", str(file), "--slug", "xq").returncode == 0
    assert tiebreak(config, "pair", "xq").returncode == 0
    return "xq"


# -- result: every spelling the bot reads (issue 11 item 6, issue 10 item 14) -------------------

def test_result_reads_forfeits_that_start_with_a_dash_as_the_result(config: Path, xiangqi: str) -> None:
    for board, result, stored in ((1, "-+", "-+"), (2, "--", "--"), (3, "+-", "+-")):
        entered = tiebreak(config, "result", xiangqi, "1", str(board), result)
        assert entered.returncode == 0, entered.stderr
        assert entered.stdout.rstrip().endswith(f" {stored}: recorded")
    log = [json.loads(line) for line in tiebreak(config, "log", xiangqi, "--json").stdout.splitlines()]
    assert [entry["result"] for entry in log if entry["kind"] == "forfeit"] == ["-+", "--", "+-"]


def test_result_accepts_the_bots_spellings_and_echoes_the_events_own_terms(config: Path, xiangqi: str) -> None:
    for board, spelling, echo in ((1, "红胜", "2-0"), (2, "hòa", "1-1"), (3, "1-1", "1-1"), (4, "đen thắng", "0-2"),
                                  (5, "negras ganan", "0-2")):
        entered = tiebreak(config, "result", xiangqi, "1", str(board), spelling)
        assert entered.returncode == 0, entered.stderr
        assert entered.stdout.rstrip().endswith(f" {echo}: recorded"), entered.stdout
    assert "1/2-1/2" not in tiebreak(config, "result", xiangqi, "1", "2", "=").stdout


def test_an_unknown_result_is_refused_in_one_line(config: Path, xiangqi: str) -> None:
    before = events_in(config)
    refused(tiebreak(config, "result", xiangqi, "1", "1", "purple"), "unknown result 'purple'")
    usage = tiebreak(config, "result", xiangqi, "1", "1", "-x")  # not a result: an unknown option
    assert usage.returncode == 2 and "Traceback" not in usage.stderr
    assert events_in(config) == before


def test_points_must_be_finite_and_tenths_print_as_written(tmp_path: Path) -> None:
    swiss = str(EXAMPLES / "chess-swiss.trf")
    for points in ("inf,0,0", "1,nan,0", "1e999,0,0"):
        refused(tiebreak(tmp_path / "none.toml", "standings", swiss, "--points", points), "--points")
    shown = tiebreak(tmp_path / "none.toml", "standings", swiss, "--points", "0.7,0.1,0", "--json")
    assert shown.returncode == 0, shown.stderr
    assert "0000000" not in shown.stdout and "9999999" not in shown.stdout
    rows = json.loads(shown.stdout)["standings"]
    tied = [row for row in rows if row["points"] == 2.9]
    assert len(tied) == 3 and all(row["rank"] <= 6 for row in tied)


# -- 11.1: a round robin without rounds ---------------------------------------------------------

def test_a_round_robin_without_rounds_has_n_minus_1_and_can_be_paired(config: Path, tmp_path: Path) -> None:
    tournament = replace(load_tournament(EXAMPLES / "xiangqi-rr.toml"), games=())
    text = write_tournament_toml(tournament).replace(f"rounds = {tournament.rounds}\n", "")
    assert "rounds =" not in text
    (tmp_path / "rr.toml").write_text(text, encoding="utf-8")
    (tmp_path / "drr.toml").write_text(text.replace('system = "round-robin"', 'system = "double-round-robin"'),
                                       encoding="utf-8")
    assert tiebreak(config, "import", str(tmp_path / "rr.toml"), "--slug", "rr").returncode == 0
    assert tiebreak(config, "import", str(tmp_path / "drr.toml"), "--slug", "drr").returncode == 0
    for number in range(1, 10):
        paired = tiebreak(config, "pair", "rr")
        assert paired.returncode == 0, paired.stderr
        assert f"paired round {number} of rr" in paired.stdout
    refused(tiebreak(config, "pair", "rr"), "every round of the round robin is paired (9 rounds)")
    for _ in range(18):
        assert tiebreak(config, "pair", "drr").returncode == 0
    refused(tiebreak(config, "pair", "drr"), "(18 rounds)")


# -- 11.2: a withdrawn player's games are forfeits ------------------------------------------------

def test_a_played_result_for_a_withdrawn_player_is_refused(config: Path, xiangqi: str) -> None:
    assert tiebreak(config, "withdraw", xiangqi, "1", "--after-round", "0").returncode == 0
    before = events_in(config)
    refused(tiebreak(config, "result", xiangqi, "1", "1", "1-0"),
            "player 1 withdrew after round 0: round 1 board 1 is a forfeit under the event's withdrawal rule "
            "(enter -+)")
    refused(tiebreak(config, "result", xiangqi, "1", "1", "+-"), "(enter -+)")
    assert events_in(config) == before
    assert tiebreak(config, "result", xiangqi, "1", "1", "-+").returncode == 0
    exported = tiebreak(config, "export", xiangqi, "--format", "toml", "-o", "back.toml")
    assert exported.returncode == 0, exported.stderr
    again = tiebreak(config, "import", str(config.parent / "back.toml"), "--slug", "back")
    assert again.returncode == 0, again.stderr
    assert (json.loads(tiebreak(config, "standings", "back", "--json").stdout)
            == json.loads(tiebreak(config, "standings", xiangqi, "--json").stdout))


def test_a_withdrawal_before_a_round_the_player_played_is_refused(config: Path, xiangqi: str) -> None:
    assert tiebreak(config, "result", xiangqi, "1", "1", "1-0").returncode == 0
    refused(tiebreak(config, "withdraw", xiangqi, "1", "--after-round", "0"),
            "player 1 has a result in round 1 (1-0): they withdrew after round 1 or later")
