"""Running an event from the command line (docs/architecture.md#command-line), through the
``tiebreak`` command run in-process (``tests/cli.py``; tests/test_cli.py runs the installed
script itself)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from dataclasses import replace
from pathlib import Path

import cli
import pytest
from open_scenario import store_config

from ranking.formats.toml_export import write_tournament_toml
from tiebreak.files import load_tournament

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "ranking" / "examples"


def tiebreak(config: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return cli.tiebreak(*args, "--config", config, input=stdin, cwd=config.parent)


def pairings(*args: str) -> subprocess.CompletedProcess[str]:
    """``tiebreak pairings`` (no store, no --config)."""
    return cli.tiebreak("pairings", *args)


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
    return store_config(tmp_path)


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
    refused(tiebreak(config, "pair", "rr"), "every round is paired: the event has 9 rounds")
    for _ in range(18):
        assert tiebreak(config, "pair", "drr").returncode == 0
    refused(tiebreak(config, "pair", "drr"), "the event has 18 rounds")


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
            "player 1 has a result in round 1 (2-0): they withdrew after round 1 or later")


@pytest.fixture
def swiss(config: Path) -> str:
    """The bundled 24-player chess Swiss (7 rounds, all played), made a 9-round event."""
    assert tiebreak(config, "import", str(EXAMPLES / "chess-swiss.trf"), "--slug", "sw").returncode == 0
    assert tiebreak(config, "set", "sw", "rounds=9").returncode == 0
    return "sw"


# -- 11.4: list, show, set, archive, restore ------------------------------------------------------

def test_list_and_show_have_the_documented_json(config: Path, xiangqi: str, swiss: str) -> None:
    listed = json.loads(tiebreak(config, "list", "--json").stdout)
    assert [list(entry) for entry in listed] == [["slug", "name", "game", "system", "players", "rounds",
                                                  "paired_rounds", "archived"]] * 2
    assert [(e["slug"], e["game"], e["system"], e["players"], e["rounds"], e["paired_rounds"]) for e in listed] == [
        ("xq", "xiangqi", "round-robin", 10, 9, 1), ("sw", "chess", "swiss", 24, 9, 7)]
    shown = json.loads(tiebreak(config, "show", xiangqi, "--json").stdout)
    assert {"slug", "name", "game", "system", "players", "rounds", "paired_rounds", "archived", "rules",
            "tiebreaks", "scoring"} <= set(shown)
    assert (shown["rules"], shown["tiebreaks"], shown["scoring"]) == (
        "cxa-rr", ["SB", "WIN", "DE", "FOUL", "BPG", "DEB"], {"win": 2, "draw": 1, "loss": 0})
    table = tiebreak(config, "show", xiangqi).stdout
    assert "cxa-rr" in table and "round 1: boards without a result: 1, 2, 3, 4, 5" in table


def test_set_changes_settings_as_logged_events(config: Path, swiss: str) -> None:
    changed = tiebreak(config, "set", swiss, "name=Atlantic Open", "tiebreaks=BH,SB,WIN", "scoring=3,1,0",
                       "playoff=1", "keep_rounds=5")
    assert changed.returncode == 0, changed.stderr
    shown = json.loads(tiebreak(config, "show", swiss, "--json").stdout)
    assert (shown["name"], shown["tiebreaks"], shown["scoring"]["win"], shown["playoff"]["places"],
            shown["options"]["keep_rounds"]) == ("Atlantic Open", ["BH", "SB", "WIN"], 3, [1], 5)
    standings = json.loads(tiebreak(config, "standings", swiss, "--json").stdout)
    assert standings["tournament"] == "Atlantic Open" and standings["points"]["win"] == 3
    log = [json.loads(line) for line in tiebreak(config, "log", swiss, "--json").stdout.splitlines()]
    assert [entry["key"] for entry in log if entry["kind"] == "setting-changed"] == [
        "rounds", "name", "tiebreaks", "scoring", "playoff", "keep_rounds"]
    assert "setting-changed" in tiebreak(config, "log", swiss).stdout and "[" not in tiebreak(
        config, "log", swiss).stdout.split("setting-changed", 1)[1]
    assert tiebreak(config, "set", swiss, "rules=fide-swiss").returncode == 0
    assert json.loads(tiebreak(config, "show", swiss, "--json").stdout)["tiebreaks"] == [
        "BH-C1", "BH", "SB", "DE", "WIN"]


@pytest.mark.parametrize(("setting", "message"), [
    ("rounds=5", "rounds=5: round 7 already has games"),
    ("tiebreaks=BH,XX", "unknown tie-break 'XX'"),
    ("colour=red", "unknown setting 'colour'"),
    ("rules=nope", "unknown preset 'nope'"),
    ("scoring=1,2,3", "a win must score more than a draw"),
    ("system=round-robin", "round 1 is already paired"),
    ("rounds", "expected KEY=VALUE"),
])
def test_a_refused_setting_writes_nothing(config: Path, swiss: str, setting: str, message: str) -> None:
    before = events_in(config)
    refused(tiebreak(config, "set", swiss, "name=Other", setting), message)
    assert events_in(config) == before


def test_archived_tournaments_are_hidden_and_restored(config: Path, xiangqi: str, swiss: str) -> None:
    archived = tiebreak(config, "archive", swiss)
    assert archived.returncode == 0 and "nothing is deleted" in archived.stdout
    assert [e["slug"] for e in json.loads(tiebreak(config, "list", "--json").stdout)] == [xiangqi]
    everything = json.loads(tiebreak(config, "list", "--all", "--json").stdout)
    assert [(e["slug"], e["archived"]) for e in everything] == [(xiangqi, False), (swiss, True)]
    assert "archived" in tiebreak(config, "list", "--all").stdout
    assert tiebreak(config, "standings", swiss, "--json").returncode == 0  # still there
    refused(tiebreak(config, "archive", swiss), "already archived")
    assert tiebreak(config, "restore", swiss).returncode == 0
    assert len(json.loads(tiebreak(config, "list", "--json").stdout)) == 2
    refused(tiebreak(config, "restore", swiss), "is not archived")


# -- 11.5 and 12.2: round, and pair printing the boards ------------------------------------------

def test_round_shows_the_boards_and_its_json_is_the_documented_shape(config: Path, swiss: str) -> None:
    data = json.loads(tiebreak(config, "round", swiss, "7", "--json").stdout)
    assert list(data) == ["round", "boards", "byes"] and data["round"] == 7
    assert data["boards"][0] == {"board": 1, "white": 3, "black": 1, "result": "1/2-1/2"}
    assert data["byes"] == [{"player": 21, "kind": "zero"}, {"player": 22, "kind": "pab"}]
    assert json.loads(tiebreak(config, "round", swiss, "--json").stdout) == data  # the current round
    table = tiebreak(config, "round", swiss, "7").stdout
    assert "Silva, João Pedro" in table and "White" in table and "pairing-allocated bye: 22" in table
    refused(tiebreak(config, "round", swiss, "99"), "round 99: the tournament has rounds 1-9")
    refused(tiebreak(config, "round", swiss, "8"), "round 8 is not paired (paired rounds: 1-7)")


def test_pair_pairs_a_swiss_round_by_the_dutch_system_and_prints_the_boards(config: Path, swiss: str) -> None:
    paired = tiebreak(config, "pair", swiss)
    assert paired.returncode == 0, paired.stderr
    lines = paired.stdout.splitlines()
    assert lines[0] == "paired round 8 of sw: 12 boards"
    assert lines[2].split() == ["Bd", "No", "White", "Result", "No", "Black"]
    assert lines[3].split()[:3] == ["1", "1", "Zhang,"]
    data = json.loads(tiebreak(config, "round", swiss, "--json").stdout)
    assert data["round"] == 8 and len(data["boards"]) == 12 and data["byes"] == []
    refused(tiebreak(config, "pair", swiss), "boards without a result: R8 B1")


def test_pair_prints_a_round_robins_boards_in_xiangqi_words(config: Path, xiangqi: str) -> None:
    for board in range(1, 6):
        assert tiebreak(config, "result", xiangqi, "1", str(board), "1-1").returncode == 0
    paired = tiebreak(config, "pair", xiangqi)
    assert paired.returncode == 0, paired.stderr
    assert "Red" in paired.stdout and "王天一" in paired.stdout


def test_an_imported_round_is_compared_with_the_dutch_pairing(config: Path, swiss: str, tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.txt"
    # the Dutch pairing of round 8 from the store's file, with two pairs' opponents swapped
    exported = tmp_path / "sw.trf"
    assert tiebreak(config, "export", swiss, "--format", "trf", "-o", str(exported)).returncode == 0
    lines = pairings(str(exported), "--format", "pairs").stdout.splitlines()
    (w1, b1), (w2, b2) = (lines[1].split(), lines[2].split())
    pairs.write_text("\n".join([lines[0], f"{w1} {b2}", f"{w2} {b1}", *lines[3:]]) + "\n")
    imported = tiebreak(config, "pair", swiss, "--pairs", str(pairs))
    assert imported.returncode == 0, imported.stderr
    assert "differs from the FIDE Dutch system in 2 pairs:" in imported.stdout
    assert f"the Dutch system pairs {w1}-{b1}" in imported.stdout


# -- 11.6: late entries, byes, fouls, undo ----------------------------------------------------------

def test_a_late_entry_gets_the_next_number_and_is_paired(config: Path, swiss: str) -> None:
    added = tiebreak(config, "player", swiss, "add", "--name", "Late, Lee", "--rating", "1850",
                     "--federation", "VIE", "--club", "Hà Nội")
    assert added.returncode == 0, added.stderr
    assert added.stdout.startswith("25: Late, Lee added to sw")
    assert tiebreak(config, "pair", swiss).returncode == 0
    data = json.loads(tiebreak(config, "round", swiss, "--json").stdout)
    assert 25 in {board[side] for board in data["boards"] for side in ("white", "black")} | {
        bye["player"] for bye in data["byes"] if bye["kind"] == "pab"}
    refused(tiebreak(config, "player", swiss, "add", "--name", "X", "--federation", "V1E"), "--federation")


def test_a_late_entry_in_a_paired_round_robin_is_refused(config: Path, xiangqi: str) -> None:
    before = events_in(config)
    refused(tiebreak(config, "player", xiangqi, "add", "--name", "Late"), "takes no late entries")
    assert events_in(config) == before


def test_requested_byes_are_honoured_by_the_pairing(config: Path, swiss: str) -> None:
    assert tiebreak(config, "bye", swiss, "8", "1", "half").returncode == 0
    assert tiebreak(config, "bye", swiss, "8", "2", "zero").returncode == 0
    refused(tiebreak(config, "bye", swiss, "8", "99", "half"), "player 99 is not in the tournament")
    refused(tiebreak(config, "bye", swiss, "7", "1", "half"), "player 1 has a game in round 7")
    assert tiebreak(config, "pair", swiss).returncode == 0
    data = json.loads(tiebreak(config, "round", swiss, "--json").stdout)
    assert {1, 2}.isdisjoint({board[side] for board in data["boards"] for side in ("white", "black")})
    assert {"player": 1, "kind": "half"} in data["byes"] and {"player": 2, "kind": "zero"} in data["byes"]


def test_fouls_and_undo(config: Path, xiangqi: str) -> None:
    assert tiebreak(config, "result", xiangqi, "1", "3", "2-0").returncode == 0
    fouled = tiebreak(config, "foul", xiangqi, "1", "3", "black", "2")
    assert fouled.returncode == 0 and "fouls on the board: 0-2" in fouled.stdout
    undone = tiebreak(config, "undo", xiangqi)
    assert undone.returncode == 0 and "fouls on the board now: 0-0" in undone.stdout
    undone = tiebreak(config, "undo", xiangqi)
    assert undone.returncode == 0
    assert undone.stdout.strip() == "undone: round 1 board 3 2-0; the board now has no result"
    assert tiebreak(config, "undo", xiangqi).stdout.strip() == (  # the change before: the pairing (issue 20)
        "undone: the pairing of round 1; round 1 is not paired now")
    refused(tiebreak(config, "undo", xiangqi), "nothing to undo")
    assert tiebreak(config, "pair", xiangqi).returncode == 0
    assert tiebreak(config, "result", xiangqi, "1", "3", "2-0").returncode == 0
    assert tiebreak(config, "result", xiangqi, "1", "3", "0-2", "--correct").returncode == 0
    assert "the board now has 2-0" in tiebreak(config, "undo", xiangqi).stdout


# -- --help on every new command ------------------------------------------------------------------

@pytest.mark.parametrize("command", ["list", "show", "set", "archive", "restore", "round", "player", "bye", "foul",
                                     "undo", "pair", "pairings", "result"])
def test_every_command_has_help(config: Path, command: str) -> None:
    shown = cli.tiebreak(command, "--help")
    assert shown.returncode == 0 and f"usage: tiebreak {command}" in shown.stdout


def test_set_help_names_every_setting() -> None:
    from ranking.event.settings import SETTINGS
    from tiebreak.cli_running import SETTING_KEYS

    for key in SETTINGS:
        assert key in SETTING_KEYS, key


# -- 11.10: the smaller ones ----------------------------------------------------------------------

def test_tiebreaks_wrap_to_the_terminal_and_explain_one_code(tmp_path: Path) -> None:
    listing = cli.tiebreak("tiebreaks", env={"COLUMNS": "80"})
    assert listing.returncode == 0
    from tiebreak.columns import display_width

    assert max(display_width(line) for line in listing.stdout.splitlines()) <= 80
    one = cli.tiebreak("tiebreaks", "BH-C1")
    assert one.stdout.splitlines()[0] == "BH-C1: Buchholz without the lowest opponent's score"
    assert "FIDE C.07 8.1" in one.stdout
    team = cli.tiebreak("tiebreaks", "EDE")
    assert team.stdout.startswith("EDE: Extended direct encounter")
    refused(cli.tiebreak("tiebreaks", "XX"), "unknown tie-break 'XX'")


def test_a_cut_that_leaves_nothing_is_said(tmp_path: Path) -> None:
    shown = cli.tiebreak("standings", EXAMPLES / "chess-swiss.trf", "--tiebreaks", "BH-C9,SB")
    assert shown.returncode == 0
    assert "warning: BH-C9 cuts 9 values but there are 7 rounds: it is 0 for everyone" in shown.stderr
    fine = cli.tiebreak("standings", EXAMPLES / "chess-swiss.trf")
    assert fine.stderr == ""


def test_a_trf_whose_printed_points_disagree_is_imported_with_a_warning(config: Path, tmp_path: Path) -> None:
    lines = (EXAMPLES / "chess-swiss.trf").read_text(encoding="utf-8").splitlines()
    number = next(k for k, line in enumerate(lines, start=1) if line.startswith("001    1"))
    lines[number - 1] = lines[number - 1][:80] + " 5.5" + lines[number - 1][84:]
    wrong = tmp_path / "wrong.trf"
    wrong.write_text("\n".join(lines) + "\n", encoding="utf-8")
    imported = tiebreak(config, "import", str(wrong))
    assert imported.returncode == 0
    assert f"warning: {wrong}:{number}: player 1 has 5.5 points printed, but the results give 6" in imported.stderr


def test_the_log_is_plain_words_not_python_reprs(config: Path, swiss: str) -> None:
    assert tiebreak(config, "pair", swiss).returncode == 0
    assert tiebreak(config, "bye", swiss, "9", "3", "half").returncode == 0
    log = tiebreak(config, "log", swiss).stdout
    assert "round-paired" in log and "12 boards" in log and "rounds=9" in log and "player 3 H" in log
    assert not any(mark in log for mark in ("[", "]", "{", "None"))


def test_a_late_entry_or_a_new_name_passes_the_import_checks(config: Path, swiss: str) -> None:
    """What the store admits from an import it admits from a late entry or a setting, and no
    more: so every export still imports."""
    before = events_in(config)
    refused(tiebreak(config, "player", swiss, "add", "--name", "X" * 101), "at most 100")
    refused(tiebreak(config, "player", swiss, "add", "--name", "Evil\x1b[31mRed"), "control character")
    refused(tiebreak(config, "set", swiss, "name=" + "Y" * 101), "at most 100")
    assert events_in(config) == before


@pytest.mark.parametrize("extra", [[], ["--tiebreaks", "BH-C1,SB"], ["--fide-edition", "2024"]])
def test_the_standings_warn_alike_on_the_columnar_and_the_full_path(tmp_path: Path, extra: list[str]) -> None:
    """``--json`` takes the columnar path, the table the full one: the same warnings, the same values."""
    lines = (EXAMPLES / "chess-swiss.trf").read_text(encoding="utf-8").splitlines()
    number = next(k for k, line in enumerate(lines, start=1) if line.startswith("001    1"))
    lines[number - 1] = lines[number - 1][:80] + " 5.5" + lines[number - 1][84:]
    wrong = tmp_path / "wrong.trf"
    wrong.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = f"tiebreak: warning: {wrong}:{number}: player 1 has 5.5 points printed, but the results give 6\n"
    for output in ([], ["--json"]):
        shown = cli.tiebreak("standings", wrong, *extra, *output)
        assert shown.returncode == 0
        assert shown.stderr == expected
    cut = cli.tiebreak("standings", EXAMPLES / "chess-swiss.trf", "--tiebreaks", "BH-C9,SB", "--json")
    assert "warning: BH-C9 cuts 9 values but there are 7 rounds: it is 0 for everyone" in cut.stderr
