"""The ``tiebreak`` command as docs/architecture.md#command-line fixes it, run in-process
(``tests/cli.py``); the installed script and ``python -m ranking`` run as real processes once."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cli
import pytest

from ranking.tiebreaks.individual import REGISTRY
from ranking.tiebreaks.presets import PRESETS
from tiebreak.columns import display_width

DATA = Path(__file__).parent / "data"
SWISS16 = DATA / "validation" / "fide_tec_exercises_2024_swiss16" / "tournament.trf"
CJK = DATA / "cli" / "cjk.toml"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return cli.tiebreak(*args)


def standings_json(*args: str) -> dict:
    result = run("standings", *args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_json_has_exactly_the_documented_shape() -> None:
    data = standings_json(str(SWISS16), "--tiebreaks", "BH-C1,BH,SB")
    assert list(data) == ["tournament", "after_round", "points", "tiebreaks", "standings"]
    assert data["tournament"] == "FIDE C.07 2023 Tie-Break Exercises"
    assert data["after_round"] == 5
    assert data["points"] == {"win": 1, "draw": 0.5, "loss": 0}
    assert data["tiebreaks"] == ["BH-C1", "BH", "SB"]
    first = data["standings"][0]
    assert list(first) == ["rank", "id", "name", "points", "tiebreaks"]
    assert first == {"rank": 1, "id": 2, "name": "Player 002", "points": 4.0,
                     "tiebreaks": {"BH-C1": 12.0, "BH": 13.0, "SB": 9.5}}


def test_json_keys_are_the_codes_as_given_in_either_spelling() -> None:
    data = standings_json(str(SWISS16), "--tiebreaks", "BH/C1,SB-C1")
    assert data["tiebreaks"] == ["BH/C1", "SB-C1"]
    assert set(data["standings"][0]["tiebreaks"]) == {"BH/C1", "SB-C1"}


def test_fide_edition_selects_article_16() -> None:
    def bh_of_4(edition: str) -> float:
        data = standings_json(str(SWISS16), "--tiebreaks", "BH", "--fide-edition", edition)
        return next(row["tiebreaks"]["BH"] for row in data["standings"] if row["id"] == 4)
    assert (bh_of_4("2024"), bh_of_4("2026")) == (15.0, 14.0)


def test_points_and_rules_and_after_round() -> None:
    data = standings_json(str(SWISS16), "--points", "2,1,0", "--after-round", "3")
    assert data["after_round"] == 3
    assert data["points"] == {"win": 2, "draw": 1, "loss": 0}
    assert data["standings"][0]["points"] == 5.0  # player 2: two wins and a draw
    rules = standings_json(str(SWISS16), "--rules", "cxa-swiss-bh")
    assert rules["tiebreaks"] == ["BH", "WIN", "FOUL", "BPG", "PREV"]
    assert rules["points"]["win"] == 2


def test_places_shared_and_ordering_criteria_report_places() -> None:
    data = standings_json(str(SWISS16), "--tiebreaks", "DE")
    by_id = {row["id"]: row for row in data["standings"]}
    assert [by_id[p]["rank"] for p in (1, 3, 4, 16)] == [2, 2, 2, 2]
    assert [by_id[p]["tiebreaks"]["DE"] for p in (1, 3, 4, 16)] == [0, 0, 0, 0]


def test_table_aligns_chinese_and_vietnamese_names_by_display_width() -> None:
    result = run("standings", str(CJK))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header, *rows = lines[lines.index("") + 1:]
    assert any("许银川" in row for row in rows) and any("Nguyễn Thành Bảo" in row for row in rows)
    federation_column = display_width(header[: header.index("Fed")])
    points_edge = display_width(header[: header.index("Pts") + len("Pts")])
    for row in rows:
        federation = row.index("CHN") if "CHN" in row else row.index("VIE")
        assert display_width(row[:federation]) == federation_column, row
    widths = {display_width(row) for row in rows}
    assert widths == {display_width(rows[0])}
    assert all(display_width(row) >= points_edge for row in rows)


def test_python_dash_m_and_the_console_script_are_the_same_program() -> None:
    script = shutil.which("tiebreak") or str(Path(sys.executable).parent / "tiebreak")
    if not Path(script).exists():
        pytest.fail("the tiebreak console script is not installed (pip install -e .)")
    direct = subprocess.run([script, "standings", str(SWISS16), "--json"], capture_output=True, text=True)
    assert direct.returncode == 0
    module = subprocess.run([sys.executable, "-m", "ranking", "standings", str(SWISS16), "--json"],
                            capture_output=True, text=True, timeout=60)
    assert direct.stdout == module.stdout == run("standings", str(SWISS16), "--json").stdout
    broken = [sys.executable, "-m", "ranking", "standings", str(DATA / "cli" / "broken.trf")]
    for program in (broken, [script, *broken[3:]]):  # the exit status of the real programs
        result = subprocess.run(program, capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and result.stdout == "" and len(result.stderr.splitlines()) == 1


def test_presets_and_tiebreaks_list_the_registry() -> None:
    presets = run("presets").stdout
    assert all(name in presets for name in PRESETS)
    codes = run("tiebreaks").stdout
    for code, entry in REGISTRY.items():
        assert code in codes and entry.article.split(";")[0] in codes


@pytest.mark.parametrize(("args", "message"), [
    (["standings", "no/such/file.trf"], "no/such/file.trf"),
    (["standings", str(DATA / "cli" / "broken.trf")], "broken.trf:5: expected a start number"),
    (["standings", str(SWISS16), "--tiebreaks", "BH,XX"], "unknown tie-break 'XX'"),
    (["standings", str(SWISS16), "--tiebreaks", "WIN/C1"], "WIN takes no C modifier"),
    (["standings", str(SWISS16), "--rules", "fide-nope"], "unknown preset 'fide-nope'"),
    (["standings", str(SWISS16), "--points", "1,x,0"], "--points"),
    (["standings", str(SWISS16), "--after-round", "9"], "after-round 9"),
    (["standings", str(CJK.parent)], "cli"),
    (["standings", str(DATA / "cli" / "unknown-chain.trf")], "unknown-chain.trf:4: the tie-break chain in the file"),
])
def test_bad_input_is_one_clear_line_and_exit_status_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr


def test_unknown_option_is_a_usage_error_with_status_2() -> None:
    result = run("standings", str(SWISS16), "--colour", "red")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_the_standings_parser_alone_reads_as_the_whole_one(capsys) -> None:
    """``tiebreak standings ...`` builds the standings command's parser only (start-up time):
    the same namespace, the same help and the same usage errors as the whole parser."""
    from tiebreak.cli import build_parser

    for argv in (["standings", "open.trf", "--json", "--tiebreaks", "BH,SB"], ["standings", "x", "--teams"],
                 ["standings", "--help"], ["standings"], ["standings", "x", "--bogus"],
                 ["standings", "x", "--fide-edition", "2020"]):
        said = []
        for parser in (build_parser(), build_parser(only_standings=True)):
            try:
                said.append(vars(parser.parse_args(argv)))
            except SystemExit as stop:
                said.append(stop.code)
            said.append(capsys.readouterr())
        assert said[:2] == said[2:], argv


def test_the_command_spares_the_collection_at_exit(monkeypatch) -> None:
    import atexit
    import gc

    import tiebreak.process as process
    from tiebreak.cli import main

    registered = []
    monkeypatch.setattr(process, "_registered", False)
    monkeypatch.setattr(atexit, "register", registered.append)
    assert main(["presets"]) == 0
    assert registered == [gc.freeze]
