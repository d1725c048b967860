"""``tiebreak check`` (the free pairings checker) and ``tiebreak generate`` (the random tournament
generator), FIDE C.04.A, through the installed command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ranking.event.model import ByeKind
from ranking.formats.trf_read import parse_trf
from ranking.pairing.dutch import before_round, pair_round
from ranking.pairing.dutch.generate import GeneratorSettings, generate_tournament
from tiebreak.exports import export_text

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
GENERATED = DATA / "generated-dutch"
FRESH = DATA / "pairings-dutch-fresh"
TIEBREAK = Path(sys.executable).parent / "tiebreak"


def tiebreak(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(TIEBREAK)] if TIEBREAK.exists() else [sys.executable, "-m", "tiebreak.cli"]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=300)


def _commands() -> list[tuple[str, list[str]]]:
    """The README's commands: (file, arguments)."""
    found = []
    for line in (GENERATED / "README.md").read_text().splitlines():
        words = line.split()
        if words[:2] == ["tiebreak", "generate"]:
            found.append((words[-1], words[2:-2]))
    return found


@pytest.mark.parametrize(("name", "args"), _commands(), ids=[name for name, _ in _commands()])
def test_the_generator_writes_the_files_bbppairings_replayed_identically(name: str, args: list[str]) -> None:
    written = tiebreak("generate", *args)
    assert written.returncode == 0, written.stderr
    assert written.stdout == (GENERATED / name).read_text()
    checked = tiebreak("check", str(GENERATED / name))
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.splitlines()[-1] == f"all {parse_trf(written.stdout).rounds} rounds identical"


def test_the_same_seed_gives_the_same_file_and_another_seed_another(tmp_path: Path) -> None:
    args = ["--players", "15", "--rounds", "5", "--forfeit-rate", "10", "--bye-rate", "10", "--retire-rate", "10"]
    first = tiebreak("generate", *args, "--seed", "7", "--out", str(tmp_path / "a.trf"))
    assert first.returncode == 0 and first.stdout.strip() == f"wrote {tmp_path / 'a.trf'}: 15 players, 5 rounds, seed 7"
    assert tiebreak("generate", *args, "--seed", "7").stdout == (tmp_path / "a.trf").read_text()
    assert tiebreak("generate", *args, "--seed", "8").stdout != (tmp_path / "a.trf").read_text()
    unseeded = tiebreak("generate", *args).stdout
    assert unseeded.startswith("012 Random Swiss, seed ")  # the seed drawn is named, so it can be replayed


def test_a_generated_file_is_complete_trf_2026() -> None:
    t = generate_tournament(GeneratorSettings(players=31, rounds=13, seed=15, draw_rate=10, forfeit_rate=15,
                                              bye_rate=10, retire_rate=15))
    text = (GENERATED / "g_n31_r13.trf").read_text()
    lines = text.splitlines()
    assert {"142 13", "XXR 13", "152 W", "XXC white1", "092 FIDE_DUTCH_2025"} <= set(lines) or \
           {"142 13", "XXR 13", "152 B", "XXC black1", "092 FIDE_DUTCH_2025"} <= set(lines)
    back = parse_trf(text)
    def games(x):
        return {(g.round, g.white, g.black, g.result) for g in x.games}

    assert games(back) == games(t) and set(back.byes) == set(t.byes) and back.withdrawals == t.withdrawals
    assert any(b.kind is ByeKind.HALF for b in t.byes) and t.withdrawals
    assert any(g.result is not None and g.result.is_forfeit for g in t.games)
    assert all(line[80:84].strip() for line in lines if line.startswith("001"))  # points, as pairing programs need


def _tampered(tmp_path: Path, name: str, rnd: int) -> tuple[Path, tuple[int, int]]:
    """The file with the colours of one board of round ``rnd`` swapped: (path, (white, black))."""
    lines = (FRESH / f"{name}.trf").read_text().splitlines()
    at = 91 + 10 * (rnd - 1)
    white = next(int(line[4:8]) for line in lines if line.startswith("001") and line[at + 5:at + 6] == "w"
                 and line[at + 7] in "10=")
    black = int(next(line for line in lines if line.startswith("001") and int(line[4:8]) == white)[at:at + 4])
    swap = {"w": "b", "b": "w"}
    out = [line[:at + 5] + swap[line[at + 5]] + line[at + 6:] if line.startswith("001") and int(line[4:8]) in
           (white, black) else line for line in lines]
    path = tmp_path / f"{name}.trf"
    path.write_text("\n".join(out) + "\n")
    return path, (white, black)


def test_a_tampered_round_is_reported_with_its_boards(tmp_path: Path) -> None:
    path, (white, black) = _tampered(tmp_path, "r24000045_n23_r12", 5)
    checked = tiebreak("check", str(path))
    assert checked.returncode == 1
    out = checked.stdout.splitlines()
    assert "round 4: identical to the FIDE Dutch system's pairing (11 boards, bye" in "\n".join(out)
    assert f"{white}-{black}: the Dutch system gives white to {white}, the round to {black}" in checked.stdout
    # the swapped colours change the colour histories: later rounds may differ too
    assert " rounds identical; differ: round 5" in out[-1]
    data = json.loads(tiebreak("check", str(path), "--json").stdout)
    assert data["identical"] is False and data["differing_rounds"][0] == 5
    five = next(r for r in data["rounds"] if r["round"] == 5)
    assert five["identical"] is False and five["differences"][0]["dutch"] == [white, black]
    assert five["differences"][0]["round"] == [[black, white]]
    one = next(r for r in data["rounds"] if r["round"] == 1)
    assert one == {"round": 1, "identical": True, "boards": 11, "bye": one["bye"], "differences": [],
                   "violations": [], "error": None}


REMATCH = """012 Rematch
XXR 3
XXC white1
001    1      Player 1                          2490                             2.0    1     5 w 1     5 b 1
001    2      Player 2                          2480                             1.5    2     6 b 1     3 w =
001    3      Player 3                          2470                             1.5    3     7 w 1     2 b =
001    4      Player 4                          2460                             1.0    4     8 b 1     7 w 0
001    5      Player 5                          2450                             0.0    5     1 b 0     1 w 0
001    6      Player 6                          2440                             0.0    6     2 w 0     8 b 0
001    7      Player 7                          2430                             1.0    7     3 b 0     4 b 1
001    8      Player 8                          2420                             1.0    8     4 w 0     6 w 1
"""


def test_a_round_paired_otherwise_names_the_pairs_and_the_rules_it_breaks(tmp_path: Path) -> None:
    path = tmp_path / "rematch.trf"
    path.write_text(REMATCH)
    checked = tiebreak("check", str(path))
    assert checked.returncode == 1, checked.stdout
    assert "round 1: identical to the FIDE Dutch system's pairing (4 boards, colours included)" in checked.stdout
    assert "round 2: differs from the FIDE Dutch system in" in checked.stdout
    assert "rule broken (C1): 5-1: the players have already met" in checked.stdout
    assert checked.stdout.splitlines()[-1] == "1 of 2 rounds identical; differ: round 2"


@pytest.mark.parametrize(("args", "message"), [
    (["check", "no-such.trf"], "no-such.trf"),
    (["check", "{broken}"], "broken.trf"),
    (["check", str(ROOT / "ranking" / "examples" / "xiangqi-rr.toml")], "is a round robin"),
    (["generate", "--players", "8", "--rounds", "8"], "--rounds 8: expected 1 to 7 for 8 players"),
    (["generate", "--players", "1", "--rounds", "1"], "--players 1: a Swiss needs at least 2 players"),
    (["generate", "--players", "8", "--rounds", "3", "--draw-rate", "101"], "--draw-rate 101: expected a percentage"),
    (["generate", "--players", "8"], "the following arguments are required: --rounds"),
])
def test_bad_input_is_one_line_and_exit_status_2(args: list[str], message: str) -> None:
    broken = DATA / "cli" / "broken.trf"
    result = tiebreak(*[arg.format(broken=broken) for arg in args])
    assert result.returncode == 2, result.stdout
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_round_as_it_stood_before_it_was_paired_is_a_file_pairing_programs_read() -> None:
    """``before_round`` (what ``tiebreak check`` and the benchmark hand to an engine): the rounds
    before, the round's requested byes and the withdrawals made before it, and nothing of the
    rounds after, so that bbpPairings reads the file as ending with the round to pair (it checks
    the points column against every round it finds)."""
    t = generate_tournament(GeneratorSettings(players=31, rounds=13, seed=15, draw_rate=10, forfeit_rate=15,
                                              bye_rate=10, retire_rate=15))
    for rnd in (2, 7, 13):
        before = before_round(t, rnd)
        assert all(w.after_round < rnd for w in before.withdrawals)
        assert {w for w in t.withdrawals if w.after_round < rnd} == set(before.withdrawals)
        text = export_text(before, "trf")
        lines = [line for line in text.splitlines() if line.startswith("001")]
        assert max(len(line[91:].split()) for line in lines) == 3 * rnd  # round rnd: byes and absences
        assert all(len(line[91:].split()) <= 3 * rnd for line in lines)
        back = parse_trf(text)
        assert {b for b in back.byes if b.round == rnd} == \
               {b for b in t.byes if b.round == rnd and b.kind is not ByeKind.PAIRING}
        assert back.withdrawals == before.withdrawals
        absent = {int(line[4:8]) for line in lines if line[91 + 10 * (rnd - 1):].strip() == "0000 - Z"}
        assert {w.player for w in before.withdrawals} <= absent  # for any program: not to be paired
        pairing = pair_round(back, rnd)
        assert set(pairing.pairs) == {(g.white, g.black) for g in t.games if g.round == rnd}


def test_round_one_as_it_stood_before_it_was_paired_names_the_initial_colour() -> None:
    """Before round 1 the file holds no game, so the initial colour round 1 showed is written
    (TRF-2026 ``152``, JaVaFo ``XXC``, C.04.3 5.2.5 / C.04.2 D.3): any program then pairs round 1
    with the same colours.  A file that names it already is left as it is, and a later round shows
    it through round 1."""
    t = parse_trf((FRESH / "c40461144_n6_r5.trf").read_text(encoding="utf-8"))
    assert not [tag for tag, _ in t.records if tag in ("152", "XXC")]
    first = before_round(t, 1)
    assert not first.games and not [b for b in first.byes if b.kind is ByeKind.PAIRING]
    text = export_text(first, "trf")
    assert "\n152 W" in text and "\nXXC white1" in text
    back = parse_trf(text)
    assert set(pair_round(back, 1).pairs) == {(g.white, g.black) for g in t.games if g.round == 1}
    assert before_round(back, 1).records == back.records  # already named: nothing added
    assert before_round(t, 3).records == t.records
